// Every AI-agent operation the emulator implements, driven over real HTTP, with every answer
// (successes and the documented error statuses) checked against the response schemas of CometChat's
// public reference. Where the two versions disagree, the answer is checked against the version the
// emulator's current mode claims:
//   - defaults (createStatus 200, timestamps iso): version A;
//   - createStatus 201 + timestamps epoch: version O, where O documents the operation.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AgentCreateResponse } from '../../src/core/api-types.js';
import { API_KEY, startTestEmulator, type Reply, type TestEmulator } from '../support/emulator.js';
import { clientTool, rawRequest, validLlmAgent, validTool } from '../emulator/helpers.js';
import { REFERENCE_VERSIONS, validateComponent, validateResponse, type ReferenceVersion } from './openapi.js';

const websitePath = (id: string) => `/ai-agents/agent-builder/knowledge-base/website/${id}/discovered-urls`;

/** The answer must match the schema of `status` in each listed version (which must document it). */
function expectDocumented(reply: Reply, method: string, path: string, versions: readonly ReferenceVersion[]): void {
  expect(validateResponse(method, path, reply.status, reply.json, { versions }), `${method} ${path} → ${reply.status}`).toEqual([]);
}

/**
 * For errors the reference does not declare on that operation (405, 413, 415, 429, or a 404 where
 * only 400 and 500 are listed): the body must still be the reference's ErrorResponse, which both
 * versions define.
 */
function expectErrorResponse(reply: Reply): void {
  for (const version of REFERENCE_VERSIONS) expect(validateComponent(version, 'ErrorResponse', reply.json), `${reply.status}: ${JSON.stringify(reply.json)}`).toEqual([]);
}

const withoutKey = (emu: TestEmulator, method: string, path: string, body?: unknown) => emu.call(method, path, body, { apikey: '' });

