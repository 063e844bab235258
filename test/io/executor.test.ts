import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { AgentRecord } from '../../src/core/api-types.js';
import { planChanges } from '../../src/core/diff.js';
import { createApiClient } from '../../src/io/api/client.js';
import type { ApplyEvent, ApplyResult } from '../../src/core/apply-types.js';
import { notifyMuid } from '../../src/io/apply/execute-notify.js';
import { executePlan } from '../../src/io/apply/executor.js';
import { loadDesired } from '../../src/io/manifest/load-manifest.js';
import { createDigester, createFileStateStore } from '../../src/io/state/index.js';
import type { StateSession } from '../../src/io/state/store.js';
import type { ApiClient } from '../../src/io/api/client.js';
import { startTestEmulator, API_KEY, type TestEmulator } from '../support/emulator.js';

let emu: TestEmulator;
let dir: string;
beforeAll(async () => {
  emu = await startTestEmulator();
});
afterAll(() => emu.close());
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'agentsync-exec-'));
  await fetch(`${emu.origin}/__emulator/reset`, { method: 'POST' });
  await fetch(`${emu.origin}/__emulator/requests`, { method: 'DELETE' });
});
afterEach(() => rm(dir, { recursive: true, force: true }));

const tool = (name: string, description = 'Does a thing'): string => `  ${name}:\n    displayName: ${name}\n    executionText: Working\n    description: ${description}\n    parameters: {}\n`;

function manifest(parts: { tools: string; agents?: string; websites?: string; notify?: boolean }): string {
  return [
    'version: 1',
    'environments:',
    `  local: { appId: local, region: us, baseUrl: "${emu.url}" }`,
    'tools:',
    parts.tools,
    parts.agents ? `agents:\n${parts.agents}` : '',
    parts.websites ? `knowledgeBase:\n  websites:\n${parts.websites}` : '',
    parts.notify ? 'notify: { receiver: ops, receiverType: group, onBehalfOf: deploy-bot }' : '',
    'external: { tools: [search_web, not_on_server] }',
  ].join('\n');
}

/** What happened, in order: journal entries becoming durable (`durable op address`), calls leaving (`send METHOD path`), events. */
type Trace = string[];

/** The real session and client, with every durable record and every call noted in `trace`. */
function traced(session: StateSession, client: ApiClient, trace: Trace): { session: StateSession; client: ApiClient } {
  const addressOf = (entry: object): string => ('address' in entry ? String(entry.address) : '');
  return {
    session: {
      get state() {
        return session.state;
      },
      record: async (entry) => {
        await session.record(entry);
        trace.push(`durable ${entry.op} ${addressOf(entry)}`);
      },
      commit: () => session.commit(),
      close: () => session.close(),
    },
    client: {
      ...client,
      request: (request, options) => {
        const name = (request.body as { name?: unknown } | undefined)?.name;
        trace.push(`send ${request.method} ${request.path}${typeof name === 'string' ? ` ${name}` : ''}`);
        return client.request(request, options);
      },
    },
  };
}

async function apply(text: string, concurrency = 4, extra: { trace?: Trace; stop?: AbortSignal } = {}): Promise<{ result: ApplyResult; events: ApplyEvent[] }> {
  const file = join(dir, 'agents.yaml');
  await writeFile(file, text);
  const { desired } = await loadDesired({ file, env: {}, mode: 'plan' });
  const store = createFileStateStore(join(dir, 'state.json'));
  const session = await store.open({ environment: 'local', appId: 'local', region: 'us' });
  const client = createApiClient({ baseUrl: emu.url, apiKey: API_KEY, concurrency, backoff: { baseMs: 5, capMs: 50 } });
  const events: ApplyEvent[] = [];
  try {
    const plan = planChanges({ desired, state: session.state, digest: createDigester(session.state.salt) });
    const trace = extra.trace;
    const io = trace ? traced(session, client, trace) : { session, client };
    const onEvent = (e: ApplyEvent): void => {
      events.push(e);
      if (e.kind === 'done') trace?.push(`done ${e.address}`);
    };
    const result = await executePlan({ plan, desired, session: io.session, client: io.client, concurrency, onEvent, ...(extra.stop ? { stop: extra.stop } : {}) });
    return { result, events };
  } finally {
    await client.close();
    await session.close();
  }
}

