// The emulator refuses other web pages on every route, the API included: a foreign Origin or
// Sec-Fetch-Site, or a Host that names neither the address it listens on nor a loopback name, is a
// 403. Scripts and the CLI send no Origin and keep working. Real HTTP, with the Host header set by hand.
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_KEY, startTestEmulator, type TestEmulator } from '../support/emulator.js';

describe('the emulator guards every route against other web pages', () => {
  let emu: TestEmulator;
  beforeAll(async () => {
    emu = await startTestEmulator();
  });
  afterAll(() => emu.close());

  const status = (path: string, headers: Record<string, string>): Promise<number> =>
    new Promise((resolve, reject) => {
      const req = request(`${emu.origin}${path}`, { method: 'GET', headers: { apikey: API_KEY, ...headers } }, (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      });
      req.on('error', reject);
      req.end();
    });
  const port = (): string => String(emu.port);

  it.each(['/v3/ai-agents/tools', '/__emulator/config', '/'])('%s: a loopback Host or the listening address, and no Origin, is served', async (path) => {
    for (const host of [`127.0.0.1:${port()}`, `localhost:${port()}`, `[::1]:${port()}`]) expect(await status(path, { host }), host).toBe(200);
    expect(await status(path, { host: `127.0.0.1:${port()}`, origin: `http://127.0.0.1:${port()}` })).toBe(200);
  });

  it.each(['/v3/ai-agents/tools', '/__emulator/config', '/'])('%s: a foreign Origin, a cross-site fetch or a Host not ours is refused', async (path) => {
    expect(await status(path, { origin: 'http://evil.example' })).toBe(403);
    expect(await status(path, { 'sec-fetch-site': 'cross-site' })).toBe(403);
    expect(await status(path, { host: `rebound.attacker.test:${port()}` })).toBe(403);
    // An IP address the emulator does not listen on (it listens on 127.0.0.1 only), and the wrong port.
    expect(await status(path, { host: `10.1.2.3:${port()}` })).toBe(403);
    expect(await status(path, { host: `127.0.0.1:${Number(port()) + 1}` })).toBe(403);
  });

  const fetchText = (path: string, headers: Record<string, string>): Promise<{ status: number; text: string }> =>
    new Promise((resolve, reject) => {
      const req = request(`${emu.origin}${path}`, { headers }, (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
      });
      req.on('error', reject);
      req.end();
    });

  it.each(['/__emulator/sites/docs/', '/__emulator/sites/docs/install', '/__emulator/sites/docs/sitemap.xml', '/v3/__emulator/sites/docs/sitemap.xml'])(
    'the demo site %s refuses a rebound Host, a foreign Origin and a cross-site fetch, and never writes the forged Host',
    async (path) => {
      const forged: Record<string, string>[] = [{ host: `evil.example:${port()}` }, { host: 'evil.example' }, { origin: 'http://evil.example' }, { 'sec-fetch-site': 'cross-site' }];
      for (const headers of forged) {
        const answer = await fetchText(path, headers);
        expect(answer.status, JSON.stringify(headers)).toBe(403);
        expect(answer.text).not.toContain('<loc>');
        expect(answer.text).not.toContain('href=');
      }
    },
  );

  it('the demo site links root-relative, and its sitemap names the origin rebuilt from our own names, not the Host text', async () => {
    const page = await fetchText('/__emulator/sites/docs/', { host: `localhost:${port()}` });
    expect(page.status).toBe(200);
    const hrefs = [...page.text.matchAll(/href="([^"]*)"/g)].map((m) => m[1] ?? '');
    expect(hrefs).toContain('/__emulator/sites/docs/install');
    expect(hrefs.filter((href) => href.includes('localhost'))).toEqual([]);
    const sitemap = await fetchText('/__emulator/sites/docs/sitemap.xml', { host: `LocalHost:${port()}` });
    const locs = [...sitemap.text.matchAll(/<loc>([^<]*)<\/loc>/g)].map((m) => m[1] ?? '');
    expect(locs.length).toBeGreaterThan(10);
    for (const loc of locs) expect(loc.startsWith(`http://localhost:${port()}/__emulator/sites/docs/`)).toBe(true);
    const byIp = await fetchText('/__emulator/sites/docs/sitemap.xml', { host: `127.0.0.1:${port()}` });
    expect(byIp.text).toContain(`<loc>http://127.0.0.1:${port()}/__emulator/sites/docs/install</loc>`);
  });

  it('says why, in the API error shape', async () => {
    const body = await new Promise<string>((resolve, reject) => {
      const req = request(`${emu.origin}/v3/ai-agents/tools`, { headers: { apikey: API_KEY, origin: 'http://evil.example' } }, (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () => resolve(text));
      });
      req.on('error', reject);
      req.end();
    });
    expect(body).toContain('Requests from http://evil.example are refused');
    // Nothing was done: the refused request never reached the API, and the log shows it as a 403.
    const log = await emu.requests();
    expect(log.filter((r) => r.status === 403).length).toBeGreaterThan(0);
  });
});
