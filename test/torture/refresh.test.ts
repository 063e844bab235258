// Refresh against hostile answers (issue "Meet the real server": malformed, huge or slow lists give
// one clear line and lose nothing) and the duplicate that a failed lookup used to cause (issue
// "Hardening" item 1). A proxy in front of the emulator rewrites the list answers; everything else
// reaches the real emulator.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readFileSync, writeFileSync } from 'node:fs';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { runCli } from '../support/cli.js';
import { API_KEY, startTestEmulator, type TestEmulator } from '../support/emulator.js';
import { makeWorkspace, STACK_TRACE, type Workspace } from './helpers.js';

type Override = (req: IncomingMessage, res: ServerResponse) => boolean;

let emulator: TestEmulator;
let proxy: Server;
let proxyUrl: string;
let override: Override = () => false;
let ws: Workspace;

beforeAll(async () => {
  emulator = await startTestEmulator();
  proxy = createServer((req, res) => {
    if (override(req, res)) return;
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = chunks.length > 0 ? Buffer.concat(chunks) : undefined;
      const headers = Object.fromEntries(Object.entries(req.headers).filter(([k]) => !['host', 'connection', 'content-length'].includes(k))) as Record<string, string>;
      void fetch(`${emulator.origin}${req.url ?? ''}`, { method: req.method ?? 'GET', headers, ...(body ? { body } : {}) }).then(async (answer) => {
        res.writeHead(answer.status, { 'content-type': answer.headers.get('content-type') ?? 'application/json' });
        res.end(Buffer.from(await answer.arrayBuffer()));
      });
    });
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  proxyUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}/v3`;
});
afterAll(async () => {
  proxy.closeAllConnections();
  await new Promise<void>((resolve) => proxy.close(() => resolve()));
  await emulator.close();
});
beforeEach(async () => {
  override = () => false;
  await emulator.reset();
  ws = makeWorkspace('agentsync-refresh-');
  writeFileSync(
    ws.path('agents.yaml'),
    [
      'version: 1',
      'environments:',
      '  local: { appId: local, region: us }',
      'tools:',
      '  t1: { displayName: t1, executionText: Working, description: d, parameters: {} }',
      'agents:',
      '  a1: { name: Agent one, integrationType: llm, integrateWith: gpt-4o, actions: [t1] }',
      '',
    ].join('\n'),
  );
});
afterEach(() => ws.remove());

const env = () => ({ COMETCHAT_API_KEY: API_KEY, AGENTSYNC_BASE_URL: proxyUrl });
const cli = (...args: string[]) => runCli(args, { cwd: ws.dir, env: env(), timeoutMs: 60_000 });
const writes = async () => (await emulator.requests()).filter((r) => r.method !== 'GET');
const onList =
  (path: string, answer: (res: ServerResponse) => void): Override =>
  (req, res) => {
    if (req.method !== 'GET' || !req.url?.endsWith(path)) return false;
    answer(res);
    return true;
  };

function expectOneCleanLine(result: { code: number | null; stderr: string }, pattern: RegExp): void {
  expect(result.code).toBe(1);
  expect(result.stderr).toMatch(pattern);
  expect(result.stderr.trim().split('\n')).toHaveLength(1);
  expect(result.stderr).not.toMatch(STACK_TRACE);
}

describe('refresh against hostile list answers', () => {
  beforeEach(async () => {
    expect((await cli('apply', '--auto-approve')).code).toBe(0);
    await emulator.clearRequests();
  });

  it.each([
    ['an object instead of a list', '{"tools": "none"}', /could not read the server's tools: GET \/ai-agents\/tools did not answer a list/],
    ['a list with a non-object entry', '[1, 2, 3]', /could not read the server's tools: .*entry that is not an object/],
    ['text that is not JSON', '<html>oops</html>', /the answer is not JSON|not JSON/],
  ])('%s: plan and apply stop with one line, send nothing and keep the state', async (_what, body, pattern) => {
    override = onList('/ai-agents/tools', (res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(body);
    });
    const state = readFileSync(ws.path('.agentsync', 'local.state.json'), 'utf8');
    expectOneCleanLine(await cli('plan'), pattern);
    expectOneCleanLine(await cli('apply', '--auto-approve'), pattern);
    expect(await writes()).toEqual([]);
    expect(readFileSync(ws.path('.agentsync', 'local.state.json'), 'utf8')).toBe(state);
  });

  it('a list that never ends is cut at the cap, not retried, and nothing is sent', async () => {
    let served = 0;
    override = onList('/ai-agents/agents', (res) => {
      served++;
      res.writeHead(200, { 'content-type': 'application/json' });
      const chunk = Buffer.alloc(1 << 20, 0x20);
      res.write('[');
      const pump = (): void => {
        while (res.write(chunk)) if (res.destroyed) return;
        if (!res.destroyed) res.once('drain', pump);
      };
      res.on('close', () => res.destroy());
      pump();
    });
    const result = await cli('apply', '--auto-approve');
    expectOneCleanLine(result, /could not read the server's agents: .*(RESPONSE_TOO_LARGE|larger than)/);
    expect(served).toBe(1);
    expect(await writes()).toEqual([]);
  });

  it('a list that trickles past --timeout stops the apply with a timeout, and nothing is sent', async () => {
    override = onList('/ai-agents/agents', (res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('[');
      const timer = setInterval(() => (res.destroyed ? clearInterval(timer) : res.write(' ')), 200);
      res.on('close', () => clearInterval(timer));
    });
    const started = Date.now();
    const result = await cli('apply', '--auto-approve', '--timeout', '2', '--retries', '0');
    expectOneCleanLine(result, /could not read the server's agents: .*TIMEOUT/);
    expect(Date.now() - started).toBeLessThan(20_000);
    expect(await writes()).toEqual([]);
  });
});

describe('a create whose answer was lost, then a server that cannot be listed (issue 10 item 1)', () => {
  /** Run 1 as the red team saw it: the agent is stored, the answer never arrives, a pending mark stays. */
  async function loseTheCreate(): Promise<void> {
    override = (req, res) => {
      if (req.method !== 'POST' || !req.url?.endsWith('/ai-agents/agents')) return false;
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        void fetch(`${emulator.url}/ai-agents/agents`, { method: 'POST', headers: { apikey: API_KEY, 'content-type': 'application/json' }, body: Buffer.concat(chunks) }).then(() => res.destroy());
      });
      return true;
    };
    const first = await cli('apply', '--auto-approve', '--retries', '0');
    expect(first.code).toBe(1);
    const state = JSON.parse(readFileSync(ws.path('.agentsync', 'local.state.json'), 'utf8')) as { pending: Record<string, unknown> };
    expect(Object.keys(state.pending)).toEqual(['agent.a1']);
    expect(await emulator.get<unknown[]>('/ai-agents/agents')).toHaveLength(1);
  }
  const listFails = onList('/ai-agents/agents', (res) => {
    res.writeHead(503, { 'content-type': 'application/json' });
    res.end('{"statusCode":503,"message":"down","error":"Service Unavailable"}');
  });

  it('apply reads the server first: a 503 there stops it before any POST, and the pending mark stays', async () => {
    await loseTheCreate();
    await emulator.clearRequests();
    override = listFails;
    const second = await cli('apply', '--auto-approve', '--retries', '1');
    expectOneCleanLine(second, /could not read the server's agents: GET \/ai-agents\/agents answered 503/);
    expect(await writes()).toEqual([]);
    expect(await emulator.get<unknown[]>('/ai-agents/agents')).toHaveLength(1);
    const state = JSON.parse(readFileSync(ws.path('.agentsync', 'local.state.json'), 'utf8')) as { pending: Record<string, unknown> };
    expect(Object.keys(state.pending)).toEqual(['agent.a1']);
    // Once the server answers, the agent the lost create made is adopted, not duplicated.
    override = () => false;
    const third = await cli('apply', '--auto-approve');
    expect(third.code).toBe(0);
    expect(third.stdout).toMatch(/Adopted agent\.a1/);
    expect(await emulator.get<unknown[]>('/ai-agents/agents')).toHaveLength(1);
  });

  it('a saved offline plan does not read the server first: its lookup fails, nothing is POSTed, the pending mark stays', async () => {
    await loseTheCreate();
    expect((await cli('plan', '--offline', '--out', 'plan.json')).code).toBe(0);
    await emulator.clearRequests();
    override = listFails;
    const second = await cli('apply', '--auto-approve', '--retries', '1', 'plan.json');
    expect(second.code).toBe(1);
    expect(second.stdout).toMatch(/agent\.a1: .*could not be read to check whether it exists.*nothing was sent, so no duplicate was made/);
    expect(second.stderr).not.toMatch(STACK_TRACE);
    expect(await writes()).toEqual([]);
    expect(await emulator.get<unknown[]>('/ai-agents/agents')).toHaveLength(1);
    const state = JSON.parse(readFileSync(ws.path('.agentsync', 'local.state.json'), 'utf8')) as { pending: Record<string, unknown> };
    expect(Object.keys(state.pending)).toEqual(['agent.a1']);
  });
});
