// Signals in the middle of an apply, sent for real to the built CLI (a child process) against the
// in-process emulator over real HTTP: SIGINT and SIGTERM (issue 10, item 19), against a slow
// emulator (its latency option). A clean stop starts no new call, lets the calls in flight finish
// (or abandons them after a grace period), records every success, releases the lock, says what
// remains and exits 130 or 143; a second signal exits at once. A rerun then finishes the job with
// no duplicate. SIGKILL at random moments is crash.test.ts.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { setTimeout as delay } from 'node:timers/promises';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { assertBuilt, runCli, startCli, type CliRun } from '../support/cli.js';
import { startTestEmulator, type TestEmulator } from '../support/emulator.js';
import { waitFor } from '../support/wait.js';
import { makeWorkspace, serverAgents, type Workspace } from './helpers.js';

const AGENTS = 8;

function manifest(): string {
  const lines = ['version: 1', 'environments:', '  local: { appId: local, region: us }', 'tools:'];
  for (let i = 0; i < 2; i++) lines.push(`  t${i}: { displayName: T${i}, executionText: Working, doNotExecute: true }`);
  lines.push('agents:');
  for (let i = 0; i < AGENTS; i++) lines.push(`  a${i}: { name: agent-${i}, integrationType: llm, integrateWith: gpt-4o, tools: [t0] }`);
  return lines.join('\n') + '\n';
}

beforeAll(assertBuilt);

let emu: TestEmulator;
let ws: Workspace;

const lockFile = (): string => ws.path('.agentsync', 'local.state.json.lock');

interface StateFile {
  resources: Record<string, { remoteId: string }>;
  pending: Record<string, unknown>;
}
const readState = (): StateFile => JSON.parse(readFileSync(ws.path('.agentsync', 'local.state.json'), 'utf8')) as StateFile;

function startApply(): CliRun & { output: () => string } {
  const run = startCli(['apply', '--auto-approve', '--concurrency', '2'], { cwd: ws.dir, env: emu.env, timeoutMs: 60_000 });
  let seen = '';
  run.child.stdout?.on('data', (chunk: string) => (seen += chunk));
  return { ...run, output: () => seen };
}

const until = (condition: () => boolean | Promise<boolean>, what: string, timeoutMs = 30_000): Promise<void> => waitFor(what, condition, { timeoutMs, intervalMs: 20 });

/** Agent creates the server has received and not yet answered. */
async function agentPostsInFlight(): Promise<number> {
  return (await emu.requests()).filter((r) => r.method === 'POST' && r.path === '/v3/ai-agents/agents' && r.status === null).length;
}

