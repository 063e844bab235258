// Knowledge-base faults (docs/spec/knowledge-base.md#discovered-urls): a crawl of an unreachable
// site, a 429 storm while paging, a server that answers the same cursor forever, and 10,000
// discovered URLs. Each ends cleanly (one line, exit code, no hang), loses nothing (the state file
// is byte-for-byte what it was, or holds what was done), and stays within bounded memory (the
// child's peak RSS, measured with /usr/bin/time). The 10,000 URLs, whose subject is the process's
// peak RSS, are test/torture/processes.test.ts; the rest runs the CLI in this process.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { runCli, type CliResult } from '../support/cli.js';
import { API_KEY, startTestEmulator, type TestEmulator } from '../support/emulator.js';
import { makeWorkspace, type Workspace } from './helpers.js';

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
});
