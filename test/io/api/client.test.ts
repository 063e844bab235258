import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { ToolBody } from '../../../src/core/api-types.js';
import { ApiError } from '../../../src/io/api/api-error.js';
import { createApiClient, type ApiClient } from '../../../src/io/api/client.js';
import { startTestEmulator, API_KEY, type TestEmulator } from '../../support/emulator.js';
import { waitFor } from '../../support/wait.js';

const fastBackoff = { baseMs: 5, capMs: 50 };
const tool = (name: string, description = 'd'): ToolBody => ({
  name,
  displayName: name,
  executionText: 'running',
  description,
  doNotExecute: false,
  parameters: { type: 'object', properties: { city: { type: 'string', description: 'City' } }, required: ['city'] },
});

// The client is a transport: paths and answer shapes belong to core/kinds. These helpers make the
// raw calls the tests below exercise retries, pacing and errors with.
type Api = Pick<ApiClient, 'request'>;
type Opts = Parameters<ApiClient['request']>[1];
// PUT on an unknown tool is a 404 under the public reference; these transport tests use the
// emulator's seed reading (--put-creates) so a PUT always lands.
const putTool = (api: Api, body: ToolBody, opts?: Opts) => api.request({ method: 'PUT', path: `/ai-agents/tools/${encodeURIComponent(body.name)}`, body }, opts) as Promise<Record<string, unknown>>;
const createAgent = (api: Api, body: object, opts?: Opts) => api.request({ method: 'POST', path: '/ai-agents/agents', body }, opts) as Promise<{ agent: Record<string, unknown> }>;
const updateAgent = (api: Api, uid: string, body: object, opts?: Opts) => api.request({ method: 'PATCH', path: `/ai-agents/agents/${encodeURIComponent(uid)}`, body }, opts);
const list = (api: Api, path: string) => api.request({ method: 'GET', path }) as Promise<Record<string, unknown>[]>;

let emu: TestEmulator;
let client: ApiClient;
beforeAll(async () => {
  emu = await startTestEmulator({ putCreates: true });
});
afterAll(() => emu.close());
afterEach(async () => {
  await client?.close();
  await emu.configure({ failRate: 0, failNext: 0, failMode: 'mixed', latencyMs: 0, rateLimitPerMinute: null });
});

function connect(options: Partial<Parameters<typeof createApiClient>[0]> = {}): ApiClient {
  client = createApiClient({ baseUrl: emu.url, apiKey: API_KEY, backoff: fastBackoff, ...options });
  return client;
}

async function failureOf(promise: Promise<unknown>): Promise<ApiError> {
  const err = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(ApiError);
  return err as ApiError;
}

