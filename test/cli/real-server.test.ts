// Meeting the real server (docs/spec/server.md) through the built CLI, against the emulator in both
// readings of the public API: the public reference (PUT on an unknown tool is 404, PATCH answers
// {success:true}) and the seed's upsert reading (--put-creates). Refresh, drift, conflicts, import
// and state mv.
import { mkdtemp, readFile, rm, unlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { AgentRecord, ToolRecord } from '../../src/core/api-types.js';
import { startTestEmulator, API_KEY, type TestEmulator } from '../support/emulator.js';
import { runCli } from '../support/cli.js';

const MANIFEST = (agentKey = 'support', description = 'Current weather') => `version: 1
environments:
  local: { appId: local, region: us }
tools:
  get_weather:
    displayName: Get weather
    executionText: Checking
    description: ${description}
    parameters: { type: object, properties: { city: { type: string, description: City } }, required: [city] }
  show_card:
    displayName: Show card
    executionText: Showing
    doNotExecute: true
agents:
  ${agentKey}:
    name: Support
    integrationType: llm
    integrateWith: gpt-4o
    tools: [show_card]
    actions: [get_weather]
    instruction: Be kind.
  helper:
    name: Helper
    integrationType: llm
    integrateWith: gpt-4o
    actions: [get_weather]
knowledgeBase:
  websites:
    docs: { parentUniqueId: web_demo, exclude: [url_1] }
`;

describe.each([
  ['the public reference', false],
  ['the seed reading (--put-creates)', true],
])('against the emulator following %s', (_name, putCreates) => {
  let emu: TestEmulator;
  let dir: string;
  let env: NodeJS.ProcessEnv;
  const cli = (...args: string[]) => runCli(args, { cwd: dir, env });
  const statePath = () => join(dir, '.agentsync', 'local.state.json');
  const uidOf = async (address: string) => (JSON.parse(await readFile(statePath(), 'utf8')) as { resources: Record<string, { remoteId: string }> }).resources[address]?.remoteId ?? '';
  const clearLog = () => fetch(`${emu.origin}/__emulator/requests`, { method: 'DELETE' });
  const api = (method: string, path: string, body?: unknown) =>
    fetch(`${emu.url}${path}`, { method, headers: { apikey: API_KEY, 'content-type': 'application/json' }, ...(body ? { body: JSON.stringify(body) } : {}) });

  beforeAll(async () => {
    emu = await startTestEmulator({ putCreates });
  });
  afterAll(() => emu.close());
  beforeEach(async () => {
    await fetch(`${emu.origin}/__emulator/reset`, { method: 'POST' });
    dir = await mkdtemp(join(tmpdir(), 'agentsync-real-'));
    env = { COMETCHAT_API_KEY: API_KEY, AGENTSYNC_BASE_URL: emu.url };
    await writeFile(join(dir, 'agents.yaml'), MANIFEST());
    const first = await cli('apply', '--auto-approve');
    expect(first.stderr).toBe('');
    expect(first.code).toBe(0);
    await clearLog();
  });
  afterEach(() => rm(dir, { recursive: true, force: true }));

  it('creates tools and agents, records updates to both, and then plans no changes', async () => {
    const ours = (await emu.get<ToolRecord[]>('/ai-agents/tools')).filter((t) => t.name !== 'search_web'); // search_web is the seed's
    expect(ours.map((t) => [t.name, t.type]).sort()).toEqual([
      ['get_weather', 'action'],
      ['show_card', 'tool'],
    ]);
    expect((await emu.get<AgentRecord[]>('/ai-agents/agents')).map((a) => a.name).sort()).toEqual(['Helper', 'Support']);
    await writeFile(join(dir, 'agents.yaml'), MANIFEST('support', 'Weather now').replace('instruction: Be kind.', 'instruction: Be brief.'));
    const update = await cli('apply', '--auto-approve');
    expect(update.code).toBe(0);
    expect(update.stdout).toContain('Apply complete: 0 created, 2 updated, 0 forgotten.');
    expect((await emu.apiWrites()).map((r) => `${r.method} ${r.path.replace(/[0-9a-f-]{36}/, 'UID')}`).sort()).toEqual(['PATCH /v3/ai-agents/agents/UID', 'PUT /v3/ai-agents/tools/get_weather']);
    const again = await cli('plan');
    expect(again.stdout).toContain('No changes. Environment "local" matches the manifest.');
  });

  it('learns how the server creates tools from one call: at --concurrency 16, one PUT probes and the rest wait for it', async () => {
    const names = Array.from({ length: 24 }, (_, i) => `bulk_${String(i).padStart(2, '0')}`);
    const tools = names.map((name) => `  ${name}: { displayName: ${name}, executionText: Working, description: Bulk tool, parameters: {} }`).join('\n');
    await writeFile(join(dir, 'agents.yaml'), MANIFEST().replace('tools:\n', `tools:\n${tools}\n`));
    const run = await cli('apply', '--auto-approve', '--concurrency', '16');
    expect(run.stderr).toBe('');
    expect(run.stdout).toContain('Apply complete: 24 created, 0 updated, 0 forgotten.');
    const writes = (await emu.apiWrites()).filter((r) => r.path.includes('/ai-agents/tools'));
    const count = (method: string, status: number) => writes.filter((r) => r.method === method && r.status === status).length;
    if (putCreates) {
      expect({ puts: count('PUT', 200), posts: writes.filter((r) => r.method === 'POST').length }).toEqual({ puts: 24, posts: 0 });
    } else {
      // One PUT answers 404; every tool is then created by POST, none asks with a PUT again.
      expect({ notFound: count('PUT', 404), puts: writes.filter((r) => r.method === 'PUT').length, posts: count('POST', 200) + count('POST', 201) }).toEqual({ notFound: 1, puts: 1, posts: 24 });
    }
    expect((await emu.get<ToolRecord[]>('/ai-agents/tools')).filter((t) => t.name.startsWith('bulk_'))).toHaveLength(24);
  });

  it('shows a PATCH and a DELETE made on the server as drift, and apply restores the manifest', async () => {
    const support = await uidOf('agent.support');
    expect((await api('PATCH', `/ai-agents/agents/${support}`, { name: 'Renamed', isActive: false })).status).toBe(200);
    expect((await api('DELETE', `/ai-agents/agents/${await uidOf('agent.helper')}`)).status).toBe(200);
    const plan = await cli('plan');
    expect(plan.code).toBe(0);
    expect(plan.stdout).toMatch(/Changed outside agentsync:\n\n {2}- agent\.helper \(deleted on the server\)\n {2}~ agent\.support\n {6}~ isActive: true → false\n {6}~ name: "Support" → "Renamed"/);
    expect(plan.stdout).toContain('Plan: 1 to create, 1 to update, 0 to forget.');
    const json = JSON.parse((await cli('plan', '--json')).stdout) as { refreshed: boolean; drift: { address: string; kind: string }[] };
    expect(json.refreshed).toBe(true);
    expect(json.drift.map((d) => [d.address, d.kind])).toEqual([
      ['agent.helper', 'deleted'],
      ['agent.support', 'changed'],
    ]);
    const markdown = (await cli('plan', '--format', 'markdown')).stdout;
    expect(markdown).toContain('**Changed outside agentsync:**');
    // The deletion no longer jams apply: it is planned as a create.
    const healed = await cli('apply', '--auto-approve');
    expect(healed.code).toBe(0);
    expect(healed.stdout).toContain('Apply complete: 1 created, 1 updated, 0 forgotten.');
    const agents = await emu.get<AgentRecord[]>('/ai-agents/agents');
    expect(agents.map((a) => [a.name, a.isActive]).sort()).toEqual([
      ['Helper', true],
      ['Support', true],
    ]);
    expect((await cli('plan')).stdout).toContain('No changes.');
  });

  it('recovers a lost state with import: then plan shows no changes and nothing is written to the server', async () => {
    await unlink(statePath());
    const imported = await cli('import');
    expect(imported.code).toBe(0);
    expect(imported.stdout).toContain('Imported 5 resources.');
    const plan = await cli('plan');
    expect(plan.stdout).toContain('No changes. Environment "local" matches the manifest.');
    expect(await emu.apiWrites()).toEqual([]);
  });

  it('refuses to apply over a lost state: every create is a conflict, and no POST is sent', async () => {
    await unlink(statePath());
    const plan = await cli('plan');
    expect(plan.stdout).toMatch(/\+ agent\.support\n {6}! already exists on the server \([0-9a-f-]{36}\)/);
    const json = JSON.parse((await cli('plan', '--json')).stdout) as { changes: { address: string; conflict?: { remoteId: string } }[] };
    expect(json.changes.filter((c) => c.conflict).map((c) => c.address)).toEqual(['tool.get_weather', 'tool.show_card', 'agent.helper', 'agent.support']);
    const applied = await cli('apply', '--auto-approve');
    expect(applied.code).toBe(1);
    expect(applied.stderr).toMatch(/^Error: refusing to apply: 4 resources to create already exist on the server but not in the state: .*agentsync import/);
    expect(await emu.apiWrites()).toEqual([]);
    expect(await emu.get<AgentRecord[]>('/ai-agents/agents')).toHaveLength(2);
  });

  it('imports one address, and picks among same-named agents by uid', async () => {
    const twin = (await (await api('POST', '/ai-agents/agents', { name: 'Support', isActive: true, integrateWith: 'x', integrationType: 'llm', tools: [], actions: [] })).json()) as {
      agent: AgentRecord;
    };
    const original = await uidOf('agent.support');
    await cli('state', 'rm', 'agent.support');
    const ambiguous = await cli('import', 'agent.support');
    expect(ambiguous.code).toBe(1);
    expect(ambiguous.stderr).toContain(original);
    expect(ambiguous.stderr).toContain(twin.agent.uid);
    const picked = await cli('import', 'agent.support', original);
    expect(picked.code).toBe(0);
    expect(picked.stdout).toContain('Imported 1 resource.');
    expect(await uidOf('agent.support')).toBe(original);
    expect((await cli('plan')).stdout).toContain('No changes.');
  });

  it('renames a manifest key with state mv: no call, and no changes', async () => {
    const uid = await uidOf('agent.support');
    await writeFile(join(dir, 'agents.yaml'), MANIFEST('front_desk'));
    const moved = await cli('state', 'mv', 'agent.support', 'agent.front_desk');
    expect(moved.code).toBe(0);
    expect(moved.stdout).toContain(`Moved agent.support to agent.front_desk (remote id ${uid})`);
    expect((await cli('plan')).stdout).toContain('No changes.');
    // The plan's two list calls and one page of the website's discovered URLs (docs/spec/knowledge-base.md#refresh-and-drift), nothing else.
    expect((await emu.requests()).map((r) => r.method)).toEqual(['GET', 'GET', 'GET']);
    const wrongType = await cli('state', 'mv', 'agent.front_desk', 'tool.front_desk');
    expect(wrongType.code).toBe(1);
    expect(wrongType.stderr).toMatch(/keeps its type/);
  });
});

describe('against the emulator in the other public version (201, integer timestamps, agents listed without uid)', () => {
  let emu: TestEmulator;
  let dir: string;
  beforeAll(async () => {
    emu = await startTestEmulator();
    dir = await mkdtemp(join(tmpdir(), 'agentsync-real-o-'));
  });
  afterAll(async () => {
    await emu.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('creates with 201 and epoch timestamps, and never plans a re-create from a list it cannot match', async () => {
    const env = { COMETCHAT_API_KEY: API_KEY, AGENTSYNC_BASE_URL: emu.url };
    await emu.configure({ createStatus: 201, timestamps: 'epoch' });
    await writeFile(join(dir, 'agents.yaml'), MANIFEST());
    const applied = await runCli(['apply', '--auto-approve'], { cwd: dir, env });
    expect(applied.code).toBe(0);
    expect((await runCli(['plan'], { cwd: dir, env })).stdout).toContain('No changes.');
    await emu.configure({ agentList: 'no-uid' });
    const plan = await runCli(['plan'], { cwd: dir, env });
    expect(plan.code).toBe(0);
    expect(plan.stderr + plan.stdout).toMatch(/Warning: the server's list of agents has entries without their remote id/);
    expect(plan.stdout).toContain('No changes.');
    expect(plan.stdout).not.toContain('(deleted on the server)');
  });
});
