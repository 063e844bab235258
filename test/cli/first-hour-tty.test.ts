// Issue 13, rows 1, 2 and 9 on a real pseudo-terminal: the built CLI runs under util-linux
// `script`, which gives it a pty; the test types into it and checks what the screen shows.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startEmulator, type EmulatorHandle } from '../../src/emulator/index.js';
import { CLI, runCli } from './cli-fixture.js';
import { screenOf } from './screen.js';

const KEY = 'local-dev-key';
const PROMPT = "Do you want to apply these changes? Only 'yes' will be accepted:";
const hasScript = spawnSync('script', ['--version']).status === 0;

let emu: EmulatorHandle;
let dir: string;
beforeAll(async () => {
  emu = await startEmulator({ port: 0, quiet: true });
});
afterAll(async () => {
  await emu.close();
});
beforeEach(async () => {
  await fetch(`${emu.origin}/__emulator/reset`, { method: 'POST' });
  await fetch(`${emu.origin}/__emulator/config`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ latencyMs: 0 }) });
  dir = mkdtempSync(join(tmpdir(), 'agentsync-tty-'));
  expect((await runCli(['init'], { cwd: dir })).code).toBe(0);
  return () => rmSync(dir, { recursive: true, force: true });
});

interface PtyResult {
  code: number | null;
  /** Everything the terminal received, escapes included. */
  raw: string;
  /** What the screen shows at the end. */
  screen: string[];
}

const shellQuote = (word: string): string => `'${word.replaceAll("'", `'\\''`)}'`;

/**
 * Runs the CLI on a pseudo-terminal, 100 columns wide. Each step waits until the screen shows
 * `when`, then types `send`.
 */
function onPty(args: readonly string[], steps: { when: string; send: string }[] = []): Promise<PtyResult> {
  const command = `stty cols 100 rows 40; exec ${[process.execPath, CLI, ...args].map(shellQuote).join(' ')}`;
  const env = { PATH: process.env.PATH, TERM: 'xterm-256color', COMETCHAT_API_KEY: KEY, AGENTSYNC_BASE_URL: emu.url };
  const child = spawn('script', ['-qfec', command, '/dev/null'], { cwd: dir, env, stdio: ['pipe', 'pipe', 'pipe'] });
  let raw = '';
  let next = 0;
  child.stdout.on('data', (chunk: Buffer) => {
    raw += chunk.toString();
    const step = steps[next];
    if (step && screenOf(raw).join('\n').includes(step.when)) {
      next++;
      child.stdin.write(step.send);
    }
  });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, raw, screen: screenOf(raw) });
    });
  });
}

async function serverWrites(): Promise<unknown[]> {
  const body = (await (await fetch(`${emu.origin}/__emulator/requests`)).json()) as { requests: { method: string; path: string }[] };
  return body.requests.filter((r) => r.path.startsWith('/v3/') && r.method !== 'GET');
}

describe.runIf(hasScript)('on a terminal', () => {
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
    await fetch(`${emu.origin}/__emulator/config`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ latencyMs: 200 }) });
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
    expect((await runCli(['plan', '--out', 'plan.json'], { cwd: dir, env: { COMETCHAT_API_KEY: KEY, AGENTSYNC_BASE_URL: emu.url } })).code).toBe(0);
    const result = await onPty(['apply', 'plan.json']);
    expect(result.code).toBe(0);
    expect(result.raw).not.toContain('Do you want to apply');
    expect(result.screen).toContain('Apply complete: 2 created, 0 updated, 0 forgotten.');
  });
});