async function stateResources(): Promise<Record<string, { remoteId: string }>> {
  return (JSON.parse(await readFile(join(dir, 'state.json'), 'utf8')) as { resources: Record<string, { remoteId: string }> }).resources;
}

const agent = (key: string, extra = ''): string => `  ${key}:\n    name: ${key}\n    integrationType: llm\n    integrateWith: gpt-4o\n    actions: [t1]\n${extra}`;

describe('executePlan', () => {
  it('creates tools before the agents that use them, and records every remote id', async () => {
    const { result } = await apply(manifest({ tools: tool('t1') + tool('t2') + tool('t3'), agents: agent('a1') + agent('a2'), websites: '    docs: { parentUniqueId: web_demo, exclude: [url_1] }' }));
    expect(result).toMatchObject({ ok: true, counts: { created: 6, updated: 0, deleted: 0, forgotten: 0 }, failed: [], notAttempted: [] });
    const log = await emu.apiRequests();
    const lastToolPut = Math.max(...log.filter((r) => r.path.startsWith('/v3/ai-agents/tools')).map((r) => r.seq));
    const firstAgentPost = Math.min(...log.filter((r) => r.path === '/v3/ai-agents/agents').map((r) => r.seq));
    expect(lastToolPut).toBeLessThan(firstAgentPost);
    const agents = await emu.get<AgentRecord[]>('/ai-agents/agents');
    const resources = await stateResources();
    expect(resources['tool.t1']?.remoteId).toBe('local_t1');
    expect(agents.map((a) => a.uid).sort()).toEqual([resources['agent.a1']?.remoteId, resources['agent.a2']?.remoteId].sort());
    expect(resources['website.docs']?.remoteId).toBeTruthy();
  });

  it('sends the full tool body on PUT, and only the removed field, as its empty value, in the agent PATCH', async () => {
    await apply(manifest({ tools: tool('t1'), agents: agent('a1', '    icon: https://example.com/i.png\n') }));
    await fetch(`${emu.origin}/__emulator/requests`, { method: 'DELETE' });
    const { result } = await apply(manifest({ tools: tool('t1', 'Changed'), agents: agent('a1') }));
    expect(result.counts).toEqual({ created: 0, updated: 2, deleted: 0, forgotten: 0 });
    const log = await emu.apiRequests();
    expect(log.map((r) => r.method)).toEqual(['PUT', 'PATCH']);
    expect(log[0]?.body).toEqual({ name: 't1', displayName: 't1', executionText: 'Working', description: 'Changed', doNotExecute: false, parameters: { type: 'object', properties: {} } });
    expect(log[1]?.body).toEqual({ icon: '' });
  });

  it('forgets without a call', async () => {
    await apply(manifest({ tools: tool('t1') + tool('t2') }));
    await fetch(`${emu.origin}/__emulator/requests`, { method: 'DELETE' });
    const { result } = await apply(manifest({ tools: tool('t1') }));
    expect(result.counts).toEqual({ created: 0, updated: 0, deleted: 0, forgotten: 1 });
    expect(result.done[0]).toMatchObject({ address: 'tool.t2', action: 'forget', remoteId: 'local_t2' });
    expect(await emu.apiRequests()).toEqual([]);
    expect(Object.keys(await stateResources())).toEqual(['tool.t1']);
  });

  it('after a 400 still applies what does not need it, keeps what succeeded, and clears the pending create', async () => {
    const bad = '  bad:\n    name: bad\n    integrationType: llm\n    integrateWith: gpt-4o\n    tools: [not_on_server]\n';
    const { result } = await apply(manifest({ tools: tool('t1'), agents: bad + agent('z1') + agent('z2') }), 1);
    expect(result.ok).toBe(false);
    expect(result.done.map((d) => d.address).sort()).toEqual(['agent.z1', 'agent.z2', 'tool.t1']);
    expect(result.failed).toHaveLength(1);
    expect(result.failed[0]).toMatchObject({ address: 'agent.bad', failure: { call: 'POST /ai-agents/agents', status: 400, code: 'HTTP_400', maybeCreated: false } });
    expect(result.failed[0]?.failure.message).toContain('not_on_server');
    expect(result.notAttempted).toEqual([]);
    const state = JSON.parse(await readFile(join(dir, 'state.json'), 'utf8')) as { resources: object; pending: object };
    expect(Object.keys(state.resources).sort()).toEqual(['agent.z1', 'agent.z2', 'tool.t1']);
    expect(state.pending).toEqual({});
  });

  it('fails only the website whose call failed: unrelated tools and agents are applied and recorded', async () => {
    const websites = '    docs: { parentUniqueId: web_demo, exclude: [url_1] }\n    gone: { parentUniqueId: no_such_website, exclude: [] }\n';
    const { result } = await apply(manifest({ tools: tool('t1'), agents: agent('w1'), websites }), 1);
    expect(result.ok).toBe(false);
    expect(result.failed.map((f) => f.address)).toEqual(['website.gone']);
    expect(result.failed[0]?.failure.status).toBe(404);
    expect(result.done.map((d) => d.address).sort()).toEqual(['agent.w1', 'tool.t1', 'website.docs']);
    expect(result.notAttempted).toEqual([]);
    expect(Object.keys(await stateResources()).sort()).toEqual(['agent.w1', 'tool.t1', 'website.docs']);
  });

  it('keeps a create pending when its connection dropped after sending', async () => {
    await apply(manifest({ tools: tool('t1') }));
    await emu.configure({ failNext: 1, failMode: 'drop' });
    const { result } = await apply(manifest({ tools: tool('t1'), agents: agent('a1') }));
    await emu.configure({ failNext: 0, failMode: 'mixed' });
    expect(result.failed[0]).toMatchObject({ address: 'agent.a1', failure: { status: 0, maybeCreated: true } });
    const state = JSON.parse(await readFile(join(dir, 'state.json'), 'utf8')) as { pending: Record<string, unknown> };
    expect(Object.keys(state.pending)).toEqual(['agent.a1']);
  });

  it('sends one notify message last, with onBehalfOf and a muid that is the same for the same apply', async () => {
    const text = manifest({ tools: tool('t1'), agents: agent('a1'), notify: true });
    const { result } = await apply(text);
    expect(result.notify).toMatchObject({ status: 'sent' });
    const log = await emu.apiRequests();
    const message = log.at(-1);
    expect(message).toMatchObject({ method: 'POST', path: '/v3/messages', onBehalfOf: 'deploy-bot' });
    expect(message?.body).toMatchObject({ receiver: 'ops', receiverType: 'group', category: 'message', type: 'text' });
    const body = message?.body as { muid: string; data: { text: string } };
    expect(body.data.text).toBe('agentsync applied to local: 2 created, 0 updated, 0 forgotten.\n+ agent.a1\n+ tool.t1');
    // Same plan from the same starting state → the same muid.
    await rm(join(dir, 'state.json'));
    await fetch(`${emu.origin}/__emulator/reset`, { method: 'POST' });
    const again = await apply(text);
    expect(again.result.notify.status).toBe('sent');
    // A new state has a new lineage, hence a new muid; the same lineage+serial+plan repeats it.
    const muidOf = (n: ApplyResult['notify']): string => (n.status === 'skipped' ? '' : n.muid);
    expect(muidOf(again.result.notify)).not.toBe(muidOf(result.notify));
    expect(notifyMuid('l', 3, 'plan')).toBe(notifyMuid('l', 3, 'plan'));
    expect(notifyMuid('l', 4, 'plan')).not.toBe(notifyMuid('l', 3, 'plan'));
    // A no-change apply sends nothing.
    const quiet = await apply(text);
    expect(quiet.result.notify).toEqual({ status: 'skipped', reason: 'nothing-changed' });
  });

  it('reports start, retry and done events', async () => {
    await emu.configure({ failNext: 1, failMode: '503' });
    const { events } = await apply(manifest({ tools: tool('t1') }), 1);
    expect(events.map((e) => e.kind)).toEqual(['start', 'retry', 'done']);
    expect(events[2]).toMatchObject({ address: 'tool.t1', action: 'create', retries: 1 });
  });

  it('marks tool creates pending ahead of their calls, reports each success only once durable, and starts agents only after', async () => {
    const trace: Trace = [];
    const tools = Array.from({ length: 12 }, (_, i) => tool(`t${i + 1}`)).join('');
    const { result } = await apply(manifest({ tools, agents: agent('a1') }), 3, { trace });
    expect(result.ok).toBe(true);
    const at = (line: string): number => {
      const index = trace.indexOf(line);
      expect(index, `${line} in the trace`).toBeGreaterThanOrEqual(0);
      return index;
    };
    for (let i = 1; i <= 12; i++) {
      const name = `t${i}`;
      // Its pending mark is durable before any call for the tool leaves (a PUT first, or straight a POST).
      const firstSend = trace.findIndex((line) => line.startsWith('send ') && line.endsWith(` ${name}`));
      expect(firstSend).toBeGreaterThan(at(`durable pending tool.${name}`));
      expect(at(`done tool.${name}`)).toBeGreaterThan(at(`durable applied tool.${name}`));
    }
    const agentPost = at('send POST /ai-agents/agents a1');
    for (let i = 1; i <= 12; i++) expect(at(`durable applied tool.t${i}`)).toBeLessThan(agentPost);
    const state = JSON.parse(await readFile(join(dir, 'state.json'), 'utf8')) as { resources: object; pending: object };
    expect(Object.keys(state.resources)).toHaveLength(13);
    expect(state.pending).toEqual({});
  });

  it('clears the pending marks of tool creates that never started when the run is stopped', async () => {
    const stop = new AbortController();
    const trace: Trace = [];
    const tools = Array.from({ length: 12 }, (_, i) => tool(`t${i + 1}`)).join('');
    const file = join(dir, 'agents.yaml');
    await writeFile(file, manifest({ tools }));
    const { desired } = await loadDesired({ file, env: {}, mode: 'plan' });
    const session = await createFileStateStore(join(dir, 'state.json')).open({ environment: 'local', appId: 'local', region: 'us' });
    const client = createApiClient({ baseUrl: emu.url, apiKey: API_KEY, concurrency: 2 });
    try {
      const plan = planChanges({ desired, state: session.state, digest: createDigester(session.state.salt) });
      const io = traced(session, client, trace);
      const result = await executePlan({ plan, desired, session: io.session, client: io.client, concurrency: 2, stop: stop.signal, onEvent: (e) => e.kind === 'start' && stop.abort() });
      // Stopped as the first call leaves: the calls in flight finish, the other ten never start.
      expect(result.interrupted).toBe(true);
      expect(result.notAttempted.length).toBeGreaterThanOrEqual(10);
      // Some marks were written ahead for creates that never started, and were cleared again.
      expect(trace.filter((line) => line.startsWith('durable pending-cleared')).length).toBeGreaterThan(0);
    } finally {
      await client.close();
      await session.close();
    }
    const state = JSON.parse(await readFile(join(dir, 'state.json'), 'utf8')) as { resources: object; pending: object };
    expect(state.pending).toEqual({});
    expect(Object.keys(state.resources).length).toBeGreaterThan(0);
  });
});
