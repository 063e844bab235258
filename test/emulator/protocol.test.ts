// Auth, error bodies and the HTTP edge cases: each gets a clear error in its route family's shape
// (the public reference's ErrorResponse under /v3/ai-agents, the Chat API body elsewhere), and the
// server stays healthy.
import { connect } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { API_KEY, startTestEmulator, type TestEmulator } from '../support/emulator.js';
import { rawRequest, validTool } from './helpers.js';

let emu: TestEmulator;
beforeAll(async () => {
  emu = await startTestEmulator();
});
afterAll(() => emu.close());

let healthChecks = 0;
/** After every edge case the server must still do real work. */
afterEach(async () => {
  const reply = await emu.createTool(validTool(`health_check_${++healthChecks}`));
  expect(reply.status).toBe(200);
});

const createToolPath = '/v3/ai-agents/tools';
const jsonHeaders = { apikey: API_KEY, 'content-type': 'application/json' };

/** The Chat API error body, answered on /messages and outside /v3/ai-agents. */
function parseChatError(text: string): { code: string; message: string; devMessage: string; source: string } {
  const body = JSON.parse(text) as { error: { code: string; message: string; devMessage: string; source: string } };
  expect(Object.keys(body)).toEqual(['error']);
  expect(Object.keys(body.error).sort()).toEqual(['code', 'devMessage', 'message', 'source']);
  return body.error;
}

/** The public reference's ErrorResponse, answered everywhere under /v3/ai-agents. */
function parseAgentsError(text: string, status: number | null): { statusCode: number; message: string; error: string } {
  const body = JSON.parse(text) as { statusCode: number; message: string; error: string };
  expect(Object.keys(body).sort()).toEqual(['error', 'message', 'statusCode']);
  expect(body.statusCode).toBe(status);
  return body;
}

describe('authentication', () => {
  it("401 without the header or with an empty one, in each family's shape", async () => {
    for (const headers of [{}, { apikey: '' }] as Array<Record<string, string>>) {
      const agents = await rawRequest(emu.origin, { method: 'GET', path: '/v3/ai-agents/tools', headers });
      expect(agents.status).toBe(401);
      expect(parseAgentsError(agents.text, 401)).toEqual({ statusCode: 401, message: "The 'apikey' header is missing or empty.", error: 'Unauthorized' });
      const chat = await rawRequest(emu.origin, { method: 'POST', path: '/v3/messages', headers });
      expect(chat.status).toBe(401);
      expect(parseChatError(chat.text)).toMatchObject({ code: 'AUTH_ERR_EMPTY_APIKEY', source: 'chat-api' });
    }
  });

  it("401 with a wrong key, in each family's shape", async () => {
    const agents = await rawRequest(emu.origin, { method: 'GET', path: '/v3/ai-agents/tools', headers: { apikey: 'wrong' } });
    expect(agents.status).toBe(401);
    expect(parseAgentsError(agents.text, 401).error).toBe('Unauthorized');
    const chat = await rawRequest(emu.origin, { method: 'POST', path: '/v3/messages', headers: { apikey: 'wrong' } });
    expect(parseChatError(chat.text)).toMatchObject({ code: 'AUTH_ERR_APIKEY_NOT_FOUND', source: 'chat-api' });
  });

  it('never writes the API key into the request log', async () => {
    await emu.call('GET', '/ai-agents/tools');
    await rawRequest(emu.origin, { method: 'GET', path: '/v3/ai-agents/tools', headers: { apikey: 'secret-wrong-key' } });
    const log = JSON.stringify((await emu.admin('GET', '/requests')).json);
    expect(log).toContain('/v3/ai-agents/tools');
    expect(log).not.toContain(API_KEY);
    expect(log).not.toContain('secret-wrong-key');
  });

  it('uses $AGENTSYNC_EMULATOR_API_KEY, then local-dev-key, when no key is given', async () => {
    const saved = process.env.AGENTSYNC_EMULATOR_API_KEY;
    try {
      process.env.AGENTSYNC_EMULATOR_API_KEY = 'from-env';
      const fromEnv = await (await import('../../src/emulator/index.js')).startEmulator({ port: 0 });
      delete process.env.AGENTSYNC_EMULATOR_API_KEY;
      const fallback = await (await import('../../src/emulator/index.js')).startEmulator({ port: 0 });
      const status = async (origin: string, key: string) => (await rawRequest(origin, { method: 'GET', path: '/v3/ai-agents/tools', headers: { apikey: key } })).status;
      expect(await status(fromEnv.origin, 'from-env')).toBe(200);
      expect(await status(fromEnv.origin, 'local-dev-key')).toBe(401);
      expect(await status(fallback.origin, 'local-dev-key')).toBe(200);
      expect([fromEnv.apiKey, fallback.apiKey]).toEqual(['from-env', 'local-dev-key']);
      await Promise.all([fromEnv.close(), fallback.close()]);
    } finally {
      if (saved === undefined) delete process.env.AGENTSYNC_EMULATOR_API_KEY;
      else process.env.AGENTSYNC_EMULATOR_API_KEY = saved;
    }
  });
});

