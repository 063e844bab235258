import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AgentCreateResponse, AgentRecord } from '../../src/core/api-types.js';
import { startTestEmulator, type TestEmulator } from '../support/emulator.js';
import { agentsError, clientTool, errorMessage, validLlmAgent, validTool } from './helpers.js';

let emu: TestEmulator;
beforeAll(async () => {
  emu = await startTestEmulator();
  // Actions execute (doNotExecute false); tools are rendered by the client (doNotExecute true).
  for (const name of ['get_weather', 'lookup_order']) expect((await emu.createTool(validTool(name))).status).toBe(200);
  for (const name of ['show_card', 'show_map']) expect((await emu.createTool(clientTool(name))).status).toBe(200);
});
afterAll(() => emu.close());

async function create(body: Record<string, unknown>): Promise<AgentRecord> {
  const reply = await emu.call('POST', '/ai-agents/agents', body);
  expect(reply.status, JSON.stringify(reply.json)).toBe(200);
  return (reply.json as AgentCreateResponse).agent;
}

async function listed(uid: string): Promise<AgentRecord | undefined> {
  return ((await emu.call('GET', '/ai-agents/agents')).json as AgentRecord[]).find((entry) => entry.uid === uid);
}

describe('POST /ai-agents/agents', () => {
  it('answers 200 with { agent } in the documented shape', async () => {
    const agent = await create(validLlmAgent({ tools: ['show_card'], actions: ['lookup_order'], icon: 'https://example.com/a.png', instruction: 'Be kind.', metaData: { team: 'cx' } }));
    expect(agent).toMatchObject({
      appId: 'local',
      name: 'Support assistant',
      isActive: true,
      integrateWith: 'gpt-4o',
      integrationType: 'llm',
      tools: ['show_card'],
      actions: ['lookup_order'],
      icon: 'https://example.com/a.png',
      instruction: 'Be kind.',
      metaData: { team: 'cx' },
      deletedAt: null,
    });
    expect(agent.uid).toMatch(/^[0-9a-f-]{36}$/);
    expect(Date.parse(agent.createdAt)).not.toBeNaN();
    expect(agent.updatedAt).toBe(agent.createdAt);
    expect(await listed(agent.uid)).toEqual(agent);
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

  it("keeps version A's cometchatTools and the seed's platformTools as sent, with --store-as-sent", async () => {
    await emu.admin('POST', '/config', { storeAsSent: true });
    try {
      const agent = await create(validLlmAgent({ cometchatTools: ['web_search'], platformTools: ['kb'] }));
      expect(agent).toMatchObject({ cometchatTools: ['web_search'], platformTools: ['kb'] });
    } finally {
      await emu.admin('POST', '/config', { storeAsSent: false });
    }
  });

  it('records both lists as one cometchatTools, sorted, when it stores like a server', async () => {
    const agent = await create(validLlmAgent({ cometchatTools: ['web_search'], platformTools: ['kb'] }));
    expect(agent.cometchatTools).toEqual(['kb', 'web_search']);
    expect(agent).not.toHaveProperty('platformTools');
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
    ['cometchatTools that are not strings', { cometchatTools: [true] }, 'cometchatTools[0]'],
    ['an unknown field', { instructions: 'typo' }, 'instructions'],
  ];
  it.each(rejections)('rejects %s with 400 naming the field', async (_label, overrides, field) => {
    const before = ((await emu.call('GET', '/ai-agents/agents')).json as AgentRecord[]).length;
    const reply = await emu.call('POST', '/ai-agents/agents', validLlmAgent(overrides));
    expect(reply.status).toBe(400);
    expect(agentsError(reply).error).toBe('Bad Request');
    expect(errorMessage(reply)).toContain(field);
    expect(((await emu.call('GET', '/ai-agents/agents')).json as AgentRecord[]).length).toBe(before);
  });

  it('rejects unknown tools and actions, naming every one', async () => {
    const reply = await emu.call('POST', '/ai-agents/agents', validLlmAgent({ tools: ['show_card', 'ghost_tool'], actions: ['ghost_action'] }));
    expect(reply.status).toBe(400);
    expect(errorMessage(reply)).toContain("'ghost_tool'");
    expect(errorMessage(reply)).toContain("'ghost_action'");
    expect(errorMessage(reply)).not.toContain("'show_card'");
  });
});

describe('tools and actions are typed', () => {
  it('rejects an action in tools and a tool in actions, saying where each belongs', async () => {
    const before = ((await emu.call('GET', '/ai-agents/agents')).json as AgentRecord[]).length;
    const reply = await emu.call('POST', '/ai-agents/agents', validLlmAgent({ tools: ['show_card', 'get_weather'], actions: ['lookup_order', 'show_map'] }));
    expect(reply.status).toBe(400);
    const message = agentsError(reply).message;
    expect(message).toContain("'tools' names 'get_weather', which is of type 'action' (doNotExecute is false); put it in 'actions'");
    expect(message).toContain("'actions' names 'show_map', which is of type 'tool' (doNotExecute is true); put it in 'tools'");
    expect(message).not.toContain("'show_card'");
    expect(message).not.toContain("'lookup_order'");
    expect(((await emu.call('GET', '/ai-agents/agents')).json as AgentRecord[]).length).toBe(before);
  });

  it('applies the same rule to PATCH, and leaves the agent unchanged on a 400', async () => {
    const agent = await create(validLlmAgent({ tools: ['show_card'], actions: ['get_weather'] }));
    const reply = await emu.call('PATCH', `/ai-agents/agents/${agent.uid}`, { actions: ['show_card'] });
    expect(reply.status).toBe(400);
    expect(errorMessage(reply)).toContain("'actions' names 'show_card'");
    expect(await listed(agent.uid)).toEqual(agent);
  });

  it('lets a tool change type through PUT; agents keep the name, and only a list they send again is checked', async () => {
    await emu.createTool(clientTool('will_flip'));
    const agent = await create(validLlmAgent({ tools: ['will_flip'] }));
    // The reference sets no rule for this, so the PUT is allowed and the agent is left as it was.
    const flipped = await emu.call('PUT', '/ai-agents/tools/will_flip', validTool('will_flip'));
    expect(flipped.status).toBe(200);
    expect(flipped.json).toMatchObject({ type: 'action' });
    expect((await listed(agent.uid))?.tools).toEqual(['will_flip']);
    // A PATCH that does not send tools is not blocked by the stale entry...
    expect((await emu.call('PATCH', `/ai-agents/agents/${agent.uid}`, { name: 'Still here' })).status).toBe(200);
    // ...but sending the stale list again is a 400, and moving the name to actions is the fix.
    expect((await emu.call('PATCH', `/ai-agents/agents/${agent.uid}`, { tools: ['will_flip'] })).status).toBe(400);
    expect((await emu.call('PATCH', `/ai-agents/agents/${agent.uid}`, { tools: [], actions: ['will_flip'] })).status).toBe(200);
  });

  it('lets a tool that agents name be deleted; the agents keep the dangling name', async () => {
    await emu.createTool(validTool('short_lived'));
    const agent = await create(validLlmAgent({ actions: ['short_lived'] }));
    expect((await emu.call('DELETE', '/ai-agents/tools/short_lived')).status).toBe(200);
    expect((await listed(agent.uid))?.actions).toEqual(['short_lived']);
  });
});

describe('GET list, PATCH and DELETE', () => {
  it('lists live agents as a bare array', async () => {
    const agent = await create(validLlmAgent({ name: 'Listed' }));
    const list = (await emu.call('GET', '/ai-agents/agents')).json as AgentRecord[];
    expect(Array.isArray(list)).toBe(true);
    expect(list.find((entry) => entry.uid === agent.uid)?.name).toBe('Listed');
  });

  it('has no GET of one agent, as the public reference has none: 405 naming PATCH and DELETE', async () => {
    const agent = await create(validLlmAgent());
    const reply = await emu.call('GET', `/ai-agents/agents/${agent.uid}`);
    expect(reply.status).toBe(405);
    expect(reply.headers.get('allow')).toBe('PATCH, DELETE');
    expect(agentsError(reply).error).toBe('Method Not Allowed');
  });

  it('updates in place and answers { success: true }; the list shows the change at once', async () => {
    const agent = await create(validLlmAgent({ icon: 'https://example.com/a.png' }));
    const reply = await emu.call('PATCH', `/ai-agents/agents/${agent.uid}`, { name: 'Renamed', actions: ['get_weather'], isActive: false });
    expect(reply.status).toBe(200);
    expect(reply.json).toEqual({ success: true });
    const updated = await listed(agent.uid);
    expect(updated).toMatchObject({ uid: agent.uid, name: 'Renamed', actions: ['get_weather'], isActive: false, icon: 'https://example.com/a.png', createdAt: agent.createdAt });
    expect(Date.parse(updated?.updatedAt ?? '')).toBeGreaterThan(Date.parse(agent.updatedAt));
    const list = (await emu.call('GET', '/ai-agents/agents')).json as AgentRecord[];
    expect(list.filter((entry) => entry.uid === agent.uid)).toHaveLength(1);
  });

  it('clears an optional field sent as null, with --store-as-sent', async () => {
    await emu.admin('POST', '/config', { storeAsSent: true });
    try {
      const agent = await create(validLlmAgent({ icon: 'https://example.com/a.png', instruction: 'Hi', suggestions: ['a'] }));
      expect((await emu.call('PATCH', `/ai-agents/agents/${agent.uid}`, { icon: null, instruction: null, suggestions: null })).status).toBe(200);
      const updated = await listed(agent.uid);
      expect(updated).not.toHaveProperty('icon');
      expect(updated).not.toHaveProperty('instruction');
      expect(updated).not.toHaveProperty('suggestions');
    } finally {
      await emu.admin('POST', '/config', { storeAsSent: false });
    }
  });

  it('refuses a null with 400 when it stores like a server, and clears with the empty value', async () => {
    const agent = await create(validLlmAgent({ icon: 'https://example.com/a.png', instruction: 'Hi', suggestions: ['a'] }));
    const refused = await emu.call('PATCH', `/ai-agents/agents/${agent.uid}`, { icon: null });
    expect(refused.status).toBe(400);
    expect(errorMessage(refused)).toContain('icon must be a string');
    expect((await listed(agent.uid))?.icon).toBe('https://example.com/a.png');
    expect((await emu.call('PATCH', `/ai-agents/agents/${agent.uid}`, { icon: '', instruction: '', suggestions: [] })).status).toBe(200);
    expect(await listed(agent.uid)).toMatchObject({ icon: '', instruction: '', suggestions: [] });
  });

  it('applies the same field rules to PATCH and leaves the agent unchanged on a 400', async () => {
    const agent = await create(validLlmAgent());
    for (const body of [{ name: null }, { integrationType: 'robot' }, { tools: ['ghost'] }, { integrationType: 'agent' }, { typo: 1 }]) {
      const reply = await emu.call('PATCH', `/ai-agents/agents/${agent.uid}`, body);
      expect(reply.status, JSON.stringify(body)).toBe(400);
      agentsError(reply);
    }
    expect(await listed(agent.uid)).toEqual(agent);
  });

  it('answers 404 in the AI-agent error shape for an unknown uid', async () => {
    for (const [method, body] of [
      ['PATCH', { name: 'x' }],
      ['DELETE', undefined],
    ] as const) {
      const reply = await emu.call(method, '/ai-agents/agents/no-such-agent', body);
      expect(reply.status).toBe(404);
      expect(agentsError(reply)).toEqual({ statusCode: 404, message: "Agent 'no-such-agent' does not exist.", error: 'Not Found' });
    }
  });

  it('soft-deletes with { success, message }: hidden from the list at once, 404 afterwards', async () => {
    const agent = await create(validLlmAgent({ name: 'Doomed' }));
    const reply = await emu.call('DELETE', `/ai-agents/agents/${agent.uid}`);
    expect(reply.status).toBe(200);
    expect(reply.json).toEqual({ success: true, message: `Agent with UID '${agent.uid}' has been deleted successfully` });
    const list = (await emu.call('GET', '/ai-agents/agents')).json as AgentRecord[];
    expect(list.some((entry) => entry.uid === agent.uid)).toBe(false);
    expect(list.every((entry) => entry.deletedAt === null)).toBe(true);
    expect((await emu.call('PATCH', `/ai-agents/agents/${agent.uid}`, { name: 'Back' })).status).toBe(404);
    expect((await emu.call('DELETE', `/ai-agents/agents/${agent.uid}`)).status).toBe(404);
  });
});
