// The emulator keeps its own facts about how a server stores an agent
// (src/emulator/resources/agent/storage.ts, written from the public reference), apart from the
// client's field table (src/core/kinds/agent/fields.ts). So a wrong belief in the client fails here,
// in a round trip, instead of moving the server double with it: if the client took `actions` (or
// `tools`, `platformTools`) for an ordered list, the server's sorted copy would read as drift; if it
// took `suggestions` for a set, its sorted copy would not match the server's, which keeps the order.
// docs/spec/server.md#the-server-normalises-what-it-stores.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AgentRecord } from '../../src/core/api-types.js';
import { runCli, type CliResult } from '../support/cli.js';
import { startTestEmulator, API_KEY, type TestEmulator } from '../support/emulator.js';

const MANIFEST = `version: 1
environments:
  local: { appId: local, region: us }
tools:
  zeta: { displayName: Zeta, executionText: Z, description: Z, parameters: { type: object, properties: {} } }
  alpha: { displayName: Alpha, executionText: A, description: A, parameters: { type: object, properties: {} } }
  yankee: { displayName: Yankee, executionText: Y, doNotExecute: true }
  bravo: { displayName: Bravo, executionText: B, doNotExecute: true }
agents:
  helper:
    name: Helper
    integrationType: llm
    integrateWith: gpt-4o
    actions: [zeta, alpha]
    tools: [yankee, bravo]
    platformTools: [web_search, calculator]
    suggestions: [Second, First]
`;

describe.each([
  ['a server that normalises what it stores', 'full'],
  ['a server whose list leaves out the fields it may', 'sparse'],
] as const)('the client against %s, with facts of its own', (_name, agentList) => {
  let emu: TestEmulator;
  let dir: string;
  const cli = (args: readonly string[]): Promise<CliResult> => runCli(args, { cwd: dir, env: { COMETCHAT_API_KEY: API_KEY, AGENTSYNC_BASE_URL: emu.url } });

  beforeAll(async () => {
    emu = await startTestEmulator({ agentList });
    dir = await mkdtemp(join(tmpdir(), 'agentsync-facts-'));
    await writeFile(join(dir, 'agents.yaml'), MANIFEST);
  });
  afterAll(async () => {
    await emu.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('stores the sets sorted and the ordered list as sent, and the next plan has no changes', async () => {
    const apply = await cli(['apply', '--auto-approve']);
    expect(apply.code, apply.stdout + apply.stderr).toBe(0);
    // The server really did reorder: the round trip below proves the client reads that as no change.
    const [agent] = await emu.get<AgentRecord[]>('/ai-agents/agents');
    expect(agent).toMatchObject({ actions: ['alpha', 'zeta'], tools: ['bravo', 'yankee'] });
    // A sparse list leaves these two out (the point of that mode); the full one shows how they are kept.
    if (agentList === 'full') expect(agent).toMatchObject({ cometchatTools: ['calculator', 'web_search'], suggestions: ['Second', 'First'] });
    else expect(Object.keys(agent ?? {})).not.toContain('suggestions');
    const plan = await cli(['plan', '--detailed-exitcode']);
    expect(plan.stdout + plan.stderr).toContain('No changes. Environment "local" matches the manifest.');
    expect(plan.code).toBe(0);
  });

  it('plans reordering the ordered list as a change, and reordering a set as none', async () => {
    await writeFile(join(dir, 'agents.yaml'), MANIFEST.replace('[zeta, alpha]', '[alpha, zeta]').replace('[Second, First]', '[First, Second]'));
    const plan = await cli(['plan', '--detailed-exitcode']);
    expect(plan.code, plan.stdout + plan.stderr).toBe(2);
    expect(plan.stdout).toContain('~ agent.helper');
    expect(plan.stdout).toMatch(/^\s+[-+~] suggestions:/m);
    expect(plan.stdout).not.toMatch(/^\s+[-+~] actions:/m);
  });
});
