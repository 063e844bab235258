// Fuzz: 1,200 random and malformed requests, none of which is a valid write. Afterwards nothing
// crashed, the server still answers correctly, and the stored data is exactly as before.
import { connect } from 'node:net';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MessageResponse } from '../../src/core/api-types.js';
import { API_KEY, startTestEmulator, type TestEmulator } from '../support/emulator.js';
import { rawRequest, validLlmAgent, validTool, type RawReply } from './helpers.js';

const SEED = 20240603;
const RUNS = 1200;

interface FuzzRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: Buffer;
}

const methods = fc.constantFrom('GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'HEAD', 'TRACE', 'PROPFIND', 'CONNECT');
const segment = fc.oneof(
  fc.constantFrom('v3', 'ai-agents', 'tools', 'agents', 'messages', 'agent-builder', 'knowledge-base', 'website', 'web_demo', 'discovered-urls', 'process', '..', '.', ''),
  fc.stringMatching(/^[A-Za-z0-9_$.~-]{1,12}$/),
  fc.stringMatching(/^(%[0-9A-Fa-f]{2}|%[G-Z]{2}|%|[a-z]){1,6}$/),
);
const randomPath = fc
  .tuple(fc.array(segment, { maxLength: 8 }), fc.option(fc.stringMatching(/^[a-z=&%0-9]{0,20}$/)))
  .map(([segments, query]) => `/${segments.join('/')}${query === null ? '' : `?${query}`}`)
  .filter((path) => !path.includes('__emulator'));
const apiKeyHeader = fc.oneof(fc.constant(API_KEY), fc.constant(''), fc.stringMatching(/^[ -~]{0,40}$/));
const contentType = fc.constantFrom('application/json', 'application/json; charset=utf-16', 'text/plain', 'application/xml', 'multipart/form-data', '', 'application/json;charset=latin1');

/** Bodies that break exactly one rule of an otherwise valid request, so none of them may be stored. */
const toolBreakers: Array<(body: Record<string, unknown>) => unknown> = [
  (b) => ({ ...b, name: '1bad' }),
  (b) => ({ ...b, displayName: undefined }),
  (b) => ({ ...b, executionText: 42 }),
  (b) => ({ ...b, description: undefined }),
  (b) => ({ ...b, parameters: { type: 'object', properties: { a: { type: 'string' } } } }),
  (b) => ({ ...b, parameters: { type: 'object', properties: {}, required: ['x'] } }),
  (b) => ({ ...b, doNotExecute: true }),
  (b) => ({ ...b, extra: 1 }),
  (b) => [b],
];
const agentBreakers: Array<(body: Record<string, unknown>) => unknown> = [
  (b) => ({ ...b, name: null }),
  (b) => ({ ...b, integrationType: 'agent' }),
  (b) => ({ ...b, integrationType: 'robot' }),
  (b) => ({ ...b, tools: ['fuzz_ghost'] }),
  // 'existing' is an action (doNotExecute false), so it cannot be in tools.
  (b) => ({ ...b, tools: ['existing'] }),
  (b) => ({ ...b, icon: 'not a url' }),
  (b) => ({ ...b, actions: undefined }),
];
const messageBreakers: Array<(body: Record<string, unknown>) => unknown> = [
  (b) => ({ ...b, receiver: 'fuzz-nobody' }),
  (b) => ({ ...b, receiverType: 'channel' }),
  (b) => ({ ...b, data: {} }),
  (b) => ({ ...b, type: 'sticker' }),
  (b) => ({ ...b, tags: Array.from({ length: 30 }, () => 't') }),
  (b) => ({ ...b, quotedMessageId: 'fuzz-missing' }),
  (b) => ({ ...b, category: 'custom', type: 'x' }),
];

function jsonBytes(value: unknown): Buffer {
  return Buffer.from(JSON.stringify(value) ?? 'undefined');
}

const brokenWrite = fc.oneof(
  fc.tuple(fc.constantFrom(...toolBreakers), fc.constantFrom('a1', 'existing')).map(([breaker, name]): FuzzRequest => ({
    method: 'PUT',
    path: `/v3/ai-agents/tools/${name}`,
    headers: { apikey: API_KEY, 'content-type': 'application/json' },
    body: jsonBytes(breaker(validTool(name))),
  })),
  fc.tuple(fc.constantFrom(...toolBreakers), fc.constantFrom('c3', 'existing')).map(([breaker, name]): FuzzRequest => ({
    method: 'POST',
    path: '/v3/ai-agents/tools',
    headers: { apikey: API_KEY, 'content-type': 'application/json' },
    body: jsonBytes(breaker(validTool(name))),
  })),
  // Valid bodies the public reference still refuses: a PUT that would create, a POST of a taken name.
  fc.constantFrom(
    { method: 'PUT', path: '/v3/ai-agents/tools/d4', headers: { apikey: API_KEY, 'content-type': 'application/json' }, body: jsonBytes(validTool('d4')) },
    { method: 'POST', path: '/v3/ai-agents/tools', headers: { apikey: API_KEY, 'content-type': 'application/json' }, body: jsonBytes(validTool('existing')) },
  ),
  fc.constantFrom(...agentBreakers).map((breaker): FuzzRequest => ({
    method: 'POST',
    path: '/v3/ai-agents/agents',
    headers: { apikey: API_KEY, 'content-type': 'application/json' },
    body: jsonBytes(breaker(validLlmAgent())),
  })),
  fc.constantFrom(...messageBreakers).map((breaker): FuzzRequest => ({
    method: 'POST',
    path: '/v3/messages',
    headers: { apikey: API_KEY, 'content-type': 'application/json' },
    body: jsonBytes(breaker({ receiver: 'bob', receiverType: 'user', data: { text: 'hi' } })),
  })),
  fc.oneof(fc.constant({ exclude: ['url_404'] }), fc.constant({}), fc.jsonValue()).map((body): FuzzRequest => ({
    method: 'POST',
    path: '/v3/ai-agents/agent-builder/knowledge-base/website/web_demo/discovered-urls/process',
    headers: { apikey: API_KEY, 'content-type': 'application/json' },
    body: jsonBytes(body),
  })),
);

/** Random JSON, truncated JSON, random bytes and invalid UTF-8 to the real write endpoints. */
const writePaths = fc.constantFrom(
  '/v3/ai-agents/tools/a1',
  '/v3/ai-agents/tools',
  '/v3/ai-agents/agents',
  '/v3/messages',
  '/v3/ai-agents/agents/some-uid',
  '/v3/ai-agents/agent-builder/knowledge-base/website/web_demo/discovered-urls/process',
);
const garbageBody = fc.oneof(
  fc.jsonValue().map(jsonBytes),
  fc.jsonValue().map((value) => jsonBytes(value).subarray(0, Math.max(1, jsonBytes(value).length - 1))),
  fc.uint8Array({ minLength: 1, maxLength: 300 }).map((bytes) => Buffer.from(bytes)),
  fc.constant(Buffer.from([0x7b, 0x22, 0xc3, 0x28, 0x22, 0x3a, 0x31, 0x7d])),
  fc.constant(Buffer.from('\ufeff{"name":"a1"}', 'utf16le')),
);
const garbageWrite = fc
  .tuple(fc.constantFrom('PUT', 'POST', 'PATCH'), writePaths, contentType, apiKeyHeader, garbageBody)
  .map(([method, path, type, key, body]): FuzzRequest => ({ method, path, headers: { apikey: key, ...(type === '' ? {} : { 'content-type': type }) }, body }));

const randomRequest = fc
  .tuple(methods, randomPath, apiKeyHeader, contentType, fc.option(fc.uint8Array({ maxLength: 200 })))
  .map(([method, path, key, type, body]): FuzzRequest => ({
    method,
    path,
    headers: { apikey: key, ...(type === '' ? {} : { 'content-type': type }) },
    ...(body === null || method === 'GET' || method === 'HEAD' ? {} : { body: Buffer.from(body) }),
  }))
  // A DELETE or PATCH with the right key on a random /v3 path could, in principle, hit a real record.
  .filter((request) => !(request.method === 'DELETE' || request.method === 'PATCH') || request.headers.apikey !== API_KEY || !request.path.startsWith('/v3/'));

const hugeWrite = fc.constantFrom('/v3/ai-agents/tools/a1', '/v3/ai-agents/tools', '/v3/messages').map((path): FuzzRequest => ({
  method: path.endsWith('a1') ? 'PUT' : 'POST',
  path,
  headers: { apikey: API_KEY, 'content-type': 'application/json' },
  body: Buffer.alloc(1024 * 1024 + 1, 0x20),
}));

const fuzzRequest = fc.oneof({ arbitrary: randomRequest, weight: 4 }, { arbitrary: brokenWrite, weight: 3 }, { arbitrary: garbageWrite, weight: 3 });

let emu: TestEmulator;
beforeAll(async () => {
  emu = await startTestEmulator();
});
afterAll(() => emu.close());

async function snapshot(): Promise<string> {
  const lists = await Promise.all([
    emu.call('GET', '/ai-agents/tools'),
    emu.call('GET', '/ai-agents/agents'),
    emu.call('GET', '/ai-agents/agent-builder/knowledge-base/website/web_demo/discovered-urls'),
  ]);
  return JSON.stringify(lists.map((reply) => reply.json));
}

async function sendValidMessage(): Promise<number> {
  const reply = await emu.call('POST', '/messages', { receiver: 'ops', receiverType: 'group', data: { text: 'probe' } });
  return Number((reply.json as MessageResponse).data.id);
}

async function sendRawGarbage(bytes: string): Promise<void> {
  await new Promise<void>((resolve) => {
    const socket = connect(emu.port, '127.0.0.1', () => socket.end(bytes));
    socket.on('data', () => {});
    socket.on('close', () => resolve());
    socket.on('error', () => resolve());
  });
}

describe('fuzz', () => {
  it(`survives ${RUNS} random and malformed requests without changing data`, async () => {
    expect((await emu.createTool(validTool('existing'))).status).toBe(200);
    expect((await emu.call('POST', '/ai-agents/agents', validLlmAgent({ actions: ['existing'] }))).status).toBe(200);
    const before = await snapshot();
    const messageIdBefore = await sendValidMessage();

    const requests = fc.sample(fuzzRequest, { seed: SEED, numRuns: RUNS });
    requests.push(...fc.sample(hugeWrite, { seed: SEED, numRuns: 10 }));
    const replies: Array<{ request: FuzzRequest; reply: RawReply }> = [];
    for (let i = 0; i < requests.length; i += 8) {
      const batch = requests.slice(i, i + 8);
      replies.push(...(await Promise.all(batch.map(async (request) => ({ request, reply: await rawRequest(emu.origin, request) })))));
    }
    for (const garbage of ['GARBAGE\r\n\r\n', 'GET / HTTP/9.9\r\n\r\n', 'PUT /v3/messages HTTP/1.1\r\nContent-Length: -5\r\n\r\n', '\u0000\u0001\u0002']) await sendRawGarbage(garbage);

    expect(replies.length).toBeGreaterThanOrEqual(1000);
    const internal = replies.filter(({ reply }) => reply.status === 500 || reply.text.includes('ERR_INTERNAL'));
    expect(internal.map(({ request }) => `${request.method} ${request.path}`)).toEqual([]);
    const acceptedWrites = replies.filter(({ request, reply }) => request.method !== 'GET' && request.method !== 'HEAD' && reply.status !== null && reply.status < 300);
    expect(acceptedWrites.map(({ request, reply }) => `${request.method} ${request.path} → ${reply.status}`)).toEqual([]);
    // Every error from the API has its route family's body: the public reference's ErrorResponse
    // under /v3/ai-agents, the Chat API body everywhere else.
    for (const { request, reply } of replies) {
      if (reply.status === null || reply.status < 400 || request.method === 'HEAD' || reply.text === '') continue;
      const pathname = request.path.split('?')[0] ?? '';
      const where = `${request.method} ${request.path} → ${reply.status}`;
      if (pathname === '/v3/ai-agents' || pathname.startsWith('/v3/ai-agents/')) {
        const body = JSON.parse(reply.text) as { statusCode?: unknown; message?: unknown; error?: unknown };
        expect(Object.keys(body).sort(), where).toEqual(['error', 'message', 'statusCode']);
        expect([body.statusCode, typeof body.message, typeof body.error], where).toEqual([reply.status, 'string', 'string']);
      } else {
        const body = JSON.parse(reply.text) as { error?: { code?: unknown } };
        expect(typeof body.error?.code, where).toBe('string');
      }
    }
    const statuses = new Set(replies.map(({ reply }) => reply.status));
    for (const status of [400, 401, 404, 405, 413, 415]) expect(statuses.has(status), `status ${status} was exercised`).toBe(true);

    expect(await snapshot()).toBe(before);
    expect(await sendValidMessage()).toBe(messageIdBefore + 1);
    const healthy = await emu.createTool(validTool('after_fuzz'));
    expect(healthy.status).toBe(200);
    expect(healthy.json).toMatchObject({ _id: 'local_after_fuzz', type: 'action' });
  });
});
