// The switches between the public versions' readings: create status (200 in A, 201 in O),
// timestamps (ISO strings in A, integers in O) and the agent list (whole records, or A's entries
// without a uid). Each is a startEmulator option and a runtime /__emulator/config key.
import { afterEach, describe, expect, it } from 'vitest';
import type { AgentCreateResponse, AgentRecord, ToolRecord } from '../../src/core/api-types.js';
import { startEmulator } from '../../src/emulator/index.js';
import { API_KEY, startTestEmulator, type TestEmulator } from '../support/emulator.js';
import { clientTool, validLlmAgent, validTool } from './helpers.js';

let emu: TestEmulator | undefined;
afterEach(async () => {
  await emu?.close();
  emu = undefined;
});

describe('defaults: version A, with full agent lists', () => {
  it('creates with 200, sends ISO timestamps and lists agents with their uid', async () => {
    emu = await startTestEmulator();
    expect((await emu.admin('GET', '/config')).json).toMatchObject({ putCreates: false, createStatus: 200, timestamps: 'iso', agentList: 'full' });
    const tool = await emu.createTool(validTool('a_tool'));
    expect(tool.status).toBe(200);
    expect(typeof (tool.json as ToolRecord).createdAt).toBe('string');
    const agent = await emu.call('POST', '/ai-agents/agents', validLlmAgent({ actions: ['a_tool'] }));
    expect(agent.status).toBe(200);
    const uid = (agent.json as AgentCreateResponse).agent.uid;
    expect(((await emu.call('GET', '/ai-agents/agents')).json as AgentRecord[]).map((entry) => entry.uid)).toEqual([uid]);
  });
});

describe('createStatus', () => {
  it('answers 201 to both creates when set, and 200 again after a runtime change', async () => {
    emu = await startTestEmulator({ createStatus: 201 });
    expect((await emu.createTool(validTool('o_tool'))).status).toBe(201);
    expect((await emu.call('POST', '/ai-agents/agents', validLlmAgent())).status).toBe(201);
    // PUT is an update, whatever the create status.
    expect((await emu.call('PUT', '/ai-agents/tools/o_tool', validTool('o_tool'))).status).toBe(200);
    await emu.admin('POST', '/config', { createStatus: 200 });
    expect((await emu.createTool(validTool('a_tool'))).status).toBe(200);
    expect((await emu.call('POST', '/ai-agents/agents', validLlmAgent())).status).toBe(200);
  });
});

describe('timestamps', () => {
  it('sends integer milliseconds in every tool and agent answer when set to epoch', async () => {
    emu = await startTestEmulator({ timestamps: 'epoch' });
    const before = Date.now();
    const tool = (await emu.createTool(validTool('stamped'))).json as Record<string, unknown>;
    expect(Number.isInteger(tool.createdAt)).toBe(true);
    expect(tool.createdAt as number).toBeGreaterThanOrEqual(before - 1);
    expect(tool.createdAt as number).toBeLessThanOrEqual(Date.now());
    const updated = (await emu.call('PUT', '/ai-agents/tools/stamped', validTool('stamped'))).json as Record<string, unknown>;
    expect(updated.createdAt).toBe(tool.createdAt);
    expect(updated.updatedAt as number).toBeGreaterThan(tool.updatedAt as number);
    const one = (await emu.call('GET', '/ai-agents/tools/stamped')).json as Record<string, unknown>;
    const list = (await emu.call('GET', '/ai-agents/tools')).json as Array<Record<string, unknown>>;
    expect(list.every((entry) => Number.isInteger(entry.createdAt) && Number.isInteger(entry.updatedAt))).toBe(true);
    expect(one).toEqual(updated);
    const agent = ((await emu.call('POST', '/ai-agents/agents', validLlmAgent())).json as { agent: Record<string, unknown> }).agent;
    expect([typeof agent.createdAt, typeof agent.updatedAt, agent.deletedAt]).toEqual(['number', 'number', null]);
    const listed = (await emu.call('GET', '/ai-agents/agents')).json as Array<Record<string, unknown>>;
    expect(listed[0]?.createdAt).toBe(agent.createdAt);
  });

  it('switches both ways at runtime and names the same instants', async () => {
    emu = await startTestEmulator();
    const iso = (await emu.createTool(validTool('both'))).json as ToolRecord;
    await emu.admin('POST', '/config', { timestamps: 'epoch' });
    const epoch = (await emu.call('GET', '/ai-agents/tools/both')).json as Record<string, unknown>;
    expect(epoch.createdAt).toBe(Date.parse(iso.createdAt));
    await emu.admin('POST', '/config', { timestamps: 'iso' });
    expect((await emu.call('GET', '/ai-agents/tools/both')).json).toEqual(iso);
  });

  it("converts the seed's stored ISO timestamps too", async () => {
    emu = await startTestEmulator({ timestamps: 'epoch' });
    const seedTool = (await emu.call('GET', '/ai-agents/tools/search_web')).json as Record<string, unknown>;
    expect(seedTool.createdAt).toBe(Date.parse('2025-01-01T00:00:00.000Z'));
  });
});