const createdIn = (stdout: string): string[] => [...stdout.matchAll(/^created (\S+) \(/gm)].map((m) => m[1]!).sort();

/** A rerun at full speed finishes the job: every agent exists once, and a third run has nothing to do. */
async function expectRerunConverges(): Promise<void> {
  await emu.configure({ latencyMs: 0 });
  const rerun = await runCli(['apply', '--auto-approve'], { cwd: ws.dir, env: emu.env });
  expect(rerun.stderr).not.toMatch(/Error/);
  expect(rerun.code).toBe(0);
  const agents = await serverAgents(emu);
  expect(agents.map((a) => a.name).sort()).toEqual(Array.from({ length: AGENTS }, (_, i) => `agent-${i}`).sort());
  const again = await runCli(['plan'], { cwd: ws.dir, env: emu.env });
  expect(again.stdout).toContain('No changes.');
}

describe('a signal in the middle of an apply', () => {
  beforeAll(async () => {
    emu = await startTestEmulator({ putCreates: true });
  });
  afterAll(async () => {
    await emu.close();
  });
  beforeEach(async () => {
    await emu.reset();
    ws = makeWorkspace('agentsync-signals-');
    writeFileSync(ws.path('agents.yaml'), manifest());
  });
  afterEach(async () => {
    await emu.configure({ latencyMs: 0 });
    ws.remove();
  });

  it('SIGINT: no new call starts, calls in flight finish and are recorded, the lock is released, exit 130', async () => {
    await emu.configure({ latencyMs: 300 });
    const run = startApply();
    await until(() => /created agent\.a\d/.test(run.output()), 'the first agent to be created');
    run.child.kill('SIGINT');
    const result = await run.done;

    expect(result.code).toBe(130);
    expect(result.stderr).toContain('Interrupted (SIGINT): no new change will start');
    expect(result.stderr).not.toMatch(/internal error|at .*\.js:\d+/);
    expect(result.stdout).toMatch(/Apply interrupted: \d+ of 10 changes done, 0 cut off, 0 failed, [1-9]\d* not started\./);
    expect(result.stdout).toContain('Run apply again to do what remains');
    expect(existsSync(lockFile())).toBe(false);

    // Every success printed is in the state, and nothing is pending: the calls in flight finished.
    const state = readState();
    const created = createdIn(result.stdout);
    expect(Object.keys(state.resources).sort()).toEqual(created);
    expect(state.pending).toEqual({});
    // No call started after the signal: the server holds exactly the agents that were recorded.
    const onServer = await serverAgents(emu);
    expect(onServer.map((a) => a.uid).sort()).toEqual(
      created
        .filter((a) => a.startsWith('agent.'))
        .map((a) => state.resources[a]!.remoteId)
        .sort(),
    );
    expect(onServer.length).toBeLessThan(AGENTS);

    await expectRerunConverges();
  });

  it('SIGTERM: calls that outlast the grace period are cut off and stay pending; exit 143; the rerun adopts them', async () => {
    // The 20 s latency is set once both tool writes have arrived (they keep the 150 ms they arrived
    // with), so every agent create, which starts only once its tools are durable, meets it. Set on
    // the first "created" line instead, agents at 0 ms sometimes all finished before it.
    await emu.configure({ latencyMs: 150 });
    const run = startApply();
    await until(async () => (await emu.requests()).filter((r) => r.method === 'PUT' && r.path.startsWith('/v3/ai-agents/tools/')).length >= 2, 'both tool writes to arrive');
    await emu.configure({ latencyMs: 20_000 });
    await until(async () => (await agentPostsInFlight()) >= 2, 'two agent creates in flight');
    const signalledAt = Date.now();
    run.child.kill('SIGTERM');
    const result = await run.done;
    const took = Date.now() - signalledAt;

    expect(result.code).toBe(143);
    // The grace period (5 s) ended it, long before the server's 20 s answers.
    expect(took).toBeGreaterThan(4_000);
    expect(took).toBeLessThan(12_000);
    expect(result.stdout).toMatch(/cut off agent\.a\d: POST \/ai-agents\/agents \(INTERRUPTED\)/);
    const done = createdIn(result.stdout);
    expect(result.stdout).toContain(`Apply interrupted: ${done.length} of 10 changes done, 2 cut off, 0 failed, ${8 - done.length} not started.`);
    expect(result.stdout).toContain('it stays marked pending, so the next run adopts it');
    expect(existsSync(lockFile())).toBe(false);
    const state = readState();
    expect(Object.keys(state.resources).sort()).toEqual(done);
    const cutOff = [...result.stdout.matchAll(/^cut off (\S+):/gm)].map((m) => m[1]).sort();
    expect(Object.keys(state.pending).sort()).toEqual(cutOff);

    await expectRerunConverges();
  });

  it('a second SIGINT exits at once; the journal stays consistent and the rerun makes no duplicate', async () => {
    // The 20 s latency is set once both tool writes have arrived (they keep the 150 ms they arrived
    // with), so every agent create, which starts only once its tools are durable, meets it. Set on
    // the first "created" line instead, agents at 0 ms sometimes all finished before it.
    await emu.configure({ latencyMs: 150 });
    const run = startApply();
    await until(async () => (await emu.requests()).filter((r) => r.method === 'PUT' && r.path.startsWith('/v3/ai-agents/tools/')).length >= 2, 'both tool writes to arrive');
    await emu.configure({ latencyMs: 20_000 });
    await until(async () => (await agentPostsInFlight()) >= 2, 'two agent creates in flight');
    run.child.kill('SIGINT');
    // The gap between the two signals is the subject (a second SIGINT while the first is handled).
    await delay(300);
    const secondAt = Date.now();
    run.child.kill('SIGINT');
    const result = await run.done;

    expect(Date.now() - secondAt).toBeLessThan(2_000);
    expect(result.code).toBe(130);
    expect(result.stderr).toContain('Interrupted again (SIGINT): exiting now.');
    expect(existsSync(lockFile())).toBe(false);
    const list = await runCli(['state', 'list', '--json'], { cwd: ws.dir });
    expect(list.code).toBe(0);
    const listed = JSON.parse(list.stdout) as { resources: { address: string }[]; pending: { address: string }[] };
    // Every success printed before the exit is in the state; the two creates in flight are pending.
    expect(listed.resources.map((r) => r.address).sort()).toEqual(createdIn(result.stdout));
    expect(listed.pending).toHaveLength(2);

    await expectRerunConverges();
  });

  it('a signal before any change (while the server is read) exits at once with nothing changed', async () => {
    await emu.configure({ latencyMs: 20_000 });
    const run = startApply();
    await until(async () => (await emu.requests()).some((r) => r.method === 'GET'), 'the refresh to start');
    run.child.kill('SIGTERM');
    const result = await run.done;

    expect(result.code).toBe(143);
    expect(result.stderr).toContain('Interrupted (SIGTERM) before any change was made; nothing was changed.');
    expect(existsSync(lockFile())).toBe(false);
    expect((await emu.requests()).filter((r) => r.method !== 'GET')).toEqual([]);
    await expectRerunConverges();
  });
});
