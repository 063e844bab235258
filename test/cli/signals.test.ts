// Signals to the built bin (dist/cli/main.cjs as a child), where the process is the subject: an
// apply killed with SIGKILL leaves what a rerun must adopt, and `agentsync emulator` ends with exit 0
// on SIGTERM and on SIGINT. Signals in the middle of an apply, in depth, are
// test/torture/signals.test.ts.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AgentRecord } from '../../src/core/api-types.js';
import { startTestEmulator, API_KEY, type TestEmulator } from '../support/emulator.js';
import { waitFor } from '../support/wait.js';
import { assertBuilt, runCli, startCli } from '../support/cli.js';

let emu: TestEmulator;
let dir: string;
beforeAll(async () => {
  assertBuilt();
  emu = await startTestEmulator();
  dir = await mkdtemp(join(tmpdir(), 'agentsync-kill-'));
});
afterAll(async () => {
  await emu.close();
  await rm(dir, { recursive: true, force: true });
});

describe('apply killed with SIGKILL', () => {
  it('converges on rerun with no duplicate agents: in-flight creates are warned about, then adopted', async () => {
    const lines = ['version: 1', 'environments:', '  local: { appId: local, region: us }', 'tools:'];
    for (let i = 0; i < 100; i++) lines.push(`  k${i}: { displayName: k${i}, executionText: Working, description: d, parameters: {} }`);
    lines.push('agents:');
    for (let i = 0; i < 100; i++) lines.push(`  a${i}: { name: agent-${i}, integrationType: llm, integrateWith: gpt-4o, actions: [k${i}] }`);
    await writeFile(join(dir, 'agents.yaml'), lines.join('\n') + '\n');
    const env = { COMETCHAT_API_KEY: API_KEY, AGENTSYNC_BASE_URL: emu.url };
    await emu.configure({ latencyMs: 15 });

    const run = startCli(['apply', '--auto-approve', '--concurrency', '8'], { cwd: dir, env });
    // Kill it once agent creation is well under way, with POSTs in flight.
    await waitFor('30 agent POSTs', async () => (await emu.apiRequests('POST')).filter((r) => r.path === '/v3/ai-agents/agents').length >= 30, { timeoutMs: 30_000 });
    run.child.kill('SIGKILL');
    const killed = await run.done;
    expect(killed.signal).toBe('SIGKILL');
    const before = await emu.get<AgentRecord[]>('/ai-agents/agents');
    expect(before.length).toBeGreaterThan(0);
    expect(before.length).toBeLessThan(100);

    const rerun = await runCli(['apply', '--auto-approve'], { cwd: dir, env });
    // The killed run's lock is taken over with a warning on stderr; nothing else goes wrong.
    expect(rerun.stderr).not.toMatch(/Error/);
    expect(rerun.code).toBe(0);
    const agents = await emu.get<AgentRecord[]>('/ai-agents/agents');
    // Creates that were in flight when the process died were remembered as pending; the rerun's plan
    // says it adopts each agent it finds (one account, no separate duplicate warning: issue 31
    // item 24), and the summary counts them adopted instead of creating a second one.
    const planned = [...rerun.stdout.matchAll(/\+ (agent\.a\d+)\n\s+an interrupted earlier apply created it/g)].map((m) => m[1]);
    const warned = [...rerun.stdout.matchAll(/(agent\.a\d+): a create was sent at/g)].map((m) => m[1]);
    const adopted = [...rerun.stdout.matchAll(/Adopted (agent\.a\d+) \(remote id/g)].map((m) => m[1]);
    expect(adopted.length).toBeGreaterThan(0);
    expect(adopted.every((address) => planned.includes(address) || warned.includes(address))).toBe(true);
    expect(warned.filter((address) => planned.includes(address))).toEqual([]);
    expect(rerun.stdout).toMatch(new RegExp(`${adopted.length} adopted\\.`));
    expect(agents).toHaveLength(100);
    expect(new Set(agents.map((a) => a.name)).size).toBe(100);

    const again = await runCli(['apply', '--auto-approve'], { cwd: dir, env });
    expect(again.stdout).toContain('No changes.');
    await emu.configure({ latencyMs: 0 });
  });
});

describe('agentsync emulator stopped by a signal', () => {
  it.each(['SIGTERM', 'SIGINT'] as const)('exits 0 on %s once it has said it is ready', async (signal) => {
    const { child, done } = startCli(['emulator', '--port', '0']);
    let stdout = '';
    child.stdout?.on('data', (chunk: string) => (stdout += chunk));
    await waitFor('the ready line', () => /ready at http:\/\/127\.0\.0\.1:\d+\/v3/.test(stdout), { timeoutMs: 15_000 });
    child.kill(signal);
    const result = await done;
    expect(result.code).toBe(0);
    expect(result.signal).toBeNull();
  });
});
