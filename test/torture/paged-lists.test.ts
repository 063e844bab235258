// Issue 20, "a paged list read as complete": a server that answers its agent list in pages
// (`{data: [...], meta: {next: {cursor, affix}}}`) must have every page read; when the answer says
// there is more and the rest cannot be read, absence is not proven
// (docs/spec/server.md#absence-must-be-proven): warn, and plan no re-create. The pages come from a
// real HTTP proxy in front of a real emulator.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { writeFileSync } from 'node:fs';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { assertBuilt, runCli } from '../support/cli.js';
import { startTestEmulator, type TestEmulator } from '../support/emulator.js';
import { makeWorkspace, STACK_TRACE, type Workspace } from './helpers.js';

type PageMode = 'pages' | 'page-2-fails' | 'pages-forever' | 'same-cursor';

/** Serves the emulator's agent list one agent per page, misbehaving as `mode` says; everything else passes through. */
async function pagingProxy(emulator: TestEmulator, mode: () => PageMode): Promise<{ url: string; close(): Promise<void>; pagesServed(): number }> {
  let served = 0;
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://proxy');
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      void (async () => {
        const upstream = await fetch(`${emulator.origin}${url.pathname}${url.search}`, {
          method: req.method ?? 'GET',
          headers: { apikey: String(req.headers.apikey ?? ''), 'content-type': 'application/json' },
          ...(chunks.length > 0 ? { body: Buffer.concat(chunks) } : {}),
        });
        const text = await upstream.text();
        if (req.method !== 'GET' || url.pathname !== '/v3/ai-agents/agents') {
          res.writeHead(upstream.status, { 'content-type': 'application/json' }).end(text);
          return;
        }
        served++;
        const all = JSON.parse(text) as unknown[];
        const index = Number(url.searchParams.get('cursor') ?? 0);
        if (mode() === 'page-2-fails' && index >= 1) {
          res.writeHead(400, { 'content-type': 'application/json' }).end(JSON.stringify({ statusCode: 400, message: 'cursor expired', error: 'Bad Request' }));
          return;
        }
        const forever = mode() === 'pages-forever';
        const data = forever ? (index === 0 ? all : []) : all.slice(index, index + 1);
        const more = forever || index + 1 < all.length;
        const cursor = mode() === 'same-cursor' ? 1 : index + 1;
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ data, meta: { previous: {}, next: more ? { cursor, affix: 'append' } : {} } }));
      })().catch((err: unknown) => res.writeHead(502).end(String(err)));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/v3`, close: () => new Promise((resolve) => server.close(() => resolve())), pagesServed: () => served };
}

const MANIFEST = `version: 1
environments:
  local: { appId: local, region: us }
tools:
  t: { displayName: T, executionText: x, description: Does t, parameters: {} }
agents:
  a: { name: Alpha, integrationType: llm, integrateWith: gpt-4o, actions: [t] }
  b: { name: Beta, integrationType: llm, integrateWith: gpt-4o, actions: [t] }
  c: { name: Gamma, integrationType: llm, integrateWith: gpt-4o, actions: [t] }
`;

describe('a server that pages its agent list', () => {
  let emulator: TestEmulator;
  let proxy: Awaited<ReturnType<typeof pagingProxy>>;
  let mode: PageMode = 'pages';
  let ws: Workspace;
  const cli = (args: string[]) => runCli(args, { cwd: ws.dir, env: { ...emulator.env, AGENTSYNC_BASE_URL: proxy.url } });

  beforeAll(async () => {
    assertBuilt();
    emulator = await startTestEmulator();
    proxy = await pagingProxy(emulator, () => mode);
    ws = makeWorkspace();
    writeFileSync(ws.path('agents.yaml'), MANIFEST);
    mode = 'pages';
    const applied = await cli(['apply', '--auto-approve']);
    expect(applied.code, applied.stderr).toBe(0);
  });
  afterAll(async () => {
    await proxy.close();
    await emulator.close();
    ws.remove();
  });
  afterEach(() => {
    mode = 'pages';
  });

  it('reads every page: agents on page 2 and 3 are not "deleted on the server", and nothing is re-created', async () => {
    const plan = await cli(['plan', '--detailed-exitcode']);
    expect(plan.stdout).not.toContain('deleted on the server');
    expect(plan.stdout.trimEnd().split('\n').at(-1)).toBe('No changes. Environment "local" matches the manifest.');
    expect(plan.code).toBe(0);
    const agents = await emulator.get<{ name: string }[]>('/ai-agents/agents');
    expect(agents.map((a) => a.name).sort()).toEqual(['Alpha', 'Beta', 'Gamma']);
  });

  it.each([
    ['page-2-fails' as const, /page 2 could not be read/],
    ['same-cursor' as const, /gave the same cursor twice/],
    ['pages-forever' as const, /has more than 1000 pages/],
  ])('%s: warns that absence is not proven, and plans no re-create', async (how, reason) => {
    mode = how;
    const plan = await cli(['plan', '--detailed-exitcode']);
    expect(plan.stderr + plan.stdout).toMatch(reason);
    expect(plan.stdout + plan.stderr).toContain('nothing missing from it is planned as deleted on the server');
    expect(plan.stdout).not.toContain('deleted on the server)');
    expect(plan.stdout).not.toMatch(/\+ agent\./);
    expect(plan.stderr).not.toMatch(STACK_TRACE);
    expect(plan.code).toBe(0);
    const apply = await cli(['apply', '--auto-approve']);
    expect(apply.code, apply.stderr).toBe(0);
    expect((await emulator.get<unknown[]>('/ai-agents/agents')).length).toBe(3);
  });

  it('export refuses a list it could not read whole, in one line', async () => {
    mode = 'page-2-fails';
    const exported = await cli(['export']);
    expect(exported.code).toBe(1);
    expect(exported.stdout).toBe('');
    expect(exported.stderr.trim().split('\n')).toHaveLength(1);
    expect(exported.stderr).toMatch(/^Error: cannot export: the server's list of agents page 2 could not be read/);
  });
});
