// --prune's deletes against the real emulator: order, the pending mark, 404s and lost answers.
import { readFileSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { planChanges } from '../../src/core/diff.js';
import type { Plan } from '../../src/core/plan.js';
import { createApiClient } from '../../src/io/api/client.js';
import type { ApplyEvent, ApplyResult } from '../../src/core/apply-types.js';
import { executePlan } from '../../src/io/apply/executor.js';
import { loadDesired } from '../../src/io/manifest/load-manifest.js';
import { createDigester, createFileStateStore } from '../../src/io/state/index.js';
import { startTestEmulator, API_KEY, type TestEmulator } from '../support/emulator.js';

let emu: TestEmulator;
let dir: string;
beforeAll(async () => {
  emu = await startTestEmulator();
});
afterAll(() => emu.close());
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'agentsync-delete-'));
  await fetch(`${emu.origin}/__emulator/reset`, { method: 'POST' });
  await fetch(`${emu.origin}/__emulator/requests`, { method: 'DELETE' });
});
afterEach(() => rm(dir, { recursive: true, force: true }));

const tool = (name: string): string => `  ${name}:\n    displayName: ${name}\n    executionText: Working\n    description: Does ${name}\n    parameters: {}\n`;
const agent = (key: string, actions: string[]): string => `  ${key}:\n    name: ${key}\n    integrationType: llm\n    integrateWith: gpt-4o\n    actions: [${actions.join(', ')}]\n`;

function manifest(tools: string[], agents: [string, string[]][], websites = ''): string {
  return [
    'version: 1',
    'environments:',
    `  local: { appId: local, region: us, baseUrl: "${emu.url}" }`,
    tools.length > 0 ? 'tools:' : 'tools: {}',
    ...tools.map(tool),
    agents.length > 0 ? 'agents:' : 'agents: {}',
    ...agents.map(([key, actions]) => agent(key, actions)),
    websites,
  ].join('\n');
}

const statePath = (): string => join(dir, 'state.json');

async function apply(text: string, options: { prune?: boolean; retries?: number; onEvent?: (e: ApplyEvent) => void; check?: (plan: Plan) => void; stop?: AbortSignal } = {}): Promise<ApplyResult> {
  const file = join(dir, 'agents.yaml');
  await writeFile(file, text);
  const { desired } = await loadDesired({ file, env: {}, mode: 'plan' });
  const session = await createFileStateStore(statePath()).open({ environment: 'local', appId: 'local', region: 'us' });
  const client = createApiClient({ baseUrl: emu.url, apiKey: API_KEY, concurrency: 4, retries: options.retries ?? 3, backoff: { baseMs: 5, capMs: 20 } });
  try {
    const plan = planChanges({ desired, state: session.state, digest: createDigester(session.state.salt), scope: { prune: options.prune === true, targets: [] } });
    options.check?.(plan);
    return await executePlan({ plan, desired, session, client, concurrency: 4, ...(options.onEvent ? { onEvent: options.onEvent } : {}), ...(options.stop ? { stop: options.stop } : {}) });
  } finally {
    await client.close();
    await session.close();
  }
}

async function state(): Promise<{ resources: Record<string, unknown>; pending: Record<string, { action?: string }> }> {
  return JSON.parse(await readFile(statePath(), 'utf8')) as { resources: Record<string, unknown>; pending: Record<string, { action?: string }> };
}

const all = (): string =>
  manifest(
    ['t1', 't2', 't3'],
    [
      ['a1', ['t1']],
      ['a2', ['t2']],
      ['a3', ['t2', 't3']],
    ],
  );

