// Auth, error bodies and the HTTP edge cases: each gets a clear error and the server stays healthy.
import { connect } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { API_KEY, errorCode, rawRequest, startTestEmulator, validTool, type TestEmulator } from './helpers.js';

let emu: TestEmulator;
beforeAll(async () => {
  emu = await startTestEmulator();
});
afterAll(() => emu.close());

/** After every edge case the server must still do real work. */
afterEach(async () => {
  const reply = await emu.call('PUT', '/ai-agents/tools/health_check', validTool('health_check'));
  expect(reply.status).toBe(200);
});

const toolPath = '/v3/ai-agents/tools/t1';
const jsonHeaders = { apikey: API_KEY, 'content-type': 'application/json' };

function parseError(text: string): { code: string; message: string; devMessage: string; source: string } {
  const body = JSON.parse(text) as { error: { code: string; message: string; devMessage: string; source: string } };
  expect(Object.keys(body)).toEqual(['error']);
  expect(Object.keys(body.error).sort()).toEqual(['code', 'devMessage', 'message', 'source']);
  return body.error;
}

describe('authentication', () => {
  it('401 AUTH_ERR_EMPTY_APIKEY without the header or with an empty one', async () => {
    for (const headers of [{}, { apikey: '' }] as Array<Record<string, string>>) {
      const reply = await rawRequest(emu.origin, { method: 'GET', path: '/v3/ai-agents/tools', headers });
      expect(reply.status).toBe(401);
      expect(parseError(reply.text).code).toBe('AUTH_ERR_EMPTY_APIKEY');
    }
  });

  it('401 AUTH_ERR_APIKEY_NOT_FOUND with a wrong key', async () => {
    const reply = await rawRequest(emu.origin, { method: 'GET', path: '/v3/ai-agents/tools', headers: { apikey: 'wrong' } });
    expect(reply.status).toBe(401);
    const error = parseError(reply.text);
    expect(error.code).toBe('AUTH_ERR_APIKEY_NOT_FOUND');
    expect(error.source).toBe('ai-agent-service');
  });

  it('uses the chat-api source for chat endpoints', async () => {
    const reply = await rawRequest(emu.origin, { method: 'POST', path: '/v3/messages', headers: { apikey: 'wrong' } });
    expect(parseError(reply.text).source).toBe('chat-api');
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
      await Promise.all([fromEnv.close(), fallback.close()]);
    } finally {
      if (saved === undefined) delete process.env.AGENTSYNC_EMULATOR_API_KEY;
      else process.env.AGENTSYNC_EMULATOR_API_KEY = saved;
    }
  });
});