describe('agentList', () => {
  it("lists version A's entries without a uid when set to no-uid, and full records again after a runtime change", async () => {
    emu = await startTestEmulator({ agentList: 'no-uid' });
    await emu.createTool(clientTool('card'));
    await emu.call('POST', '/ai-agents/agents', validLlmAgent({ name: 'Plain', tools: ['card'] }));
    await emu.call(
      'POST',
      '/ai-agents/agents',
      validLlmAgent({
        name: 'Remote',
        integrationType: 'agent',
        integrateWith: 'langgraph',
        instruction: 'Route returns.',
        integrationMeta: { baseUrl: 'https://returns.example.com/agent', headers: { authorization: 'Bearer s3cret' } },
      }),
    );
    const list = (await emu.call('GET', '/ai-agents/agents')).json as Array<Record<string, unknown>>;
    expect(list).toEqual([
      { name: 'Plain', description: '', deploymentUrl: '', apiKey: '' },
      { name: 'Remote', description: 'Route returns.', deploymentUrl: 'https://returns.example.com/agent', apiKey: '' },
    ]);
    // Nothing else leaks into the entries: not the headers, not the app's key.
    expect(JSON.stringify(list)).not.toContain('s3cret');
    expect(JSON.stringify(list)).not.toContain(API_KEY);
    await emu.admin('POST', '/config', { agentList: 'full' });
    const full = (await emu.call('GET', '/ai-agents/agents')).json as AgentRecord[];
    expect(full.map((entry) => [entry.name, typeof entry.uid])).toEqual([
      ['Plain', 'string'],
      ['Remote', 'string'],
    ]);
  });

  it('leaves the other routes alone: PATCH and DELETE still work by uid', async () => {
    emu = await startTestEmulator({ agentList: 'no-uid' });
    const uid = ((await emu.call('POST', '/ai-agents/agents', validLlmAgent({ name: 'Hidden uid' }))).json as AgentCreateResponse).agent.uid;
    expect((await emu.call('PATCH', `/ai-agents/agents/${uid}`, { name: 'Renamed' })).status).toBe(200);
    expect(((await emu.call('GET', '/ai-agents/agents')).json as Array<{ name: string }>).map((entry) => entry.name)).toEqual(['Renamed']);
    expect((await emu.call('DELETE', `/ai-agents/agents/${uid}`)).status).toBe(200);
    expect((await emu.call('GET', '/ai-agents/agents')).json).toEqual([]);
  });
});

describe('startEmulator options', () => {
  it.each([
    [{ putCreates: 'yes' }, 'putCreates'],
    [{ createStatus: 202 }, 'createStatus'],
    [{ timestamps: 'unix' }, 'timestamps'],
    [{ agentList: 'none' }, 'agentList'],
  ])('rejects %j with a RangeError naming the option', async (options, name) => {
    await expect(startEmulator({ port: 0, ...(options as object) })).rejects.toThrow(new RegExp(`Invalid emulator options: .*'${name}'`));
  });
});