describe('API client against the emulator', () => {
  it('sends any call and returns the parsed answer', async () => {
    const api = connect();
    const record = await putTool(api, tool('client_weather'));
    expect(record._id).toBe('local_client_weather');
    const { agent } = await createAgent(api, { name: 'A', isActive: true, integrateWith: 'gpt-4o', integrationType: 'llm', tools: [], actions: ['client_weather'], icon: 'https://example.com/i.png' });
    expect(agent.uid).toBeTruthy();
    await updateAgent(api, String(agent.uid), { name: 'B', icon: '' });
    expect((await list(api, '/ai-agents/tools')).map((t) => t.name)).toContain('client_weather');
    expect((await list(api, '/ai-agents/agents')).filter((a) => a.uid === agent.uid && a.name === 'B')).toHaveLength(1);
  });

  it('percent-encodes path parameters so an id cannot leave its segment', async () => {
    const api = connect();
    const err = await failureOf(updateAgent(api, '../tools/x?y=1', { name: 'n' }));
    expect(err.status).toBe(404);
    const last = (await emu.apiRequests('PATCH')).at(-1);
    expect(last?.path).toBe('/v3/ai-agents/agents/..%2Ftools%2Fx%3Fy%3D1');
  });

  it('maps a 400 to a non-retryable ApiError naming the call, status, code and message', async () => {
    const api = connect();
    const before = (await emu.apiRequests('POST')).length;
    const err = await failureOf(createAgent(api, { name: 'A', isActive: true, integrateWith: 'm', integrationType: 'llm', tools: ['no_such_tool'], actions: [] }));
    // The AI-agent routes answer {statusCode, message, error}: no code of their own.
    expect(err).toMatchObject({ status: 400, code: 'HTTP_400', retryable: false, call: 'POST /ai-agents/agents' });
    expect(err.message).toMatch(/^POST \/ai-agents\/agents answered 400: .*no_such_tool/);
    expect(err.describeFor('agent.support')).toMatch(/^agent\.support: POST/);
    expect((await emu.apiRequests('POST')).length).toBe(before + 1);
  });

  it('maps a wrong key to 401 and never puts the key in the message', async () => {
    const api = connect({ apiKey: 'wrong-secret-key' });
    const err = await failureOf(putTool(api, tool('t401')));
    expect(err).toMatchObject({ status: 401, code: 'HTTP_401' });
    expect(err.message).not.toContain('wrong-secret-key');
    // /messages keeps the Chat API body, whose code is read.
    const chat = await failureOf(api.sendMessage({ receiver: 'u', receiverType: 'user', category: 'message', type: 'text', data: { text: 'x' } }));
    expect(chat).toMatchObject({ status: 401, code: 'AUTH_ERR_APIKEY_NOT_FOUND' });
  });

  it('retries a PUT through 503s and dropped connections', async () => {
    const api = connect();
    await emu.configure({ failNext: 3, failMode: 'mixed' });
    const retries: number[] = [];
    const record = await putTool(api, tool('flaky_put'), { onRetry: (info) => retries.push(info.retry) });
    expect(record.name).toBe('flaky_put');
    expect(retries).toEqual([1, 2, 3]);
  });

  it('retries a POST answered 503, but never one whose connection dropped after sending', async () => {
    const api = connect();
    await emu.configure({ failNext: 1, failMode: '503' });
    const body = { name: 'Once', isActive: true, integrateWith: 'm', integrationType: 'llm' as const, tools: [], actions: [] };
    await createAgent(api, body);
    await emu.configure({ failNext: 1, failMode: 'drop' });
    const before = (await emu.apiRequests('POST')).length;
    const err = await failureOf(createAgent(api, body));
    expect(err).toMatchObject({ status: 0, notSent: false, attempts: 1 });
    expect((await emu.apiRequests('POST')).length).toBe(before + 1);
  });

  it('retries a dropped POST the caller marks repeatable, as it would a PUT', async () => {
    const api = connect();
    await emu.configure({ failNext: 1, failMode: 'drop' });
    const before = (await emu.apiRequests('POST')).length;
    const retries: number[] = [];
    await api.request({ method: 'POST', path: '/ai-agents/tools', body: tool('repeatable_post'), repeatable: true }, { onRetry: (info) => retries.push(info.retry) });
    expect(retries).toEqual([1]);
    expect((await emu.apiRequests('POST')).length).toBe(before + 2);
  });

  it('stops retrying once the client is closed, instead of backing off against a closed pool', async () => {
    const api = connect({ retries: 5, backoff: { baseMs: 300, capMs: 3000 } });
    await emu.configure({ failNext: 100, failMode: '503' });
    const seen = (await emu.apiRequests('PUT')).length;
    const started = performance.now();
    const pending = failureOf(putTool(api, tool('closing')));
    // Closed once the first attempt has failed, while the client backs off before the next.
    await waitFor('the first attempt', async () => (await emu.apiRequests('PUT')).length > seen);
    await api.close();
    const err = await pending;
    expect(err.attempts).toBeLessThan(6); // not every retry: the attempt after close() is the last
    expect(performance.now() - started).toBeLessThan(2_000);
  });

  it('gives up after --retries and reports the attempts', async () => {
    const api = connect({ retries: 2 });
    await emu.configure({ failNext: 10, failMode: '503' });
    const err = await failureOf(putTool(api, tool('always_503')));
    expect(err).toMatchObject({ status: 503, attempts: 3 });
  });

  it('stays within the configured concurrency', async () => {
    const api = connect({ concurrency: 3 });
    await emu.configure({ latencyMs: 20 });
    await fetch(`${emu.origin}/__emulator/stats`, { method: 'DELETE' });
    await Promise.all(Array.from({ length: 30 }, (_, i) => putTool(api, tool(`conc_${i}`))));
    expect((await emu.stats()).maxInFlight).toBeLessThanOrEqual(3);
    expect(api.stats().maxInFlight).toBe(3);
  });

  it('paces itself under a rate limit instead of storming into 429s', async () => {
    const api = connect({ concurrency: 10 });
    await emu.configure({ rateLimitPerMinute: 1_200 });
    await Promise.all(Array.from({ length: 40 }, (_, i) => putTool(api, tool(`paced_${i}`))));
    const puts = (await emu.apiRequests('PUT')).filter((r) => r.path.includes('paced_'));
    const throttled = puts.filter((r) => r.status === 429).length;
    expect(puts.filter((r) => r.status === 200)).toHaveLength(40);
    expect(throttled).toBeLessThanOrEqual(10);
  });
});