describe('version A (the defaults: create 200, ISO timestamps)', () => {
  let emu: TestEmulator;
  beforeAll(async () => {
    emu = await startTestEmulator();
  });
  afterAll(() => emu.close());
  const A = ['A'] as const;

  it('POST /ai-agents/tools: 200, 400 (invalid, duplicate), 401', async () => {
    // O answers 201 here (public-api-versions.md), but its extract does not carry this operation.
    expectDocumented(await emu.createTool(validTool('get_weather')), 'POST', '/ai-agents/tools', A);
    expectDocumented(await emu.createTool(clientTool('show_card')), 'POST', '/ai-agents/tools', A);
    const invalid = await emu.createTool(validTool('9bad'));
    expect(invalid.status).toBe(400);
    expectDocumented(invalid, 'POST', '/ai-agents/tools', A);
    const duplicate = await emu.createTool(validTool('get_weather'));
    expect(duplicate.status).toBe(400);
    expectDocumented(duplicate, 'POST', '/ai-agents/tools', A);
    const anonymous = await withoutKey(emu, 'POST', '/ai-agents/tools', validTool('x'));
    expect(anonymous.status).toBe(401);
    expectDocumented(anonymous, 'POST', '/ai-agents/tools', A);
  });

  it('GET /ai-agents/tools: 200 (with and without ?type), 401; a bad type is an ErrorResponse 400', async () => {
    for (const path of ['/ai-agents/tools', '/ai-agents/tools?type=tool', '/ai-agents/tools?type=action']) {
      const reply = await emu.call('GET', path);
      expect(reply.status).toBe(200);
      expectDocumented(reply, 'GET', path, A);
    }
    const anonymous = await withoutKey(emu, 'GET', '/ai-agents/tools');
    expectDocumented(anonymous, 'GET', '/ai-agents/tools', A);
    const bogus = await emu.call('GET', '/ai-agents/tools?type=bogus');
    expect(bogus.status).toBe(400);
    expectErrorResponse(bogus);
  });

  it('GET /ai-agents/tools/{name}: 200, 404, 401', async () => {
    for (const [path, status] of [
      ['/ai-agents/tools/get_weather', 200],
      ['/ai-agents/tools/nope', 404],
    ] as const) {
      const reply = await emu.call('GET', path);
      expect(reply.status).toBe(status);
      expectDocumented(reply, 'GET', path, A);
    }
    expectDocumented(await withoutKey(emu, 'GET', '/ai-agents/tools/get_weather'), 'GET', '/ai-agents/tools/get_weather', A);
  });

  it('PUT /ai-agents/tools/{name}: 200, 404 (unknown name), 400 (rename, invalid), 401', async () => {
    // A and O disagree on the timestamps of the 200 record (string vs integer); this mode claims A.
    const cases: Array<[string, unknown, number]> = [
      ['/ai-agents/tools/get_weather', validTool('get_weather', { displayName: 'Weather' }), 200],
      ['/ai-agents/tools/ghost', validTool('ghost'), 404],
      ['/ai-agents/tools/get_weather', validTool('renamed'), 400],
      ['/ai-agents/tools/get_weather', validTool('get_weather', { executionText: undefined }), 400],
    ];
    for (const [path, body, status] of cases) {
      const reply = await emu.call('PUT', path, body);
      expect(reply.status, JSON.stringify(reply.json)).toBe(status);
      expectDocumented(reply, 'PUT', path, A);
    }
    expectDocumented(await withoutKey(emu, 'PUT', '/ai-agents/tools/get_weather', validTool('get_weather')), 'PUT', '/ai-agents/tools/get_weather', A);
  });

  it('POST /ai-agents/agents: 200, 400 (invalid, unknown and misplaced tools), 401', async () => {
    const created = await emu.call('POST', '/ai-agents/agents', validLlmAgent({ tools: ['show_card'], actions: ['get_weather'], instruction: 'Help.' }));
    expect(created.status).toBe(200);
    expectDocumented(created, 'POST', '/ai-agents/agents', A);
    for (const body of [validLlmAgent({ integrationType: 'robot' }), validLlmAgent({ tools: ['ghost'] }), validLlmAgent({ tools: ['get_weather'] })]) {
      const reply = await emu.call('POST', '/ai-agents/agents', body);
      expect(reply.status).toBe(400);
      expectDocumented(reply, 'POST', '/ai-agents/agents', A);
    }
    expectDocumented(await withoutKey(emu, 'POST', '/ai-agents/agents', validLlmAgent()), 'POST', '/ai-agents/agents', A);
  });

  it("GET /ai-agents/agents: full entries (checked as agent records) and no-uid entries (A's GetAgentDetailDto)", async () => {
    // A's list entry is {name, description, deploymentUrl, apiKey}; O's (not in its extract) is the
    // whole record. The default 'full' form carries the agent record, so each entry is checked
    // against A's agent record schema (the create answer's `agent`).
    const full = await emu.call('GET', '/ai-agents/agents');
    expect(full.status).toBe(200);
    const entries = full.json as unknown[];
    expect(entries.length).toBeGreaterThan(0);
    for (const entry of entries) expect(validateResponse('POST', '/ai-agents/agents', 200, { agent: entry }, { versions: A })).toEqual([]);
    expect(validateResponse('GET', '/ai-agents/agents', 200, full.json, { versions: A }).length).toBeGreaterThan(0);
    await emu.admin('POST', '/config', { agentList: 'no-uid' });
    try {
      const noUid = await emu.call('GET', '/ai-agents/agents');
      expectDocumented(noUid, 'GET', '/ai-agents/agents', A);
    } finally {
      await emu.admin('POST', '/config', { agentList: 'full' });
    }
  });

  it('PATCH /ai-agents/agents/{id}: 200 { success }, 400, 404, 401', async () => {
    const uid = ((await emu.call('POST', '/ai-agents/agents', validLlmAgent())).json as AgentCreateResponse).agent.uid;
    const path = `/ai-agents/agents/${uid}`;
    const cases: Array<[string, unknown, number]> = [
      [path, { name: 'Renamed', actions: ['get_weather'] }, 200],
      [path, { actions: ['show_card'] }, 400],
      [path, { integrationType: 'robot' }, 400],
      ['/ai-agents/agents/no-such-agent', { name: 'x' }, 404],
    ];
    for (const [where, body, status] of cases) {
      const reply = await emu.call('PATCH', where, body);
      expect(reply.status, JSON.stringify(reply.json)).toBe(status);
      expectDocumented(reply, 'PATCH', where, A);
    }
    expectDocumented(await withoutKey(emu, 'PATCH', path, { name: 'x' }), 'PATCH', path, A);
  });

  it('DELETE /ai-agents/agents/{id}: 200 { success, message }, 404, 401', async () => {
    const uid = ((await emu.call('POST', '/ai-agents/agents', validLlmAgent())).json as AgentCreateResponse).agent.uid;
    const path = `/ai-agents/agents/${uid}`;
    expectDocumented(await withoutKey(emu, 'DELETE', path), 'DELETE', path, A);
    for (const status of [200, 404]) {
      const reply = await emu.call('DELETE', path);
      expect(reply.status).toBe(status);
      expectDocumented(reply, 'DELETE', path, A);
    }
  });

  it('DELETE /ai-agents/tools/{name}: 200 { deleted }, 404, 401', async () => {
    await emu.createTool(validTool('doomed'));
    const path = '/ai-agents/tools/doomed';
    expectDocumented(await withoutKey(emu, 'DELETE', path), 'DELETE', path, A);
    for (const status of [200, 404]) {
      const reply = await emu.call('DELETE', path);
      expect(reply.status).toBe(status);
      expectDocumented(reply, 'DELETE', path, A);
    }
  });

  it('GET …/website/{parentUniqueId}/discovered-urls: 200; an unknown website is an ErrorResponse 404', async () => {
    const reply = await emu.call('GET', websitePath('web_demo'));
    expect(reply.status).toBe(200);
    expectDocumented(reply, 'GET', websitePath('web_demo'), A);
    // A declares only 400 and 500 here (without bodies); the emulator's 404 still has the reference's shape.
    const unknown = await emu.call('GET', websitePath('web_nope'));
    expect(unknown.status).toBe(404);
    expectErrorResponse(unknown);
  });

  it('POST …/discovered-urls/process: 200 (A and O agree), 400 and 404 as ErrorResponse', async () => {
    const path = `${websitePath('web_demo')}/process`;
    const started = await emu.call('POST', path, { exclude: ['url_9', 'url_10'] });
    expect(started.status).toBe(200);
    expectDocumented(started, 'POST', path, ['A', 'O']);
    // A declares 400 and 404 without a body; the emulator sends the ErrorResponse shape with them.
    const cases: Array<[string, unknown, number]> = [
      [path, {}, 400],
      [path, { exclude: ['url_404'] }, 400],
      [`${websitePath('web_blog')}/process`, { exclude: ['blog_1', 'blog_2', 'blog_3'] }, 404],
      [`${websitePath('web_empty')}/process`, { exclude: [] }, 404],
      [`${websitePath('web_nope')}/process`, { exclude: [] }, 404],
    ];
    for (const [where, body, status] of cases) {
      const reply = await emu.call('POST', where, body);
      expect(reply.status, JSON.stringify(reply.json)).toBe(status);
      expectDocumented(reply, 'POST', where, A);
      expectErrorResponse(reply);
    }
  });

  it('protocol errors on AI-agent routes are ErrorResponses: 404 path, 405, 413, 415, 400 JSON, 429', async () => {
    const replies: Reply[] = [
      await emu.call('GET', '/ai-agents/widgets'),
      await emu.call('DELETE', '/ai-agents/tools'),
      await emu.call('GET', '/ai-agents/agents/some-uid'),
      await emu.call('POST', '/ai-agents/tools', { description: 'x'.repeat(1024 * 1024 + 1) }),
    ];
    const raw = [
      await rawRequest(emu.origin, { method: 'POST', path: '/v3/ai-agents/tools', headers: { apikey: API_KEY, 'content-type': 'text/plain' }, body: '{}' }),
      await rawRequest(emu.origin, { method: 'POST', path: '/v3/ai-agents/tools', headers: { apikey: API_KEY, 'content-type': 'application/json' }, body: '{' }),
    ];
    expect(replies.map((reply) => reply.status)).toEqual([404, 405, 405, 413]);
    expect(raw.map((reply) => reply.status)).toEqual([415, 400]);
    for (const reply of replies) expectErrorResponse(reply);
    for (const reply of raw) expectErrorResponse({ status: reply.status ?? 0, headers: new Headers(), json: JSON.parse(reply.text) as unknown });
    await emu.admin('POST', '/config', { rateLimitPerMinute: 1 });
    try {
      await emu.call('GET', '/ai-agents/tools');
      const limited = await emu.call('GET', '/ai-agents/tools');
      expect(limited.status).toBe(429);
      expectErrorResponse(limited);
    } finally {
      await emu.admin('POST', '/config', { rateLimitPerMinute: null });
    }
  });
});

