// The built CLI on a real pseudo-terminal: it runs under util-linux `script`, which gives it a
// pty; the test types into it and checks what the screen shows. Issue 13, rows 1, 2 and 9 (the
// confirmation prompt, the live line of an apply, a saved plan), and `apply --wait`'s live line.
import { mkdtempSync, rmSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { hasScript, runCli, runCliOnTerminal, type TerminalResult } from '../support/cli.js';
import { API_KEY, startTestEmulator, type TestEmulator } from '../support/emulator.js';

const KEY = 'local-dev-key';
const PROMPT = "Do you want to apply these changes? Only 'yes' will be accepted:";

let emu: TestEmulator;
let dir: string;

/**
 * Runs the CLI on a pseudo-terminal, 100 columns wide, with colours allowed. Each step waits until
 * the screen shows `when`, then types `send`.
 */
function onPty(args: readonly string[], steps: { when: string; send: string }[] = []): Promise<TerminalResult> {
  return runCliOnTerminal(args, { cwd: dir, columns: 100, term: 'xterm-256color', env: { NO_COLOR: undefined, ...emu.env }, steps });
}

async function serverWrites(): Promise<unknown[]> {
  return emu.apiWrites();
}

describe.runIf(hasScript())('on a terminal', () => {
  beforeAll(async () => {
    emu = await startTestEmulator({ apiKey: KEY });
  });
  afterAll(async () => {
    await emu.close();
  });
  beforeEach(async () => {
    await emu.reset();
    await emu.configure({ latencyMs: 0 });
    dir = mkdtempSync(join(tmpdir(), 'agentsync-tty-'));
    expect((await runCli(['init'], { cwd: dir })).code).toBe(0);
    return () => rmSync(dir, { recursive: true, force: true });
  });

  it.each([
    ['Ctrl-C', '\u0003'],
    ['Ctrl-D', '\u0004'],
    ['"no"', 'no\r'],
  ])('row 1: %s at the confirmation prompt says "Apply cancelled." and exits 1, with nothing sent', async (_name, keys) => {
    const result = await onPty(['apply'], [{ when: PROMPT, send: keys }]);
    expect(result.code).toBe(1);
    const prompt = result.screen.findIndex((line) => line.startsWith(PROMPT));
    expect(prompt).toBeGreaterThan(0);
    expect(result.screen.slice(prompt + 1).filter((line) => line !== '')).toEqual(['Apply cancelled.']);
    expect(result.raw).not.toMatch(/internal error|please report/);
    expect(await serverWrites()).toEqual([]);
  });

  it('row 2: an interactive apply leaves one line per finished resource, under a live line while calls are in flight', async () => {
    await emu.configure({ latencyMs: 200 });
    const result = await onPty(['apply'], [{ when: PROMPT, send: 'yes\r' }]);
    expect(result.code).toBe(0);
    // While a call is in flight, the live line names it (and is rewritten in place).
    // eslint-disable-next-line no-control-regex -- the live line is drawn with terminal escapes
    expect(result.raw).toMatch(/\r\u001b\[K\[0\/2\] \d+ s, in flight: tool\.get_weather/);
    // eslint-disable-next-line no-control-regex -- the live line is drawn with terminal escapes
    expect(result.raw).toMatch(/\r\u001b\[K\[1\/2\] \d+ s, in flight: agent\.assistant/);
    // What stays on the screen: Terraform's "address: outcome (call, time)" lines, then the summary.
    const after = result.screen.slice(result.screen.findIndex((line) => line.startsWith(PROMPT)) + 1).filter((line) => line !== '');
    expect(after).toEqual([
      expect.stringMatching(/^tool\.get_weather: created \(POST, \d+ ms\)$/),
      expect.stringMatching(/^agent\.assistant: created \(POST, \d+ ms\)$/),
      'Apply complete: 2 created, 0 updated, 0 forgotten.',
    ]);
  });

  it('row 9: a saved plan is applied without asking again', async () => {
    expect((await runCli(['plan', '--out', 'plan.json'], { cwd: dir, env: emu.env })).code).toBe(0);
    const result = await onPty(['apply', 'plan.json']);
    expect(result.code).toBe(0);
    expect(result.raw).not.toContain('Do you want to apply');
    expect(result.screen).toContain('Apply complete: 2 created, 0 updated, 0 forgotten.');
  });
});

// `apply --wait` on a terminal (docs/spec/knowledge-base.md#waiting-for-indexing): one live line, rewritten in place with \r, that ends
// as the final counts; run on a real pseudo-terminal (`script`), the screen checked with screen.ts.
describe.runIf(hasScript())('apply --wait on a terminal', () => {
  let kbEmu: TestEmulator;
  let site: Server;
  let kbDir: string;
  beforeAll(async () => {
    kbEmu = await startTestEmulator({ quiet: true, kb: { kbProcessingMs: 1500 } });
    site = createServer((req, res) => {
      const body = req.url === '/' ? Array.from({ length: 30 }, (_, i) => `<a href="/p/${i}">${i}</a>`).join('') : 'page';
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end(`<html><body>${body}</body></html>`);
    });
    await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
    kbDir = await mkdtemp(join(tmpdir(), 'agentsync-kb-tty-'));
    const origin = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
    await writeFile(
      join(kbDir, 'agents.yaml'),
      `version: 1\nenvironments:\n  local: { appId: local, region: us }\nknowledgeBase:\n  websites:\n    docs: { url: "${origin}/", exclude: ["**/p/2*"] }\n`,
    );
  });
  afterAll(async () => {
    await kbEmu.close();
    await new Promise((resolve) => site.close(resolve));
    await rm(kbDir, { recursive: true, force: true });
  });

  it('shows one live line of processed, failed and remaining counts, rewritten in place', async () => {
    const { code, raw, screen } = await runCliOnTerminal(['apply', '--auto-approve', '--wait', '--state', 'state.json'], {
      cwd: kbDir,
      columns: 100,
      term: 'xterm-256color',
      env: { COMETCHAT_API_KEY: API_KEY, AGENTSYNC_BASE_URL: kbEmu.url, AGENTSYNC_KB_POLL_MS: '100' },
    });
    expect(code, raw).toBe(0);
    // Several updates were drawn, each over the last one.
    const updates = raw.split('\r\u001b[2KIndexing: ').length - 1;
    expect(updates).toBeGreaterThanOrEqual(3);
    const live = screen.filter((line) => line.startsWith('Indexing: '));
    expect(live).toHaveLength(1);
    // 31 URLs found, 11 excluded (p/2, p/20..29): 20 indexed.
    expect(live[0]).toMatch(/^Indexing: 20 processed, 0 failed, 0 remaining \(\d+s\)$/);
    expect(screen.some((line) => /^Indexing complete: 20 processed, 0 failed \(\d+s\)\.$/.test(line))).toBe(true);
  });
});
