import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AgentCreateResponse, AgentRecord } from '../../src/core/api-types.js';
import { errorCode, errorMessage, startTestEmulator, validLlmAgent, validTool, type TestEmulator } from './helpers.js';

let emu: TestEmulator;
beforeAll(async () => {
  emu = await startTestEmulator();
  for (const name of ['get_weather', 'lookup_order']) await emu.call('PUT', `/ai-agents/tools/${name}`, validTool(name));
});
afterAll(() => emu.close());

async function create(body: Record<string, unknown>): Promise<AgentRecord> {
  const reply = await emu.call('POST', '/ai-agents/agents', body);
  expect(reply.status).toBe(201);
  return (reply.json as AgentCreateResponse).agent;
}

describe('POST /ai-agents/agents', () => {
  it('answers 201 with { agent } in the documented shape', async () => {
    const agent = await create(validLlmAgent({ tools: ['get_weather'], actions: ['lookup_order'], icon: 'https://example.com/a.png', instruction: 'Be kind.', metaData: { team: 'cx' } }));
    expect(agent).toMatchObject({
      appId: 'local',
      name: 'Support assistant',
      isActive: true,
      integrateWith: 'gpt-4o',
      integrationType: 'llm',
      tools: ['get_weather'],
      actions: ['lookup_order'],
      icon: 'https://example.com/a.png',
      instruction: 'Be kind.',
      metaData: { team: 'cx' },
      deletedAt: null,
    });
    expect(agent.uid).toMatch(/^[0-9a-f-]{36}$/);
    expect(Date.parse(agent.createdAt)).not.toBeNaN();
    expect(agent.updatedAt).toBe(agent.createdAt);
  });

  it('defaults isActive to true and gives every agent its own uid', async () => {
    const body = validLlmAgent();
    delete body.isActive;
    const [a, b] = [await create(body), await create(body)];
    expect(a.isActive).toBe(true);
    expect(a.uid).not.toBe(b.uid);
  });

  it('accepts an agent integration with integrationMeta.baseUrl and keeps other keys', async () => {
    const agent = await create(validLlmAgent({ integrationType: 'agent', integrateWith: 'mastra', integrationMeta: { baseUrl: 'https://agents.example.com', agentId: 'weather' } }));
    expect(agent.integrationMeta).toEqual({ baseUrl: 'https://agents.example.com', agentId: 'weather' });
  });

  const rejections: Array<[string, Record<string, unknown>, string]> = [
    ['a missing name', { name: undefined }, 'name'],
    ['an empty name', { name: '' }, 'name'],
    ['a missing integrateWith', { integrateWith: undefined }, 'integrateWith'],
    ['a missing integrationType', { integrationType: undefined }, 'integrationType'],
    ['an integrationType outside the enum', { integrationType: 'robot' }, 'integrationType'],
    ['missing tools (the interface marks them required)', { tools: undefined }, 'tools'],
    ['missing actions (the interface marks them required)', { actions: undefined }, 'actions'],
    ['tools that are not strings', { tools: [1] }, 'tools[0]'],
    ['a non-boolean isActive', { isActive: 'yes' }, 'isActive'],
    ['an icon that is not an http(s) URL', { icon: 'ftp://x/a.png' }, 'icon'],
    ['an agent integration without integrationMeta', { integrationType: 'agent' }, 'integrationMeta'],
    ['an agent integration without baseUrl', { integrationType: 'agent', integrationMeta: { agentId: 'a' } }, 'integrationMeta.baseUrl'],
    ['a baseUrl that is not http(s)', { integrationType: 'agent', integrationMeta: { baseUrl: 'javascript:alert(1)' } }, 'integrationMeta.baseUrl'],
    ['a metaData that is not an object', { metaData: [1] }, 'metaData'],
    ['suggestions that are not strings', { suggestions: [{}] }, 'suggestions[0]'],
    ['an unknown field', { instructions: 'typo' }, 'instructions'],
  ];
  it.each(rejections)('rejects %s with 400 naming the field', async (_label, overrides, field) => {
    const before = ((await emu.call('GET', '/ai-agents/agents')).json as AgentRecord[]).length;
    const reply = await emu.call('POST', '/ai-agents/agents', validLlmAgent(overrides));
    expect(reply.status).toBe(400);
    expect(errorCode(reply)).toBe('ERR_BAD_REQUEST');
    expect(errorMessage(reply)).toContain(field);
    expect(((await emu.call('GET', '/ai-agents/agents')).json as AgentRecord[]).length).toBe(before);
  });

  it('rejects unknown tools and actions, naming every one', async () => {
    const reply = await emu.call('POST', '/ai-agents/agents', validLlmAgent({ tools: ['get_weather', 'ghost_tool'], actions: ['ghost_action'] }));
    expect(reply.status).toBe(400);
    expect(errorMessage(reply)).toContain("'ghost_tool'");
    expect(errorMessage(reply)).toContain("'ghost_action'");
    expect(errorMessage(reply)).not.toContain("'get_weather'");
  });
});