describe('protocol errors', () => {
  it('400 for malformed JSON', async () => {
    const reply = await rawRequest(emu.origin, { method: 'PUT', path: toolPath, headers: jsonHeaders, body: '{"name": "t1",' });
    expect(reply.status).toBe(400);
    const error = parseError(reply.text);
    expect(error.code).toBe('ERR_BAD_REQUEST');
    expect(error.message).toContain('JSON');
  });

  it('400 for a body that is not UTF-8, and for an empty body', async () => {
    const bad = await rawRequest(emu.origin, { method: 'PUT', path: toolPath, headers: jsonHeaders, body: Buffer.from([0x7b, 0xff, 0xfe, 0x7d]) });
    expect(bad.status).toBe(400);
    expect(parseError(bad.text).message).toContain('UTF-8');
    const empty = await rawRequest(emu.origin, { method: 'PUT', path: toolPath, headers: jsonHeaders });
    expect(empty.status).toBe(400);
  });

  it('413 for a body over 1 MB, declared or chunked', async () => {
    const body = JSON.stringify({ ...validTool('t1'), description: 'x'.repeat(1024 * 1024 + 10) });
    const declared = await rawRequest(emu.origin, { method: 'PUT', path: toolPath, headers: jsonHeaders, body });
    expect(declared.status).toBe(413);
    expect(parseError(declared.text).code).toBe('ERR_PAYLOAD_TOO_LARGE');
    const chunked = await rawRequest(emu.origin, { method: 'PUT', path: toolPath, headers: { ...jsonHeaders, 'transfer-encoding': 'chunked' }, body });
    expect(chunked.status).toBe(413);
    expect((await emu.call('GET', '/ai-agents/tools/t1')).status).toBe(404);
  });

  it('413 through fetch too, so ordinary clients can read it', async () => {
    const response = await fetch(`${emu.url}/ai-agents/tools/t1`, { method: 'PUT', headers: jsonHeaders, body: 'x'.repeat(2 * 1024 * 1024) });
    expect(response.status).toBe(413);
  });

  it('hangs up on a client that keeps streaming far past the limit, without buffering it', async () => {
    const socket = connect(Number(emu.port), '127.0.0.1');
    await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
    socket.write(`PUT ${toolPath} HTTP/1.1\r\nHost: x\r\napikey: ${API_KEY}\r\ncontent-type: application/json\r\ntransfer-encoding: chunked\r\n\r\n`);
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

  it('415 for a body that is not JSON', async () => {
    for (const contentType of ['text/plain', 'application/x-www-form-urlencoded', 'application/json; charset=latin1']) {
      const reply = await rawRequest(emu.origin, { method: 'PUT', path: toolPath, headers: { apikey: API_KEY, 'content-type': contentType }, body: JSON.stringify(validTool('t1')) });
      expect(reply.status, contentType).toBe(415);
      expect(parseError(reply.text).code).toBe('ERR_UNSUPPORTED_MEDIA_TYPE');
    }
    const missing = await rawRequest(emu.origin, { method: 'PUT', path: toolPath, headers: { apikey: API_KEY }, body: JSON.stringify(validTool('t1')) });
    expect(missing.status).toBe(415);
  });

  it('accepts application/json with a UTF-8 charset', async () => {
    const reply = await rawRequest(emu.origin, { method: 'PUT', path: toolPath, headers: { apikey: API_KEY, 'content-type': 'application/json; charset=UTF-8' }, body: JSON.stringify(validTool('t1')) });
    expect(reply.status).toBe(200);
  });

  it('404 ERR_API_NOT_FOUND for unknown paths, inside and outside /v3', async () => {
    for (const path of ['/v3/ai-agents/widgets', '/v2/messages', '/', '/v3', '/v3/ai-agents/tools/a/b']) {
      const reply = await rawRequest(emu.origin, { method: 'GET', path, headers: { apikey: API_KEY } });
      expect(reply.status, path).toBe(404);
      expect(parseError(reply.text).code).toBe('ERR_API_NOT_FOUND');
    }
  });

  it('405 with Allow for a wrong method on a known path', async () => {
    const cases: Array<[string, string, string]> = [
      ['POST', '/v3/ai-agents/tools/t1', 'GET, PUT, DELETE'],
      ['DELETE', '/v3/ai-agents/agents', 'GET, POST'],
      ['GET', '/v3/messages', 'POST'],
      ['PUT', '/v3/ai-agents/agents/abc', 'GET, PATCH, DELETE'],
    ];
    for (const [method, path, allow] of cases) {
      const reply = await rawRequest(emu.origin, { method, path, headers: { apikey: API_KEY } });
      expect(reply.status, `${method} ${path}`).toBe(405);
      expect(reply.headers.allow).toBe(allow);
      expect(parseError(reply.text).code).toBe('ERR_METHOD_NOT_ALLOWED');
    }
  });

  it('400 for a path parameter that is not valid percent-encoding', async () => {
    const reply = await rawRequest(emu.origin, { method: 'GET', path: '/v3/ai-agents/tools/%E0%A4%A', headers: { apikey: API_KEY } });
    expect(reply.status).toBe(400);
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

  it('answers the error body shape with a matching devMessage on every error', async () => {
    const reply = await emu.call('GET', '/ai-agents/tools/nope');
    expect(errorCode(reply)).toBe('ERR_TOOL_NOT_FOUND');
    const error = (reply.json as { error: { message: string; devMessage: string } }).error;
    expect(error.devMessage).toContain('nope');
  });
});