/** The same protocol failure on each route family must come back in that family's error shape. */
const families: Array<{ family: string; path: string; expectShape: (text: string, status: number | null) => { message: string } }> = [
  { family: 'AI agents', path: createToolPath, expectShape: (text, status) => parseAgentsError(text, status) },
  { family: 'chat', path: '/v3/messages', expectShape: (text) => parseChatError(text) },
];

describe.each(families)('protocol errors on the $family routes', ({ path, expectShape }) => {
  it('400 for malformed JSON', async () => {
    const reply = await rawRequest(emu.origin, { method: 'POST', path, headers: jsonHeaders, body: '{"name": "t1",' });
    expect(reply.status).toBe(400);
    expect(expectShape(reply.text, 400).message).toContain('JSON');
  });

  it('400 for a body that is not UTF-8, and for an empty body', async () => {
    const bad = await rawRequest(emu.origin, { method: 'POST', path, headers: jsonHeaders, body: Buffer.from([0x7b, 0xff, 0xfe, 0x7d]) });
    expect(bad.status).toBe(400);
    expect(expectShape(bad.text, 400).message).toContain('UTF-8');
    const empty = await rawRequest(emu.origin, { method: 'POST', path, headers: jsonHeaders });
    expect(empty.status).toBe(400);
    expectShape(empty.text, 400);
  });

  it('413 for a body over 1 MB, declared or chunked', async () => {
    const body = JSON.stringify({ ...validTool('t1'), description: 'x'.repeat(1024 * 1024 + 10) });
    const declared = await rawRequest(emu.origin, { method: 'POST', path, headers: jsonHeaders, body });
    expect(declared.status).toBe(413);
    expect(expectShape(declared.text, 413).message).toContain('larger than');
    const chunked = await rawRequest(emu.origin, { method: 'POST', path, headers: { ...jsonHeaders, 'transfer-encoding': 'chunked' }, body });
    expect(chunked.status).toBe(413);
    expectShape(chunked.text, 413);
    expect((await emu.call('GET', '/ai-agents/tools/t1')).status).toBe(404);
  });

  it('415 for a body that is not JSON', async () => {
    for (const contentType of ['text/plain', 'application/x-www-form-urlencoded', 'application/json; charset=latin1']) {
      const reply = await rawRequest(emu.origin, { method: 'POST', path, headers: { apikey: API_KEY, 'content-type': contentType }, body: JSON.stringify(validTool('t1')) });
      expect(reply.status, contentType).toBe(415);
      expectShape(reply.text, 415);
    }
    const missing = await rawRequest(emu.origin, { method: 'POST', path, headers: { apikey: API_KEY }, body: JSON.stringify(validTool('t1')) });
    expect(missing.status).toBe(415);
  });

  it('405 with Allow for a wrong method', async () => {
    const reply = await rawRequest(emu.origin, { method: 'DELETE', path, headers: { apikey: API_KEY } });
    expect(reply.status).toBe(405);
    expect(expectShape(reply.text, 405).message).toContain('DELETE');
  });
});