describe('GET, PATCH and DELETE', () => {
  it('lists live agents as a bare array', async () => {
    const agent = await create(validLlmAgent({ name: 'Listed' }));
    const list = (await emu.call('GET', '/ai-agents/agents')).json as AgentRecord[];
    expect(Array.isArray(list)).toBe(true);
    expect(list.find((entry) => entry.uid === agent.uid)?.name).toBe('Listed');
  });

  it('gets one agent as { agent }', async () => {
    const agent = await create(validLlmAgent());
    const reply = await emu.call('GET', `/ai-agents/agents/${agent.uid}`);
    expect((reply.json as AgentCreateResponse).agent.uid).toBe(agent.uid);
  });

  it('updates in place, keeping uid and createdAt and moving updatedAt', async () => {
    const agent = await create(validLlmAgent({ icon: 'https://example.com/a.png' }));
    const reply = await emu.call('PATCH', `/ai-agents/agents/${agent.uid}`, { name: 'Renamed', tools: ['get_weather'], isActive: false });
    expect(reply.status).toBe(200);
    const updated = (reply.json as AgentCreateResponse).agent;
    expect(updated).toMatchObject({ uid: agent.uid, name: 'Renamed', tools: ['get_weather'], isActive: false, icon: 'https://example.com/a.png', createdAt: agent.createdAt });
    expect(Date.parse(updated.updatedAt)).toBeGreaterThan(Date.parse(agent.updatedAt));
    const list = (await emu.call('GET', '/ai-agents/agents')).json as AgentRecord[];
    expect(list.filter((entry) => entry.uid === agent.uid)).toHaveLength(1);
  });

  it('clears an optional field sent as null', async () => {
    const agent = await create(validLlmAgent({ icon: 'https://example.com/a.png', instruction: 'Hi', suggestions: ['a'] }));
    const updated = ((await emu.call('PATCH', `/ai-agents/agents/${agent.uid}`, { icon: null, instruction: null, suggestions: null })).json as AgentCreateResponse).agent;
    expect(updated).not.toHaveProperty('icon');
    expect(updated).not.toHaveProperty('instruction');
    expect(updated).not.toHaveProperty('suggestions');
  });

  it('applies the same field rules to PATCH and leaves the agent unchanged on a 400', async () => {
    const agent = await create(validLlmAgent());
    for (const body of [{ name: null }, { integrationType: 'robot' }, { tools: ['ghost'] }, { integrationType: 'agent' }, { typo: 1 }]) {
      const reply = await emu.call('PATCH', `/ai-agents/agents/${agent.uid}`, body);
      expect(reply.status, JSON.stringify(body)).toBe(400);
    }
    const stored = ((await emu.call('GET', `/ai-agents/agents/${agent.uid}`)).json as AgentCreateResponse).agent;
    expect(stored).toEqual(agent);
  });

  it('answers 404 ERR_AGENT_NOT_FOUND for an unknown uid', async () => {
    for (const [method, body] of [['GET', undefined], ['PATCH', { name: 'x' }], ['DELETE', undefined]] as const) {
      const reply = await emu.call(method, '/ai-agents/agents/no-such-agent', body);
      expect(reply.status).toBe(404);
      expect(errorCode(reply)).toBe('ERR_AGENT_NOT_FOUND');
    }
  });

  it('soft-deletes: hidden from the list, 404 afterwards', async () => {
    const agent = await create(validLlmAgent({ name: 'Doomed' }));
    const reply = await emu.call('DELETE', `/ai-agents/agents/${agent.uid}`);
    expect(reply.status).toBe(200);
    expect(reply.json).toEqual({ deleted: true });
    const list = (await emu.call('GET', '/ai-agents/agents')).json as AgentRecord[];
    expect(list.some((entry) => entry.uid === agent.uid)).toBe(false);
    expect(list.every((entry) => entry.deletedAt === null)).toBe(true);
    expect((await emu.call('PATCH', `/ai-agents/agents/${agent.uid}`, { name: 'Back' })).status).toBe(404);
    expect((await emu.call('GET', `/ai-agents/agents/${agent.uid}`)).status).toBe(404);
    expect((await emu.call('DELETE', `/ai-agents/agents/${agent.uid}`)).status).toBe(404);
  });
});
