// sendRequest's limits against a real node:http server and a real undici Pool: a whole-response
// timeout per attempt, byte caps on answers, waits bounded by the call's deadline, and a quick end
// when a local server is not running.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { Pool } from 'undici';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ApiError, serverAddress } from '../../../src/io/api/api-error.js';
import { RateGovernor } from '../../../src/io/api/rate-governor.js';
import { sendRequest, type CallSpec, type RequestContext, type RetryClock } from '../../../src/io/api/send-request.js';

const realClock: RetryClock = { now: () => Date.now(), sleep: (ms) => new Promise((r) => setTimeout(r, ms)), random: () => Math.random() };

let server: Server;
let url: URL;
const sockets = new Set<Socket>();
let handle: (req: IncomingMessage, res: ServerResponse) => void = (_req, res) => void res.end('{}');
let requests: string[] = [];
let written = 0;
const pools: Pool[] = [];
const governors: RateGovernor[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    requests.push(`${req.method} ${req.url}`);
    req.resume();
    req.on('end', () => handle(req, res));
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}/v3`);
});

afterEach(async () => {
  requests = [];
  written = 0;
  for (const socket of sockets) socket.destroy();
  for (const governor of governors.splice(0)) governor.close();
  await Promise.all(pools.splice(0).map((pool) => pool.destroy()));
});

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

function context(overrides: Partial<RequestContext> = {}, target: URL = url): RequestContext {
  const pool = new Pool(target.origin, { connections: 4 });
  const governor = new RateGovernor(4);
  pools.push(pool);
  governors.push(governor);
  return {
    pool,
    basePath: '/v3',
    server: serverAddress(target),
    headers: { 'content-type': 'application/json' },
    governor,
    clock: realClock,
    retries: 3,
    attemptMs: 2_000,
    deadlineMs: 10_000,
    backoff: { baseMs: 5, capMs: 50 },
    ...overrides,
  };
}

async function failure(ctx: RequestContext, spec: CallSpec): Promise<{ err: ApiError; ms: number }> {
  const started = performance.now();
  const err = await sendRequest(ctx, spec).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(ApiError);
  return { err: err as ApiError, ms: performance.now() - started };
}

const PUT: CallSpec = { method: 'PUT', path: '/ai-agents/tools/x', body: { name: 'x' } };
const GET: CallSpec = { method: 'GET', path: '/ai-agents/tools' };

/** Writes filler as fast as the client reads, up to `limit` bytes, counting what it wrote. */
function flood(res: ServerResponse, limit: number): void {
  const chunk = Buffer.alloc(64 * 1024, 0x20);
  let open = true;
  let sent = 0;
  res.on('close', () => (open = false));
  const pump = (): void => {
    while (open && sent < limit) {
      sent += chunk.length;
      written += chunk.length;
      if (!res.write(chunk)) return void res.once('drain', pump);
    }
  };
  pump();
}

describe('one attempt must deliver the whole answer within attemptMs', () => {
  it('stops a body trickled a byte at a time, which no gap timeout would catch', async () => {
    handle = (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': '1000' });
      const timer = setInterval(() => res.write(' '), 50);
      res.on('close', () => clearInterval(timer));
    };
    const { err, ms } = await failure(context({ attemptMs: 500, retries: 0 }), PUT);
    expect(err).toMatchObject({ status: 0, code: 'TIMEOUT', retryable: true, notSent: false });
    expect(err.serverMessage).toBe(`no complete answer from ${url.host} within 500 ms`);
    expect(ms).toBeGreaterThanOrEqual(450);
    expect(ms).toBeLessThan(1_500);
  });

  it('stops waiting for headers that never come', async () => {
    handle = () => {};
    const { err, ms } = await failure(context({ attemptMs: 300, retries: 0 }), PUT);
    expect(err.code).toBe('TIMEOUT');
    expect(ms).toBeLessThan(1_300);
  });

  it('retries a timed-out PUT, but never a timed-out POST (it may have reached the server)', async () => {
    handle = () => {};
    expect((await failure(context({ attemptMs: 200, retries: 1 }), PUT)).err.attempts).toBe(2);
    expect(requests).toHaveLength(2);
    requests = [];
    expect((await failure(context({ attemptMs: 200, retries: 1 }), { method: 'POST', path: '/ai-agents/agents', body: {} })).err.attempts).toBe(1);
    expect(requests).toHaveLength(1);
  });
});

describe('answers are capped while they stream', () => {
  it('refuses a declared Content-Length over the cap without reading the body, and never retries', async () => {
    handle = (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(700 * 1024 * 1024) });
      flood(res, 64 * 1024 * 1024);
    };
    const { err } = await failure(context(), PUT);
    expect(err).toMatchObject({ status: 200, code: 'RESPONSE_TOO_LARGE', retryable: false, attempts: 1 });
    expect(err.serverMessage).toBe('the answer is 700 MB, more than the 1 MB this call accepts');
    expect(requests).toHaveLength(1);
    expect(written).toBeLessThan(16 * 1024 * 1024);
  });

  it('cuts a chunked answer off as soon as it passes the cap', async () => {
    handle = (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      flood(res, 64 * 1024 * 1024);
    };
    const { err } = await failure(context(), PUT);
    expect(err).toMatchObject({ code: 'RESPONSE_TOO_LARGE', serverMessage: 'the answer is larger than the 1 MB this call accepts', attempts: 1 });
    expect(requests).toHaveLength(1);
    expect(written).toBeLessThan(16 * 1024 * 1024);
  });

  it('lets a list be larger than a record, and a caller choose its own cap', async () => {
    const body = JSON.stringify([{ pad: 'x'.repeat(2 * 1024 * 1024) }]);
    handle = (_req, res) => void res.writeHead(200, { 'content-type': 'application/json' }).end(body);
    expect((await sendRequest(context(), GET)).body).toHaveLength(1);
    const { err } = await failure(context(), { ...GET, maxResponseBytes: 1024 });
    expect(err.serverMessage).toBe('the answer is larger than the 1 KB this call accepts');
  });

  it('accepts an answer of exactly the cap', async () => {
    const body = JSON.stringify({ pad: 'x'.repeat(1000 - 10) });
    expect(Buffer.byteLength(body)).toBe(1000);
    handle = (_req, res) => void res.writeHead(200, { 'content-type': 'application/json', 'content-length': '1000' }).end(body);
    expect((await sendRequest(context(), { ...PUT, maxResponseBytes: 1000 })).status).toBe(200);
  });

  it('reads only the start of a huge error answer, keeps its status, and still retries a 503', async () => {
    handle = (_req, res) => {
      res.writeHead(503, { 'content-type': 'text/plain' });
      flood(res, 64 * 1024 * 1024);
    };
    const { err } = await failure(context({ retries: 1 }), PUT);
    expect(err).toMatchObject({ status: 503, code: 'HTTP_503', attempts: 2 });
    expect(err.serverMessage.length).toBeLessThanOrEqual(300);
    expect(written).toBeLessThan(32 * 1024 * 1024);
  });
});

describe("every wait ends within the call's deadline", () => {
  const tooMany = (headers: Record<string, string>) => (_req: IncomingMessage, res: ServerResponse) =>
    void res.writeHead(429, { 'content-type': 'application/json', ...headers }).end('{"error":{"code":"ERR_TOO_MANY_REQUESTS","message":"slow down"}}');

  it.each([
    ['Retry-After: 1000000000', { 'retry-after': '1000000000' }],
    ['Retry-After in the year 9999', { 'retry-after': 'Fri, 31 Dec 9999 23:59:59 GMT' }],
    ['X-Rate-Limit-Reset far away', { 'x-rate-limit-reset': '99999999999999' }],
    ['Retry-After: 3600', { 'retry-after': '3600' }],
  ])('a 429 asking for longer (%s) ends the call at once, and is final', async (_label, headers) => {
    handle = tooMany(headers);
    const { err, ms } = await failure(context({ deadlineMs: 300_000 }), PUT);
    expect(ms).toBeLessThan(1_000);
    expect(err).toMatchObject({ status: 429, code: 'ERR_TOO_MANY_REQUESTS', retryable: false, attempts: 1 });
    expect(err.serverMessage).toMatch(/^rate limited: the server asks to wait \d+ s, longer than the 300 s this call may still wait; try again later$/);
    expect(requests).toHaveLength(1);
  });

  it('calls queued behind that answer are not sent at all, nor any call made later', async () => {
    handle = (req, res) => void setTimeout(() => tooMany({ 'retry-after': '3600' })(req, res), 100);
    const ctx = context({ governor: new RateGovernor(1) });
    governors.push(ctx.governor);
    const [first, queued] = await Promise.all([failure(ctx, PUT), failure(ctx, { ...PUT, path: '/ai-agents/tools/y' })]);
    const later = await failure(ctx, { ...PUT, path: '/ai-agents/tools/z' });
    expect(first.err).toMatchObject({ status: 429, notSent: false });
    for (const { err, ms } of [queued, later]) {
      expect(err).toMatchObject({ status: 0, code: 'RATE_LIMITED', notSent: true, retryable: false });
      expect(err.serverMessage).toMatch(/^rate limited: the server asks to wait 360\d s, longer than the 10 s this call may still wait/);
      expect(ms).toBeLessThan(1_000);
    }
    expect(requests).toEqual(['PUT /v3/ai-agents/tools/x']);
  });

  it('honours a Retry-After that fits in the deadline', async () => {
    let calls = 0;
    handle = (req, res) => (++calls === 1 ? tooMany({ 'retry-after': '1' })(req, res) : void res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}'));
    const started = performance.now();
    expect((await sendRequest(context({ deadlineMs: 3_000 }), PUT)).attempts).toBe(2);
    expect(performance.now() - started).toBeGreaterThanOrEqual(1_000);
  });

  it('says so when a Retry-After does not fit in what is left', async () => {
    handle = tooMany({ 'retry-after': '2' });
    const { err, ms } = await failure(context({ deadlineMs: 1_000 }), PUT);
    expect(err.serverMessage).toBe('rate limited: the server asks to wait 2 s, longer than the 1 s this call may still wait; try again later');
    expect(ms).toBeLessThan(500);
  });

  it('cuts its own backoff short at the deadline', async () => {
    handle = (_req, res) => void res.writeHead(503).end();
    const { err, ms } = await failure(context({ deadlineMs: 600, retries: 100, backoff: { baseMs: 10_000, capMs: 60_000 } }), PUT);
    expect(err.status).toBe(503);
    expect(ms).toBeLessThan(1_500);
  });

  it('never warns about a timer too long for setTimeout', async () => {
    const warnings: string[] = [];
    const onWarning = (w: Error): number => warnings.push(w.name);
    process.on('warning', onWarning);
    try {
      handle = tooMany({ 'retry-after': '1000000000' });
      const ctx = context({ governor: new RateGovernor(1) });
      governors.push(ctx.governor);
      await Promise.all([failure(ctx, PUT), failure(ctx, PUT), failure(ctx, PUT)]);
      await new Promise((r) => setTimeout(r, 50));
    } finally {
      process.off('warning', onWarning);
    }
    expect(warnings).toEqual([]);
  });
});

describe('an unreachable server', () => {
  it('is named, and a refused loopback connection gets one quick retry only', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const { err, ms } = await failure(context({ retries: 5, backoff: { baseMs: 250, capMs: 300_000 } }, new URL(`http://127.0.0.1:${port}/v3`)), { method: 'POST', path: '/messages', body: {} });
    expect(err).toMatchObject({ code: 'ECONNREFUSED', notSent: true, attempts: 2 });
    expect(err.serverMessage).toBe(`could not connect to 127.0.0.1:${port} (connection refused)`);
    expect(ms).toBeLessThan(1_000);
  });
});

describe('a request the HTTP client refuses to send', () => {
  it('a header value with a line break is one attempt, not sent, named as such; never retried even as a GET', async () => {
    const { err, ms } = await failure(context({ retries: 5, backoff: { baseMs: 250, capMs: 300_000 } }), { ...GET, headers: { onBehalfOf: 'a\nb' } });
    expect(err).toMatchObject({ code: 'UND_ERR_INVALID_ARG', notSent: true, retryable: false, attempts: 1 });
    expect(err.serverMessage).toMatch(/^the request was not sent to 127\.0\.0\.1:\d+: invalid onBehalfOf header$/);
    expect(requests).toEqual([]);
    expect(ms).toBeLessThan(1_000);
  });
});