describe('API client against other servers', () => {
  let server: Server;
  let url: string;
  let seen: IncomingHttpHeaders[] = [];
  let reply: (res: ServerResponse) => void = () => {};
  beforeAll(async () => {
    server = createServer((req, res) => {
      seen.push(req.headers);
      req.resume();
      req.on('end', () => reply(res));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v3`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
  afterEach(() => {
    seen = [];
  });

  it('sends apikey, JSON content type, the user agent and onBehalfOf', async () => {
    reply = (res) => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ data: { id: 'm1' } }));
    const api = connect({ baseUrl: url });
    await api.sendMessage({ receiver: 'ops', receiverType: 'group', data: { text: 'hi' } }, { onBehalfOf: 'bot' });
    expect(seen[0]).toMatchObject({ apikey: API_KEY, 'content-type': 'application/json', onbehalfof: 'bot' });
    expect(seen[0]?.['user-agent']).toMatch(/^agentsync\/\d+\.\d+\.\d+/);
  });

  it('understands the AI Agents error body {statusCode, message, error}', async () => {
    reply = (res) => res.writeHead(400, { 'content-type': 'application/json' }).end(JSON.stringify({ statusCode: 400, message: ['name must be a string'], error: 'Bad Request' }));
    const err = await failureOf(putTool(connect({ baseUrl: url }), tool('x')));
    expect(err).toMatchObject({ status: 400, code: 'HTTP_400', serverMessage: 'name must be a string', retryable: false });
  });

  it('understands a non-JSON error page', async () => {
    reply = (res) => res.writeHead(502, { 'content-type': 'text/html' }).end('<html><body><h1>502 Bad Gateway</h1></body></html>');
    const err = await failureOf(putTool(connect({ baseUrl: url, retries: 1 }), tool('x')));
    expect(err).toMatchObject({ status: 502, code: 'HTTP_502', serverMessage: '502 Bad Gateway', attempts: 2 });
  });

  it('honours Retry-After before retrying a 429', async () => {
    let calls = 0;
    reply = (res) => {
      calls++;
      if (calls === 1) res.writeHead(429, { 'retry-after': '1', 'content-type': 'application/json' }).end('{"error":{"code":"ERR_TOO_MANY_REQUESTS","message":"slow down"}}');
      else res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ _id: 'local_x', name: 'x' }));
    };
    const delays: number[] = [];
    await putTool(connect({ baseUrl: url }), tool('x'), { onRetry: (info) => delays.push(info.delayMs) });
    expect(delays).toHaveLength(1);
    expect(delays[0]).toBeGreaterThanOrEqual(1_000);
  });

  it('retries a POST whose loopback connection was refused once, quickly, and names the server', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const api = connect({ baseUrl: `http://127.0.0.1:${port}/v3`, retries: 2 });
    const err = await failureOf(createAgent(api, { name: 'A', isActive: true, integrateWith: 'm', integrationType: 'llm', tools: [], actions: [] }));
    expect(err).toMatchObject({ status: 0, code: 'ECONNREFUSED', notSent: true, attempts: 2 });
    expect(err.message).toContain(`could not connect to 127.0.0.1:${port} (connection refused)`);
  });

  it('refuses plain http to a non-loopback host', () => {
    expect(() => createApiClient({ baseUrl: 'http://example.com/v3', apiKey: 'k' })).toThrow(/uses plain http; use https/);
    expect(() => createApiClient({ baseUrl: 'http://[::1]:4010/v3', apiKey: 'k' }).close()).not.toThrow();
  });
});
