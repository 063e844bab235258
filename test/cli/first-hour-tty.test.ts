// Issue 13, rows 1, 2 and 9 on a real pseudo-terminal: the built CLI runs under util-linux
// `script`, which gives it a pty; the test types into it and checks what the screen shows.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { hasScript, runCli, runCliOnTerminal, type TerminalResult } from '../support/cli.js';
import { startTestEmulator, type TestEmulator } from '../support/emulator.js';

const KEY = 'local-dev-key';
const PROMPT = "Do you want to apply these changes? Only 'yes' will be accepted:";

let emu: TestEmulator;
let dir: string;
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
