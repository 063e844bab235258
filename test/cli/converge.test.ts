// docs/spec/server.md#the-server-normalises-what-it-stores: on a server that normalises what it
// stores (the emulator's default) and on one that stores exactly what was sent (--store-as-sent),
// every scenario a user meets ends in "No changes" after apply, and no request body ever holds a
// null. The built CLI runs against a real emulator.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AgentRecord } from '../../src/core/api-types.js';
import { startTestEmulator, API_KEY, type TestEmulator } from '../support/emulator.js';
import { runCli, type CliResult } from '../support/cli.js';

const NO_CHANGES = 'No changes. Environment "local" matches the manifest.';

const TOOLS = `tools:
  lookup:
    displayName: Lookup
    executionText: Looking
    description: Looks an order up.
    parameters:
      type: object
      properties:
        id: { type: string, description: Order id }
        verbose: { type: boolean, description: More detail }
  card:
    displayName: Card
    executionText: Showing
    doNotExecute: true
`;

/** The manifest, with `agents` given as YAML lines (two-space indented under agents:). */
const manifestOf = (agents: string, extra = ''): string => `version: 1
environments:
  local: { appId: local, region: us }
${TOOLS}agents:
${agents}${extra}`;

const SUPPORT = `  support:
    name: Support
    integrationType: llm
    integrateWith: gpt-4o
    actions: [lookup]
    tools: [card]
    icon: https://example.com/support.png
    instruction: Be kind.
    suggestions: [Where is my order?, Refund]
    platformTools: [web_search, calculator]
    metaData: { team: care }
`;
const GUIDE = `  guide:
    name: Store guide
    integrationType: llm
    integrateWith: gpt-4o
    actions: [lookup]
`;

