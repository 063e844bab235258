// `--prune` and `--target` on plan and apply, through the built CLI, in both reference modes. The
// emulator's request log is the judge: prune deletes exactly what left the manifest, agents first,
// and touches nothing it never managed; a targeted apply changes only the target and what it needs.
import { readFile, writeFile } from 'node:fs/promises';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { TestEmulator } from '../support/emulator.js';
import { API_KEY } from '../support/emulator.js';
import { MODES, openLab, writesOf, type Lab } from './lifecycle-fixture.js';

interface Shape {
  tools: Record<string, string>;
  agents: Record<string, string[]>;
  names?: Record<string, string>;
}

const FULL: Shape = { tools: { t1: 'one', t2: 'two', t3: 'three' }, agents: { a1: ['t1'], a2: ['t2', 't3'] } };
const PRUNED: Shape = { tools: { t1: 'one' }, agents: { a1: ['t1'] } };

function manifestOf(shape: Shape): string {
  const lines = ['version: 1', 'environments:', '  local: { appId: local, region: us }', 'tools:'];
  for (const [name, description] of Object.entries(shape.tools)) lines.push(`  ${name}: { displayName: ${name}, executionText: Working, description: "${description}", parameters: {} }`);
  lines.push('agents:');
  for (const [key, actions] of Object.entries(shape.agents))
    lines.push(`  ${key}: { name: "${shape.names?.[key] ?? key}", integrationType: llm, integrateWith: gpt-4o, actions: [${actions.join(', ')}] }`);
  return lines.join('\n') + '\n';
}

