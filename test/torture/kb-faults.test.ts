// Knowledge-base faults (docs/spec/knowledge-base.md#discovered-urls): a crawl of an unreachable
// site, a 429 storm while paging, a server that answers the same cursor forever, and 10,000
// discovered URLs. Each ends cleanly (one line, exit code, no hang), loses nothing (the state file
// is byte-for-byte what it was, or holds what was done), and stays within bounded memory (the
// child's peak RSS, measured with /usr/bin/time).
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { assertBuilt, cliEnv, CLI, collect, runCli, type CliResult } from '../support/cli.js';
import { API_KEY, startTestEmulator, type TestEmulator } from '../support/emulator.js';
import { makeWorkspace, type Workspace } from './helpers.js';

const TIME = '/usr/bin/time';

function startSite(pages: number): Promise<{ server: Server; origin: string }> {
  const server = createServer((req, res) => {
    const body = req.url === '/' ? Array.from({ length: pages }, (_, i) => `<a href="/p/${i}">${i}</a>`).join('') : 'page';
    res.writeHead(200, { 'content-type': 'text/html' });
    res.end(`<html><body>${body}</body></html>`);
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve({ server, origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}` })));
}

const urlManifest = (url: string): string =>
  `version: 1\nenvironments:\n  local: { appId: local, region: us }\nknowledgeBase:\n  websites:\n    docs:\n      url: ${url}\n      maxPages: 1000\n      exclude: ["**/p/1*"]\n`;

describe('knowledge-base faults', () => {
  let emu: TestEmulator;
  let site: { server: Server; origin: string };
  let ws: Workspace;
  const env = (extra: Record<string, string> = {}): Record<string, string> => ({ COMETCHAT_API_KEY: API_KEY, AGENTSYNC_BASE_URL: emu.url, AGENTSYNC_KB_POLL_MS: '100', ...extra });
  const cli = (args: string[], extra: Record<string, string> = {}): Promise<CliResult> => runCli([...args, '--state', 'state.json'], { cwd: ws.dir, env: env(extra), timeoutMs: 120_000 });
  const config = async (body: object): Promise<void> => {
    const res = await fetch(`${emu.origin}/__emulator/config`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    expect(res.status).toBe(200);
  };
  const stateBytes = (): string => (existsSync(ws.path('state.json')) ? readFileSync(ws.path('state.json'), 'utf8') : '');

  beforeAll(async () => {
    assertBuilt();
    emu = await startTestEmulator({ kb: { kbProcessingMs: 200 } });
    site = await startSite(250);
  });
  afterAll(async () => {
    await emu.close();
    await new Promise((resolve) => site.server.close(resolve));
  });
  beforeEach(async () => {
    ws = makeWorkspace('agentsync-kb-faults-');
    await fetch(`${emu.origin}/__emulator/reset`, { method: 'POST' });
    await config({ kbProcessingMs: 200, kbThrottleNext: 0, kbCursorForever: false, kbThrottleRetryAfterSeconds: 0 });
    return () => ws.remove();
  });

  it('a crawl of an unreachable site: one clear line, exit 1, nothing recorded, and the next plan still creates it', async () => {
    // A port that was just free: nothing listens there.
    const closed = await startSite(0);
    const dead = closed.origin;
    await new Promise((resolve) => closed.server.close(resolve));
    writeFileSync(ws.path('agents.yaml'), urlManifest(`${dead}/`));
    const applied = await cli(['apply', '--auto-approve', '--wait']);
    expect(applied.code).toBe(1);
    expect(applied.stdout + applied.stderr).toMatch(/website\.docs/);
    expect(applied.stderr).not.toMatch(/\n\s+at /); // no stack trace
    expect(JSON.parse(stateBytes() || '{"resources":{}}').resources['website.docs']).toBeUndefined();
    const plan = await cli(['plan']);
    expect(plan.stdout).toContain('+ website.docs');
  });

  it('a 429 storm while paging: a short one is ridden out, a long one ends cleanly with the state untouched', async () => {
    writeFileSync(ws.path('agents.yaml'), urlManifest(`${site.origin}/`));
    expect((await cli(['apply', '--auto-approve'])).code).toBe(0);
    const before = stateBytes();
    await config({ kbThrottleNext: 4 });
    const ridden = await cli(['plan']);
    expect(ridden.code, ridden.stderr).toBe(0);
    expect(ridden.stdout).toContain('No changes.');
    await config({ kbThrottleNext: 1000 });
    const started = Date.now();
    const stormed = await cli(['apply', '--auto-approve', '--wait', '--retries', '2']);
    expect(stormed.code).toBe(1);
    expect(stormed.stderr.trim().split('\n')).toHaveLength(1);
    expect(stormed.stderr).toMatch(/website\.docs.*429|429.*website\.docs|discovered URLs of website\.docs/);
    expect(Date.now() - started).toBeLessThan(60_000);
    expect(stateBytes()).toBe(before);
  });

  it('a server that answers the same cursor forever: an error naming the website, no hang, the state untouched', async () => {
    writeFileSync(ws.path('agents.yaml'), urlManifest(`${site.origin}/`));
    expect((await cli(['apply', '--auto-approve'])).code).toBe(0);
    const before = stateBytes();
    await config({ kbCursorForever: true });
    // Refresh degrades per resource (issue 31 item 12): the plan names the website and plans nothing for it.
    const plan = await cli(['plan']);
    expect(plan.stdout).toMatch(/Could not be read from the server[^\n]*\n\s+! website\.docs: the server answered the same cursor twice while listing discovered URLs/);
    expect(plan.code).toBe(1); // an incomplete plan fails the check, after it is shown
    expect(stateBytes()).toBe(before);
    for (const args of [
      ['apply', '--auto-approve'],
      ['kb', 'status'],
    ]) {
      const run = await cli(args);
      expect(run.code, args.join(' ')).toBe(1);
      expect(run.stderr).toContain('website.docs: the server answered the same cursor twice while listing discovered URLs');
      expect(stateBytes()).toBe(before);
    }
  });

  it('10,000 discovered URLs: paged, refreshed, waited for and listed, in bounded memory', async () => {
    const seeded = await fetch(`${emu.origin}/__emulator/kb/websites`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ count: 10_000, url: 'https://big.example.com' }),
    });
    const { parentUniqueId } = (await seeded.json()) as { parentUniqueId: string };
    writeFileSync(
      ws.path('agents.yaml'),
      `version: 1\nenvironments:\n  local: { appId: local, region: us }\nknowledgeBase:\n  websites:\n    big: { parentUniqueId: ${parentUniqueId}, exclude: [] }\n`,
    );
    const applied = await measured(['apply', '--auto-approve', '--wait'], ws.dir, env({ AGENTSYNC_KB_POLL_MS: '300' }));
    expect(applied.result.code, applied.result.stderr).toBe(0);
    expect(applied.result.stdout).toContain('Indexing complete: 10000 processed, 0 failed');
    const plan = await measured(['plan'], ws.dir, env());
    expect(plan.result.stdout).toContain('No changes.');
    const status = await measured(['kb', 'status', '--urls'], ws.dir, env());
    expect(status.result.stdout).toContain('website.big: 10000 URLs (0 discovered, 0 processing, 10000 processed, 0 failed, 0 skipped)');
    expect(status.result.stdout.split('\n').filter((line) => line.includes('https://big.example.com/page/'))).toHaveLength(10_000);
    const pages = (await emu.requests()).filter((r) => r.method === 'GET' && r.path.includes('/discovered-urls'));
    expect(pages.length).toBeGreaterThanOrEqual(300); // 100 pages for each of the three reads
    for (const run of [applied, plan, status]) if (run.maxRssKb !== undefined) expect(run.maxRssKb).toBeLessThan(300_000);
    console.log(`10,000 URLs peak RSS (KB): apply --wait ${applied.maxRssKb}, plan ${plan.maxRssKb}, kb status --urls ${status.maxRssKb}`);
  });
});

/** The CLI under /usr/bin/time, for its peak RSS; without it, the run alone. */
async function measured(args: string[], cwd: string, extra: Record<string, string>): Promise<{ result: CliResult; maxRssKb: number | undefined }> {
  const full = [CLI, ...args, '--state', 'state.json'];
  if (!existsSync(TIME)) return { result: await runCli([...args, '--state', 'state.json'], { cwd, env: extra }), maxRssKb: undefined };
  const child = spawn(TIME, ['-f', 'MAXRSS_KB=%M', process.execPath, ...full], { cwd, env: cliEnv(extra), stdio: ['ignore', 'pipe', 'pipe'] });
  const result = await collect(child, 120_000);
  const match = /MAXRSS_KB=(\d+)/.exec(result.stderr);
  result.stderr = result.stderr.replace(/MAXRSS_KB=\d+\n?/, '');
  return { result, maxRssKb: match ? Number(match[1]) : undefined };
}
