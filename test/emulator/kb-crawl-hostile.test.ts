// Issue 31 item 6: the emulator's crawl ends on time against hostile sites. A page that trickles
// forever is cut off at the fetch bound even after full garbage collections (on Node 20, an
// AbortSignal.timeout() inside AbortSignal.any() stopped firing after one), the whole-crawl bound
// cuts off fetches in flight, and a 1 MB page of unclosed tags no longer blocks the event loop.
// Real sites on 127.0.0.1:0, the emulator in-process over real HTTP.
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { afterEach, describe, expect, it } from 'vitest';
import { startTestEmulator, type TestEmulator } from '../support/emulator.js';
import { discoveredPaths, scrape } from './kb-helpers.js';

setFlagsFromString('--expose_gc');
const gc = runInNewContext('gc') as () => void;

const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  await Promise.all(closers.splice(0).map((close) => close()));
});

/** `/` links to each path of `paths`; `/trickle` sends a byte every 50 ms forever; `/big` is `big`. */
async function hostileSite(paths: string[], big = ''): Promise<string> {
  const trickling = new Set<ServerResponse>();
  const server: Server = createServer((req, res) => {
    res.writeHead(200, { 'content-type': 'text/html' });
    if (req.url === '/') return res.end(paths.map((path) => `<a href="${path}">${path}</a>`).join(''));
    if (req.url === '/big') return res.end(big);
    if (req.url === '/hang') return; // headers sent, then nothing
    trickling.add(res);
    const timer = setInterval(() => res.write('<p>x</p>'), 50);
    res.on('close', () => clearInterval(timer));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  closers.push(
    () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  );
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

async function emulator(kb: { kbFetchTimeoutMs: number; kbCrawlTimeoutMs: number }): Promise<TestEmulator> {
  const emu = await startTestEmulator({ kb });
  closers.push(() => emu.close());
  return emu;
}

/** `work`, or a failure naming what hung, after `ms`. */
async function within<T>(ms: number, what: string, work: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`${what} did not end within ${ms} ms`)), ms)));
  try {
    return await Promise.race([work, late]);
  } finally {
    clearTimeout(timer);
  }
}

describe('the crawl ends on time against hostile sites', () => {
  it('cuts off a trickling page at the fetch bound, even while full garbage collections run', async () => {
    const emu = await emulator({ kbFetchTimeoutMs: 1_000, kbCrawlTimeoutMs: 60_000 });
    const origin = await hostileSite(['/trickle', '/trickle2']);
    const collecting = setInterval(gc, 50);
    try {
      const started = Date.now();
      const reply = await within(10_000, 'the scrape', scrape(emu, { url: `${origin}/` }));
      expect(reply.status, JSON.stringify(reply.json)).toBe(200);
      expect(Date.now() - started).toBeLessThan(5_000);
      // The trickling pages were cut off, not taken: only the start page was discovered.
      expect(await discoveredPaths(emu, (reply.json as { data: { crawlId: string } }).data.crawlId, origin)).toEqual(['/']);
    } finally {
      clearInterval(collecting);
    }
  });

  it('the whole-crawl bound cuts off the fetches in flight, not only the next batch', async () => {
    // 1.5 s: enough for the start page even on a loaded machine; the hanging pages take the rest.
    const emu = await emulator({ kbFetchTimeoutMs: 60_000, kbCrawlTimeoutMs: 1_500 });
    const origin = await hostileSite(['/hang', '/trickle']);
    const collecting = setInterval(gc, 50);
    try {
      const started = Date.now();
      const reply = await within(10_000, 'the scrape', scrape(emu, { url: `${origin}/` }));
      expect(reply.status, JSON.stringify(reply.json)).toBe(200);
      expect((reply.json as { message: string }).message).toContain('time bound');
      expect(Date.now() - started).toBeLessThan(5_000);
    } finally {
      clearInterval(collecting);
    }
  });

  it.each([['<a '], ['<title>']])('a 1 MB page of unclosed %j is read quickly and the emulator keeps answering meanwhile', async (unit) => {
    const emu = await emulator({ kbFetchTimeoutMs: 5_000, kbCrawlTimeoutMs: 30_000 });
    const origin = await hostileSite(['/big'], unit.repeat(Math.ceil((1024 * 1024) / unit.length)));
    const started = Date.now();
    const scraping = scrape(emu, { url: `${origin}/` });
    // While the big page is read, another request is answered promptly (the event loop is not blocked).
    let slowest = 0;
    while (Date.now() - started < 1_000) {
      const asked = Date.now();
      await within(5_000, 'a request during the crawl', emu.call('GET', '/ai-agents/tools'));
      slowest = Math.max(slowest, Date.now() - asked);
    }
    const reply = await within(10_000, 'the scrape', scraping);
    expect(reply.status, JSON.stringify(reply.json)).toBe(200);
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(slowest).toBeLessThan(1_000);
  });
});