describe.each(MODES)('--prune and --target ($name)', (mode) => {
  let lab: Lab;
  let emu: TestEmulator;
  let run: (args: string[]) => ReturnType<Lab['cli']>;
  let unmanagedUid: string;
  beforeAll(async () => {
    lab = await openLab();
    emu = await lab.emulator({ putCreates: mode.putCreates });
    run = (args) => lab.cli(emu, args);
  });
  afterAll(() => lab.close());
  beforeEach(async () => {
    await fetch(`${emu.origin}/__emulator/reset`, { method: 'POST' });
    await writeFile(lab.path('agents.yaml'), manifestOf(FULL));
    const applied = await run(['apply', '--auto-approve', '--state', 'state.json']);
    expect(applied.code, applied.stderr).toBe(0);
    // An agent somebody made by hand, which no state knows.
    const res = await fetch(`${emu.url}/ai-agents/agents`, {
      method: 'POST',
      headers: { apikey: API_KEY, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Hand made', integrationType: 'llm', integrateWith: 'gpt-4o', isActive: true, tools: [], actions: ['t2'] }),
    });
    unmanagedUid = ((await res.json()) as { agent: { uid: string } }).agent.uid;
    await fetch(`${emu.origin}/__emulator/requests`, { method: 'DELETE' });
  });

  it('plan --prune shows the deletions in text, JSON and markdown; without --prune they are forgets', async () => {
    await writeFile(lab.path('agents.yaml'), manifestOf(PRUNED));
    const text = await run(['plan', '--prune', '--state', 'state.json']);
    expect(text.code, text.stderr).toBe(0);
    expect(text.stdout).toContain('  - delete\n');
    expect(text.stdout).toMatch(/ {2}- agent\.a2 \(uid [0-9a-f-]{36}\) will be deleted from the server\n/);
    expect(text.stdout).toContain('  - tool.t2 (_id local_t2) will be deleted from the server\n');
    expect(text.stdout.trimEnd().split('\n').at(-1)).toBe('Plan: 0 to create, 0 to update, 3 to delete, 0 to forget.');
    const json = JSON.parse((await run(['plan', '--prune', '--json', '--state', 'state.json'])).stdout) as { summary: object; changes: { address: string; action: string }[] };
    expect(json.summary).toEqual({ create: 0, update: 0, replace: 0, delete: 3, forget: 0, noop: 2 });
    expect(json.changes.filter((c) => c.action === 'delete').map((c) => c.address)).toEqual(['tool.t2', 'tool.t3', 'agent.a2']);
    const markdown = await run(['plan', '--prune', '--format', 'markdown', '--state', 'state.json']);
    expect(markdown.stdout).toContain('| `-` delete | 3 |');
    const plain = await run(['plan', '--state', 'state.json']);
    expect(plain.stdout.trimEnd().split('\n').at(-1)).toBe('Plan: 0 to create, 0 to update, 3 to forget.');
    expect((JSON.parse((await run(['plan', '--json', '--state', 'state.json'])).stdout) as { summary: object }).summary).toEqual({ create: 0, update: 0, replace: 0, delete: 0, forget: 3, noop: 2 });
    // Planning only reads.
    expect(await writesOf(emu)).toEqual([]);
  });

  it('apply --prune deletes exactly what left the manifest, the agent before its tools, and nothing unmanaged', async () => {
    await writeFile(lab.path('agents.yaml'), manifestOf(PRUNED));
    // Three of the five managed resources: a mass deletion, allowed in so many words (docs/spec/plan-and-apply.md#mass-deletion).
    const applied = await run(['apply', '--prune', '--auto-approve', '--allow-mass-delete', '--state', 'state.json']);
    expect(applied.code, applied.stderr).toBe(0);
    expect(applied.stdout.trimEnd().split('\n').at(-1)).toBe('Apply complete: 0 created, 0 updated, 3 deleted, 0 forgotten.');
    const writes = await writesOf(emu);
    expect(writes[0]).toBe('DELETE /v3/ai-agents/agents/<uid>');
    expect(writes.slice(1).sort()).toEqual(['DELETE /v3/ai-agents/tools/t2', 'DELETE /v3/ai-agents/tools/t3']);
    expect(writes).toHaveLength(3);
    const agents = await emu.get<{ uid: string; name: string }[]>('/ai-agents/agents');
    expect(agents.map((a) => a.name).sort()).toEqual(['Hand made', 'a1']);
    expect(agents.some((a) => a.uid === unmanagedUid)).toBe(true);
    expect((await emu.get<{ name: string }[]>('/ai-agents/tools')).map((t) => t.name).sort()).toEqual(['search_web', 't1']);
    const state = JSON.parse(await readFile(lab.path('state.json'), 'utf8')) as { resources: object; pending: object };
    expect(Object.keys(state.resources).sort()).toEqual(['agent.a1', 'tool.t1']);
    expect(state.pending).toEqual({});
    const settled = await run(['plan', '--prune', '--detailed-exitcode', '--state', 'state.json']);
    expect(settled.code, settled.stdout).toBe(0);
  });

  it('a resource already deleted on the server is dropped from the state without a DELETE', async () => {
    const agents = await emu.get<{ uid: string; name: string }[]>('/ai-agents/agents');
    const a2 = agents.find((a) => a.name === 'a2')?.uid ?? '';
    await fetch(`${emu.url}/ai-agents/agents/${a2}`, { method: 'DELETE', headers: { apikey: API_KEY } });
    await fetch(`${emu.origin}/__emulator/requests`, { method: 'DELETE' });
    await writeFile(lab.path('agents.yaml'), manifestOf({ tools: FULL.tools, agents: { a1: ['t1'] } }));
    const applied = await run(['apply', '--prune', '--auto-approve', '--state', 'state.json']);
    expect(applied.code, applied.stderr).toBe(0);
    expect(applied.stdout).toContain('  - agent.a2 (deleted on the server)');
    expect(applied.stdout).toContain('already deleted on the server; only dropped from the state');
    expect(applied.stdout).toContain('Apply complete: 0 created, 0 updated, 1 deleted, 0 forgotten.');
    expect(await writesOf(emu)).toEqual([]);
  });

  it('a resource gone from both the manifest and the server is forgotten by a plain apply, with no call', async () => {
    const agents = await emu.get<{ uid: string; name: string }[]>('/ai-agents/agents');
    const a2 = agents.find((a) => a.name === 'a2')?.uid ?? '';
    await fetch(`${emu.url}/ai-agents/agents/${a2}`, { method: 'DELETE', headers: { apikey: API_KEY } });
    await fetch(`${emu.origin}/__emulator/requests`, { method: 'DELETE' });
    await writeFile(lab.path('agents.yaml'), manifestOf({ tools: FULL.tools, agents: { a1: ['t1'] } }));
    const applied = await run(['apply', '--auto-approve', '--state', 'state.json']);
    expect(applied.code, applied.stderr).toBe(0);
    expect(applied.stdout).toMatch(/ {2}- agent\.a2 \(uid [^)]+\) already deleted on the server; only dropped from the state/);
    expect(applied.stdout).toContain('it was already deleted on the server.');
    expect(applied.stdout).toContain('Apply complete: 0 created, 0 updated, 1 forgotten.');
    expect(await writesOf(emu)).toEqual([]);
    const state = JSON.parse(await readFile(lab.path('state.json'), 'utf8')) as { resources: object };
    expect(Object.keys(state.resources)).not.toContain('agent.a2');
    const settled = await run(['plan', '--detailed-exitcode', '--state', 'state.json']);
    expect(settled.code, settled.stdout).toBe(0);
    expect(settled.stdout).not.toContain('agent.a2');
  });

  it('a saved --prune plan applies as saved; --prune beside a plan file is refused', async () => {
    await writeFile(lab.path('agents.yaml'), manifestOf(PRUNED));
    const saved = await run(['plan', '--prune', '--out', 'prune.plan', '--state', 'state.json']);
    expect(saved.code, saved.stderr).toBe(0);
    const refused = await run(['apply', 'prune.plan', '--prune', '--auto-approve', '--state', 'state.json']);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/^Error: --prune and --target belong to the plan/);
    const applied = await run(['apply', 'prune.plan', '--auto-approve', '--allow-mass-delete', '--state', 'state.json']);
    expect(applied.code, applied.stderr).toBe(0);
    expect(applied.stdout).toContain('3 deleted');
    expect((await writesOf(emu)).filter((w) => w.startsWith('DELETE'))).toHaveLength(3);
  });

  it('apply --target changes only the target and the tools and actions it names', async () => {
    await writeFile(lab.path('agents.yaml'), manifestOf({ tools: { t1: 'one v2', t2: 'two v2', t3: 'three v2' }, agents: FULL.agents, names: { a1: 'a1 v2', a2: 'a2 v2' } }));
    const applied = await run(['apply', '--target', 'agent.a1', '--auto-approve', '--state', 'state.json']);
    expect(applied.code, applied.stderr).toBe(0);
    expect(applied.stdout).toContain('Warning: the plan is limited to --target: agent.a1, tool.t1.');
    expect(applied.stdout.trimEnd().split('\n').at(-1)).toBe('Apply complete: 0 created, 2 updated, 0 forgotten.');
    expect(await writesOf(emu)).toEqual(['PUT /v3/ai-agents/tools/t1', 'PATCH /v3/ai-agents/agents/<uid>']);
    const rest = JSON.parse((await run(['plan', '--json', '--state', 'state.json'])).stdout) as { summary: object };
    expect(rest.summary).toEqual({ create: 0, update: 3, replace: 0, delete: 0, forget: 0, noop: 2 });
    const two = JSON.parse((await run(['plan', '--json', '--target', 'tool.t2', '--target', 'tool.t3', '--state', 'state.json'])).stdout) as { changes: { address: string }[] };
    expect(two.changes.map((c) => c.address)).toEqual(['tool.t2', 'tool.t3']);
  });

  it('an unknown --target is one line with a suggestion, before any request', async () => {
    await fetch(`${emu.origin}/__emulator/requests`, { method: 'DELETE' });
    for (const command of [['plan'], ['apply', '--auto-approve']]) {
      const result = await run([...command, '--target', 'agent.a2x', '--target', 'agent.a', '--state', 'state.json']);
      expect(result).toMatchObject({ code: 1, stdout: '' });
      expect(result.stderr).toBe('Error: --target agent.a2x: the manifest and the state have no resource with that address; did you mean "agent.a2"?\n');
    }
    expect(await emu.apiRequests()).toEqual([]);
  });
});