describe('protocol errors', () => {
  it('keeps the chat code on 4xx outside /ai-agents', async () => {
    const malformed = await rawRequest(emu.origin, { method: 'POST', path: '/v3/messages', headers: jsonHeaders, body: '{' });
    expect(parseChatError(malformed.text).code).toBe('ERR_BAD_REQUEST');
    const large = await rawRequest(emu.origin, { method: 'POST', path: '/v3/messages', headers: jsonHeaders, body: 'x'.repeat(1024 * 1024 + 1) });
    expect(parseChatError(large.text).code).toBe('ERR_PAYLOAD_TOO_LARGE');
    const type = await rawRequest(emu.origin, { method: 'POST', path: '/v3/messages', headers: { apikey: API_KEY, 'content-type': 'text/plain' }, body: '{}' });
    expect(parseChatError(type.text).code).toBe('ERR_UNSUPPORTED_MEDIA_TYPE');
  });

  it('413 through fetch too, so ordinary clients can read it', async () => {
    const response = await fetch(`${emu.url}/ai-agents/tools`, { method: 'POST', headers: jsonHeaders, body: 'x'.repeat(2 * 1024 * 1024) });
    expect(response.status).toBe(413);
  });

  it('hangs up on a client that keeps streaming far past the limit, without buffering it', async () => {
    const socket = connect(Number(emu.port), '127.0.0.1');
    await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
    socket.write(`POST ${createToolPath} HTTP/1.1\r\nHost: 127.0.0.1:${emu.port}\r\napikey: ${API_KEY}\r\ncontent-type: application/json\r\ntransfer-encoding: chunked\r\n\r\n`);
    const chunk = Buffer.alloc(64 * 1024, 0x61);
    const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
    socket.on('error', () => {});
    for (let sent = 0; sent < 32 * 1024 * 1024 && !socket.destroyed; sent += chunk.length) {
      socket.write(`${chunk.length.toString(16)}\r\n`);
      if (!socket.write(Buffer.concat([chunk, Buffer.from('\r\n')]))) await new Promise((resolve) => socket.once('drain', resolve).once('close', resolve));
    }
    await closed;
    expect(socket.destroyed).toBe(true);
  });

  it('accepts application/json with a UTF-8 charset', async () => {
    const reply = await rawRequest(emu.origin, {
      method: 'POST',
      path: createToolPath,
      headers: { apikey: API_KEY, 'content-type': 'application/json; charset=UTF-8' },
      body: JSON.stringify(validTool('charset_ok')),
    });
    expect(reply.status).toBe(200);
  });

  it('404 for unknown paths: the AI-agent shape under /v3/ai-agents, the chat shape elsewhere', async () => {
    for (const path of ['/v3/ai-agents/widgets', '/v3/ai-agents', '/v3/ai-agents/tools/a/b']) {
      const reply = await rawRequest(emu.origin, { method: 'GET', path, headers: { apikey: API_KEY } });
      expect(reply.status, path).toBe(404);
      expect(parseAgentsError(reply.text, 404).error).toBe('Not Found');
    }
    for (const path of ['/v2/messages', '/v3', '/v3/ai-agentsx', '/v3/chat', '/x/v3/ai-agents/tools']) {
      const reply = await rawRequest(emu.origin, { method: 'GET', path, headers: { apikey: API_KEY } });
      expect(reply.status, path).toBe(404);
      expect(parseChatError(reply.text).code).toBe('ERR_API_NOT_FOUND');
    }
    // The root is the dashboard's page (docs/emulator.md), not an API path.
    const root = await rawRequest(emu.origin, { method: 'GET', path: '/', headers: {} });
    expect(root.status).toBe(200);
    expect(root.text).toContain('<html');
  });

  it('405 with Allow for a wrong method on a known path', async () => {
    const cases: Array<[string, string, string]> = [
      ['POST', '/v3/ai-agents/tools/t1', 'GET, PUT, DELETE'],
      ['DELETE', '/v3/ai-agents/tools', 'GET, POST'],
      ['DELETE', '/v3/ai-agents/agents', 'GET, POST'],
      ['PUT', '/v3/ai-agents/agents/abc', 'PATCH, DELETE'],
    ];
    for (const [method, path, allow] of cases) {
      const reply = await rawRequest(emu.origin, { method, path, headers: { apikey: API_KEY } });
      expect(reply.status, `${method} ${path}`).toBe(405);
      expect(reply.headers.allow).toBe(allow);
      expect(parseAgentsError(reply.text, 405).error).toBe('Method Not Allowed');
    }
    const chat = await rawRequest(emu.origin, { method: 'GET', path: '/v3/messages', headers: { apikey: API_KEY } });
    expect([chat.status, chat.headers.allow, parseChatError(chat.text).code]).toEqual([405, 'POST', 'ERR_METHOD_NOT_ALLOWED']);
  });

  it('400 for a path parameter that is not valid percent-encoding', async () => {
    const reply = await rawRequest(emu.origin, { method: 'GET', path: '/v3/ai-agents/tools/%E0%A4%A', headers: { apikey: API_KEY } });
    expect(reply.status).toBe(400);
    expect(parseAgentsError(reply.text, 400).message).toContain('percent-encoding');
  });

  it('keeps the path exactly as received in the request log', async () => {
    await emu.admin('DELETE', '/requests');
    await emu.call('GET', '/ai-agents/tools/%24weird%2Fname');
    const log = (await emu.admin('GET', '/requests')).json as { requests: Array<{ path: string; status: number }> };
    expect(log.requests.map((entry) => entry.path)).toEqual(['/v3/ai-agents/tools/%24weird%2Fname']);
    expect(log.requests[0]?.status).toBe(404);
  });

  it('answers unparseable HTTP with 400 and keeps serving', async () => {
    const reply = await new Promise<string>((resolve) => {
      const socket = connect(Number(emu.port), '127.0.0.1', () => socket.write('NOT HTTP AT ALL\r\n\r\n'));
      let text = '';
      socket.on('data', (chunk) => (text += chunk.toString()));
      socket.on('close', () => resolve(text));
      socket.on('error', () => resolve(text));
    });
    expect(reply).toMatch(/^HTTP\/1\.1 400/);
  });

  it('names the record in a 404 message', async () => {
    const reply = await emu.call('GET', '/ai-agents/tools/nope');
    expect(parseAgentsError(JSON.stringify(reply.json), 404).message).toContain("'nope'");
  });
});
