// Hostile servers: the built CLI against small node:http servers on port 0 that answer with terminal
// escapes, absurd wait hints, a body trickled byte by byte, answers far too large, or nothing at
// all. Each case must end quickly with one clear line, exit 1, and never hang, retry what cannot
// succeed, or let the server drive the terminal.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertBuilt, runCli, type CliResult } from '../support/cli.js';
import { API_KEY } from '../support/emulator.js';
import { makeWorkspace, STACK_TRACE, type Workspace } from './helpers.js';

let ws: Workspace;
let projects = 0;

beforeAll(() => {
  assertBuilt();
  ws = makeWorkspace('agentsync-net-');
});

afterAll(() => ws?.remove());

interface HostileServer {
  url: string;
  port: number;
  /** `METHOD /path` of every request, in arrival order. */
  requests: string[];
  /** Body bytes the server managed to write, per request, in arrival order. */
  written: number[];
  close(): Promise<void>;
}

type Handler = (req: IncomingMessage, res: ServerResponse, count: (bytes: number) => void) => void;

/** A server that answers every list (GET) with `[]`, and everything else with `handler`. */
async function hostileServer(handler: Handler, options: { listsToo?: boolean } = {}): Promise<HostileServer> {
  const requests: string[] = [];
  const written: number[] = [];
  const sockets = new Set<Socket>();
  const server: Server = createServer((req, res) => {
    requests.push(`${req.method ?? '?'} ${req.url ?? '?'}`);
    const index = written.push(0) - 1;
    const count = (bytes: number): void => void (written[index] = (written[index] ?? 0) + bytes);
    req.resume();
    req.on('end', () => {
      if (req.method === 'GET' && options.listsToo !== true) res.writeHead(200, { 'content-type': 'application/json' }).end('[]');
      else handler(req, res, count);
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}/v3`,
    port,
    requests,
    written,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

/** A manifest with `tools` executing tools and nothing else: apply sends one PUT per tool. */
function project(tools = 1): string[] {
  const dir = ws.path(`p${++projects}`);
  mkdirSync(dir);
  const entries = Array.from({ length: tools }, (_, i) => `  probe_${i}:\n    displayName: Probe ${i}\n    executionText: Probing\n    description: Probes\n    parameters: {}\n`);
  const manifest = join(dir, 'agents.yaml');
  writeFileSync(manifest, `version: 1\nenvironments:\n  local:\n    appId: local\n    region: us\ntools:\n${entries.join('')}`);
  return ['-f', manifest, '--state', join(dir, 'state.json')];
}

interface TimedResult extends CliResult {
  ms: number;
  output: string;
}

async function apply(server: { url: string }, extra: string[] = [], tools = 1, timeoutMs = 25_000): Promise<TimedResult> {
  const started = performance.now();
  const result = await runCli(['apply', '--auto-approve', ...project(tools), ...extra], {
    env: { COMETCHAT_API_KEY: API_KEY, AGENTSYNC_BASE_URL: server.url },
    timeoutMs,
  });
  return { ...result, ms: performance.now() - started, output: result.stdout + result.stderr };
}

/** What every failure here must look like: exit 1, no stack, no key, no warning from Node. */
function expectCleanFailure(result: TimedResult): void {
  expect(result.signal, `killed after ${Math.round(result.ms)} ms:\n${result.output}`).toBeNull();
  expect(result.code, result.output).toBe(1);
  expect(result.output).not.toMatch(STACK_TRACE);
  expect(result.output).not.toContain(API_KEY);
  expect(result.output).not.toContain('TimeoutOverflowWarning');
}

const json = (res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void =>
  void res.writeHead(status, { 'content-type': 'application/json', ...headers }).end(JSON.stringify(body));

/** Raw bytes that would clear the screen, set the window title, ring the bell or start an 8-bit CSI. */
const ESCAPES = '\x1b[2J\x1b]0;pwned\x07\x9b31m\x7f\rX';

describe('a server cannot drive the terminal', () => {
  const bodies: Array<[string, unknown]> = [
    ['the AI-agent envelope', { statusCode: 400, message: `bad name ${ESCAPES}`, error: 'Bad Request' }],
    ['the AI-agent envelope with a message list', { statusCode: 400, message: ['first', `second ${ESCAPES}`], error: 'Bad Request' }],
    ['the Chat API envelope (code too)', { error: { code: `ERR_${ESCAPES}`, message: `bad ${ESCAPES}`, devMessage: 'dev', source: 'x' } }],
  ];
  it.each(bodies)('escapes control characters in %s', async (_label, body) => {
    const server = await hostileServer((_req, res) => json(res, 400, body));
    try {
      const result = await apply(server);
      expectCleanFailure(result);
      // eslint-disable-next-line no-control-regex
      expect(result.output).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/);
      expect(result.output).toContain('\\u001b[2J\\u001b]0;pwned\\u0007\\u009b31m\\u007f');
    } finally {
      await server.close();
    }
  });
});

describe('absurd wait hints end the call at once, with a clear reason', () => {
  const hints: Array<[string, Record<string, string>]> = [
    ['Retry-After: 1000000000', { 'retry-after': '1000000000' }],
    ['Retry-After: an HTTP date in 9999', { 'retry-after': 'Fri, 31 Dec 9999 23:59:59 GMT' }],
    ['X-Rate-Limit-Reset: 99999999999999', { 'x-rate-limit-reset': '99999999999999', 'x-rate-limit': '10', 'x-rate-limit-remaining': '0' }],
    ['Retry-After: 3600, with calls queued behind it', { 'retry-after': '3600' }],
  ];
  it.each(hints)('%s', async (_label, headers) => {
    // The first call is told to wait; the calls in flight beside it get a 503 a moment later, so
    // their retries queue behind the wait the server asked for.
    let answered = 0;
    const server = await hostileServer((_req, res) => {
      if (++answered === 1) return json(res, 429, { error: { code: 'ERR_TOO_MANY_REQUESTS', message: 'slow down' } }, headers);
      setTimeout(() => json(res, 503, { error: { code: 'ERR_SERVICE_UNAVAILABLE', message: 'busy' } }), 150);
    });
    try {
      const result = await apply(server, ['--concurrency', '3'], 3);
      expectCleanFailure(result);
      expect(result.ms).toBeLessThan(10_000);
      expect(result.output).toMatch(/rate limited: the server asks to wait \d+ s, longer than the \d+ s this call may still wait; try again later/);
      // The call told to wait is not repeated.
      const first = server.requests.find((r) => r.startsWith('PUT '));
      expect(server.requests.filter((r) => r === first)).toHaveLength(1);
    } finally {
      await server.close();
    }
  });
});

describe('a response has to arrive whole within --timeout', () => {
  it('gives up on a body trickled one byte at a time', async () => {
    const server = await hostileServer((_req, res, count) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': '100000' });
      res.write('{');
      const timer = setInterval(() => {
        res.write(' ');
        count(1);
      }, 200);
      res.on('close', () => clearInterval(timer));
    });
    try {
      const result = await apply(server, ['--timeout', '2', '--retries', '0']);
      expectCleanFailure(result);
      expect(result.ms).toBeLessThan(8_000);
      expect(result.output).toMatch(/TIMEOUT/);
      expect(result.output).toMatch(/within 2 s/);
      expect(result.output).toContain(`127.0.0.1:${server.port}`);
    } finally {
      await server.close();
    }
  });
});

describe('an answer too large is refused early and never retried', () => {
  /** Streams filler as fast as the client reads it, up to `limit` bytes, then holds the connection. */
  function flood(res: ServerResponse, count: (bytes: number) => void, limit: number): void {
    const chunk = Buffer.alloc(64 * 1024, 0x20);
    let sent = 0;
    let open = true;
    res.on('close', () => (open = false));
    const pump = (): void => {
      while (open && sent < limit) {
        sent += chunk.length;
        count(chunk.length);
        if (!res.write(chunk)) return void res.once('drain', pump);
      }
    };
    res.write('{"_id":"x","pad":"');
    pump();
  }

  it('refuses a declared Content-Length over the cap before reading the body', async () => {
    const server = await hostileServer((_req, res, count) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(700 * 1024 * 1024) });
      flood(res, count, 64 * 1024 * 1024);
    });
    try {
      const result = await apply(server, ['--timeout', '5']);
      expectCleanFailure(result);
      expect(result.output).toMatch(/RESPONSE_TOO_LARGE/);
      expect(result.output).toMatch(/1 MB/);
      expect(server.requests.filter((r) => r.startsWith('PUT '))).toHaveLength(1);
      expect(server.written.reduce((a, b) => a + b, 0)).toBeLessThan(16 * 1024 * 1024);
    } finally {
      await server.close();
    }
  });

  it('stops reading a chunked answer as soon as it passes the cap', async () => {
    const server = await hostileServer((_req, res, count) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      flood(res, count, 64 * 1024 * 1024);
    });
    try {
      const result = await apply(server, ['--timeout', '5']);
      expectCleanFailure(result);
      expect(result.output).toMatch(/RESPONSE_TOO_LARGE/);
      expect(server.requests.filter((r) => r.startsWith('PUT '))).toHaveLength(1);
      expect(server.written.reduce((a, b) => a + b, 0)).toBeLessThan(16 * 1024 * 1024);
    } finally {
      await server.close();
    }
  });
});

describe('an unreachable server', () => {
  it('is named, host and port, and a refused loopback connection is retried at most once, quickly', async () => {
    const probe = createServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    const port = (probe.address() as AddressInfo).port;
    await new Promise<void>((resolve) => probe.close(() => resolve()));
    const result = await apply({ url: `http://127.0.0.1:${port}/v3` });
    expectCleanFailure(result);
    expect(result.output).toContain(`could not connect to 127.0.0.1:${port} (connection refused)`);
    expect(result.output).not.toMatch(/after [3-9] attempts/);
    expect(result.ms).toBeLessThan(3_000);
  });
});