describe('version O (createStatus 201, epoch timestamps)', () => {
  let emu: TestEmulator;
  beforeAll(async () => {
    emu = await startTestEmulator({ createStatus: 201, timestamps: 'epoch' });
  });
  afterAll(() => emu.close());
  const O = ['O'] as const;

  it('POST /ai-agents/agents answers 201 with integer timestamps, as O documents', async () => {
    await emu.createTool(validTool('lookup'));
    const body = validLlmAgent({
      integrationType: 'agent',
      integrateWith: 'mastra',
      icon: 'https://example.com/a.png',
      actions: ['lookup'],
      integrationMeta: { baseUrl: 'https://agent.example.com', agentId: 'w' },
    });
    const reply = await emu.call('POST', '/ai-agents/agents', body);
    expect(reply.status).toBe(201);
    expectDocumented(reply, 'POST', '/ai-agents/agents', O);
    // A documents only 200 for this operation, with ISO timestamps: this mode does not claim A.
    expect(validateResponse('POST', '/ai-agents/agents', 201, reply.json, { versions: ['A'] })).toEqual(['POST /ai-agents/agents: status 201 is not documented in A']);
  });

  it('PUT /ai-agents/tools/{name} answers the record with integer timestamps, as O documents', async () => {
    await emu.createTool(validTool('o_tool'));
    const reply = await emu.call('PUT', '/ai-agents/tools/o_tool', validTool('o_tool', { displayName: 'O' }));
    expect(reply.status).toBe(200);
    expectDocumented(reply, 'PUT', '/ai-agents/tools/o_tool', O);
    expect(validateResponse('PUT', '/ai-agents/tools/o_tool', 200, reply.json, { versions: ['A'] })).toContain('A PUT /ai-agents/tools/{name} 200 answer: /createdAt must be string');
  });

  it('POST /ai-agents/tools (201), GET one and GET list answer the same record form', async () => {
    // O's extract lacks these operations; its tool record schema (the PUT answer) is the reference.
    const created = await emu.createTool(clientTool('o_card'));
    expect(created.status).toBe(201);
    const one = await emu.call('GET', '/ai-agents/tools/o_card');
    const list = (await emu.call('GET', '/ai-agents/tools')).json as unknown[];
    for (const record of [created.json, one.json, ...list]) expect(validateResponse('PUT', '/ai-agents/tools/x', 200, record, { versions: O })).toEqual([]);
  });

  it('POST …/discovered-urls/process answers as O documents', async () => {
    const path = `${websitePath('web_demo')}/process`;
    const reply = await emu.call('POST', path, { exclude: [] });
    expectDocumented(reply, 'POST', path, O);
  });
});