describe.each([
  ['a server that normalises what it stores', false, 'full'],
  ['a server that stores as sent (--store-as-sent)', true, 'full'],
  ['a server that normalises and lists agents without the fields it may leave out', false, 'sparse'],
] as const)('convergence against %s', (_name, storeAsSent, agentList) => {
  let emu: TestEmulator;
  let dir: string;
  const cli = (args: readonly string[], cwd = dir): Promise<CliResult> => runCli(args, { cwd, env: { COMETCHAT_API_KEY: API_KEY, AGENTSYNC_BASE_URL: emu.url } });
  const write = (text: string, cwd = dir): Promise<void> => writeFile(join(cwd, 'agents.yaml'), text);
  const apply = async (cwd = dir): Promise<CliResult> => {
    const result = await cli(['apply', '--auto-approve'], cwd);
    expect(result.code, result.stdout + result.stderr).toBe(0);
    return result;
  };
  /** Plan, with --detailed-exitcode: 0 is "No changes". */
  const expectNoChanges = async (cwd = dir): Promise<void> => {
    const plan = await cli(['plan', '--detailed-exitcode'], cwd);
    expect(plan.stdout.trimEnd().split('\n').at(-1), plan.stdout + plan.stderr).toBe(NO_CHANGES);
    expect(plan.code).toBe(0);
  };
  const agents = (): Promise<AgentRecord[]> => emu.get<AgentRecord[]>('/ai-agents/agents');
  const uidOf = async (name: string): Promise<string> => (await agents()).find((agent) => agent.name === name)?.uid ?? '';
  /** A change made in the dashboard: straight to the API, past agentsync. */
  const dashboard = async (method: string, path: string, body?: unknown): Promise<void> => {
    const response = await fetch(`${emu.url}${path}`, { method, headers: { apikey: API_KEY, 'content-type': 'application/json' }, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
    expect(response.status).toBe(200);
  };

  beforeAll(async () => {
    emu = await startTestEmulator({ storeAsSent, agentList });
    dir = await mkdtemp(join(tmpdir(), 'agentsync-converge-'));
  });
  afterAll(async () => {
    // Whatever ran above, no body the client sent held a null (none of the public schemas allows one).
    const bodies = (await emu.apiWrites()).map((request) => JSON.stringify(request.body ?? {}));
    expect(bodies.length).toBeGreaterThan(0);
    expect(bodies.filter((body) => body.includes('null'))).toEqual([]);
    await emu.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('creates, then plans no changes', async () => {
    await write(manifestOf(SUPPORT + GUIDE));
    await apply();
    await expectNoChanges();
  });

  it('edits a field, then plans no changes', async () => {
    await write(manifestOf(SUPPORT.replace('Be kind.', 'Be kind and brief.') + GUIDE));
    await apply();
    await expectNoChanges();
  });

  it('clears optional fields with a PATCH of only those fields, as empty values, then plans no changes', async () => {
    const trimmed = SUPPORT.replace('Be kind.', 'Be kind and brief.')
      .split('\n')
      .filter((line) => !/^\s+(icon|suggestions|platformTools|metaData):/.test(line))
      .join('\n');
    await write(manifestOf(trimmed + GUIDE));
    const before = (await emu.apiWrites()).length;
    await apply();
    const patches = (await emu.apiWrites()).slice(before).filter((request) => request.method === 'PATCH');
    expect(patches.map((request) => request.body)).toEqual([{ icon: '', metaData: {}, platformTools: [], suggestions: [] }]);
    await expectNoChanges();
  });

  it('shows a dashboard edit as drift on exactly that field, restores it, then plans no changes', async () => {
    await dashboard('PATCH', `/ai-agents/agents/${await uidOf('Store guide')}`, { instruction: 'Edited in the dashboard' });
    const plan = await cli(['plan']);
    expect(plan.stdout).toContain('Changed outside agentsync:');
    expect(plan.stdout).toMatch(/~ agent\.guide\n\s+\+ instruction: "Edited in the dashboard"\n\n/);
    await apply();
    await expectNoChanges();
  });

  it('re-creates an agent deleted on the server, then plans no changes', async () => {
    await dashboard('DELETE', `/ai-agents/agents/${await uidOf('Store guide')}`);
    const plan = await cli(['plan']);
    expect(plan.stdout).toContain('agent.guide (deleted on the server)');
    await apply();
    await expectNoChanges();
  });

  it('imports after a lost state, then plans no changes', async () => {
    await rm(join(dir, '.agentsync'), { recursive: true, force: true });
    const imported = await cli(['import']);
    expect(imported.code, imported.stderr).toBe(0);
    await expectNoChanges();
  });

  it('renames a key with moved: without a second agent, and refuses a rename without it', async () => {
    const renamed = manifestOf(SUPPORT + GUIDE.replace('  guide:', '  store_guide:'));
    await write(renamed);
    const refused = await cli(['apply', '--auto-approve']);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('moved: [{ from: agent.guide, to: agent.store_guide }]');
    expect(refused.stderr).toContain('agentsync state mv agent.guide agent.store_guide');
    await write(renamed + 'moved:\n  - { from: agent.guide, to: agent.store_guide }\n');
    const plan = await cli(['plan']);
    expect(plan.stdout).toContain('agent.guide → agent.store_guide (moved)');
    await apply();
    await expectNoChanges();
    expect((await agents()).filter((agent) => agent.name === 'Store guide')).toHaveLength(1);
  });

  it('exports, imports in a new folder, then plans no changes', async () => {
    const exported = await cli(['export']);
    expect(exported.code, exported.stderr).toBe(0);
    expect(exported.stdout).not.toMatch(/icon: ""|_id|__v|required: \[\]|createdAt/);
    const clone = await mkdtemp(join(tmpdir(), 'agentsync-converge-clone-'));
    try {
      await write(exported.stdout, clone);
      expect((await cli(['validate'], clone)).code).toBe(0);
      const imported = await cli(['import'], clone);
      expect(imported.code, imported.stderr).toBe(0);
      await expectNoChanges(clone);
    } finally {
      await rm(clone, { recursive: true, force: true });
    }
  });
});