describe('--prune deletes', () => {
  it('a stop (SIGINT) during the deletes starts no further DELETE: the apply is interrupted', async () => {
    await apply(all());
    await fetch(`${emu.origin}/__emulator/requests`, { method: 'DELETE' });
    const stop = new AbortController();
    const result = await apply(manifest(['t1', 't3'], [['a1', ['t1']]]), {
      prune: true,
      onEvent: (event) => {
        if (event.kind === 'start' && event.action === 'delete') stop.abort();
      },
      stop: stop.signal,
    });
    // The stop came as the first DELETE started (an agent's: agents go first): it is the only one sent.
    const deletes = (await emu.apiWrites()).filter((r) => r.method === 'DELETE').map((r) => r.path.split('/')[3]);
    expect(deletes).toEqual(['agents']);
    expect(result).toMatchObject({ ok: false, interrupted: true, counts: { deleted: 1 } });
    const notAttempted = result.notAttempted.map((item) => `${item.address}: ${item.reason}`).sort();
    expect(notAttempted).toEqual([expect.stringMatching(/^agent\.a[23]: the apply was interrupted$/), 'tool.t2: the apply was interrupted']);
  });

  it('a stop (SIGINT) during the creates and updates sends no DELETE: the deletes are reported as not attempted', async () => {
    await apply(all());
    await fetch(`${emu.origin}/__emulator/requests`, { method: 'DELETE' });
    const stop = new AbortController();
    const result = await apply(
      manifest(
        ['t1', 't3', 't4'],
        [
          ['a1', ['t1']],
          ['a3', ['t3']],
        ],
      ),
      {
        prune: true,
        onEvent: (event) => {
          if (event.kind === 'start' && event.action !== 'delete') stop.abort();
        },
        stop: stop.signal,
      },
    );
    const writes = (await emu.apiWrites()).map((r) => r.method);
    expect(writes).not.toContain('DELETE');
    expect(result).toMatchObject({ ok: false, interrupted: true });
    const deletes = result.notAttempted.filter((item) => item.action === 'delete').map((item) => `${item.address}: ${item.reason}`);
    expect(deletes.sort()).toEqual(['agent.a2: the apply was interrupted', 'tool.t2: the apply was interrupted']);
    expect((await state()).resources).toHaveProperty(['agent.a2']);
  });

  it('run after every create and update, agents before the tools they used, each journaled as pending before it is sent', async () => {
    await apply(all());
    await fetch(`${emu.origin}/__emulator/requests`, { method: 'DELETE' });
    const journalAtDone: string[] = [];
    const result = await apply(
      manifest(
        ['t1', 't3'],
        [
          ['a1', ['t1']],
          ['a3', ['t3']],
        ],
      ),
      {
        prune: true,
        onEvent: (event) => {
          if (event.kind === 'done' && event.action === 'delete') journalAtDone.push(readJournal());
        },
      },
    );
    expect(result).toMatchObject({ ok: true, prune: true, counts: { created: 0, updated: 1, deleted: 2, forgotten: 0 } });
    const writes = (await emu.apiWrites()).map((r) => `${r.method} ${r.path.replace(/[0-9a-f-]{36}/, '<uid>')}`);
    expect(writes).toEqual(['PATCH /v3/ai-agents/agents/<uid>', 'DELETE /v3/ai-agents/agents/<uid>', 'DELETE /v3/ai-agents/tools/t2']);
    // When a delete is reported done, its pending mark and then its removal are on disk, in that order.
    const lines = (journalAtDone.at(-1) ?? '')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { op: string; address: string; action?: string });
    const forT2 = lines.filter((l) => l.address === 'tool.t2').map((l) => `${l.op}${l.action ? `:${l.action}` : ''}`);
    expect(forT2).toEqual(['pending:delete', 'forgotten']);
    const after = await state();
    expect(Object.keys(after.resources).sort()).toEqual(['agent.a1', 'agent.a3', 'tool.t1', 'tool.t3']);
    expect(after.pending).toEqual({});
    const tools = await emu.get<{ name: string }[]>('/ai-agents/tools');
    expect(tools.map((t) => t.name).sort()).toEqual(['search_web', 't1', 't3']);
  });

  it('treat a 404 as already gone, and record it as done', async () => {
    await apply(all());
    await fetch(`${emu.url}/ai-agents/tools/t3`, { method: 'DELETE', headers: { apikey: API_KEY } }).catch(() => undefined);
    // a3 still names t3 on the server; it goes first anyway, so the order is what matters here.
    const result = await apply(
      manifest(
        ['t1', 't2'],
        [
          ['a1', ['t1']],
          ['a2', ['t2']],
        ],
      ),
      { prune: true },
    );
    expect(result.ok).toBe(true);
    expect(result.done.find((d) => d.address === 'tool.t3')).toMatchObject({ action: 'delete', gone: true, call: 'DELETE /ai-agents/tools/t3' });
    expect(Object.keys((await state()).resources)).not.toContain('tool.t3');
  });

  it('keep the pending mark when the answer was lost, and the next run sends the DELETE again', async () => {
    await apply(all());
    await emu.configure({ failNext: 10, failMode: 'drop' });
    const failed = await apply(
      manifest(
        ['t1', 't2', 't3'],
        [
          ['a1', ['t1']],
          ['a2', ['t2']],
        ],
      ),
      { prune: true, retries: 1 },
    );
    await emu.configure({ failNext: 0, failMode: 'mixed' });
    expect(failed.ok).toBe(false);
    expect(failed.failed[0]).toMatchObject({ address: 'agent.a3', action: 'delete', failure: { status: 0, maybeCreated: false } });
    expect((await state()).pending['agent.a3']).toMatchObject({ action: 'delete' });
    const retried = await apply(
      manifest(
        ['t1', 't2', 't3'],
        [
          ['a1', ['t1']],
          ['a2', ['t2']],
        ],
      ),
      {
        prune: true,
        check: (plan) => expect(plan.pending).toEqual([expect.objectContaining({ address: 'agent.a3', action: 'delete' })]),
      },
    );
    expect(retried).toMatchObject({ ok: true, counts: { deleted: 1 } });
    expect(await state()).toMatchObject({ pending: {} });
    expect(Object.keys((await state()).resources)).not.toContain('agent.a3');
  });

  it('forget a website (the API cannot delete one) without a call, and delete nothing that was never in the state', async () => {
    await apply(manifest(['t1'], [], 'knowledgeBase:\n  websites:\n    docs: { parentUniqueId: web_demo, exclude: [url_1] }'));
    await fetch(`${emu.origin}/__emulator/requests`, { method: 'DELETE' });
    const result = await apply(manifest([], []), { prune: true });
    expect(result.counts).toEqual({ created: 0, updated: 0, deleted: 1, forgotten: 1 });
    expect((await emu.apiWrites()).map((r) => `${r.method} ${r.path}`)).toEqual(['DELETE /v3/ai-agents/tools/t1']);
    // search_web was never in the state: it is still there.
    expect((await emu.get<{ name: string }[]>('/ai-agents/tools')).map((t) => t.name)).toEqual(['search_web']);
  });
});

/** The journal as it is at this moment (read synchronously inside an event). */
function readJournal(): string {
  return readFileSync(`${statePath()}.journal`, 'utf8');
}
