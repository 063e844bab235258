// Issue 31, the websites' share (items 1, 2, 11, 12, 15, 24): a lost scrape answer, a re-crawl cut
// short, a failed website step among unrelated work, a website that cannot be read, a `moved:`
// rename and an interrupted create. Each runs the built CLI against the emulator on port 0, with
// its fault knobs; every summary is checked against the emulator's request log.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { RequestLogEntry } from '../../src/emulator/index.js';
import { assertBuilt, runCli, type CliResult } from '../support/cli.js';
import { startTestEmulator, type TestEmulator } from '../support/emulator.js';
import { makeWorkspace, STACK_TRACE, type Workspace } from './helpers.js';

const SCRAPE = '/v3/ai-agents/agent-builder/knowledge-base/website/scrape';
const DEMO = 'https://docs.example.com/';

interface Site {
  url: string;
  exclude?: string[];
  maxPages?: number;
}

function manifest(websites: Record<string, Site>, agents: string[] = [], moved: { from: string; to: string }[] = []): string {
  const lines = ['version: 1', 'environments:', '  local: { appId: local, region: us }'];
  if (agents.length > 0) {
    lines.push('agents:');
    for (const key of agents) lines.push(`  ${key}:`, `    name: Agent ${key}`, '    integrationType: llm', '    integrateWith: gpt-4o');
  }
  if (Object.keys(websites).length > 0) lines.push('knowledgeBase:', '  websites:');
  for (const [key, site] of Object.entries(websites)) {
    lines.push(`    ${key}:`, `      url: ${site.url}`, `      exclude: ${JSON.stringify(site.exclude ?? [])}`);
    if (site.maxPages !== undefined) lines.push(`      maxPages: ${site.maxPages}`);
  }
  if (moved.length > 0) lines.push(`moved: [${moved.map((m) => `{ from: ${m.from}, to: ${m.to} }`).join(', ')}]`);
  return lines.join('\n') + '\n';
}

interface StateFile {
  resources: Record<string, { remoteId: string; spec: Record<string, unknown> }>;
  pending: Record<string, { since: string; action?: string }>;
}

describe('issue 31: websites are never duplicated, orphaned or misreported', () => {
  let emu: TestEmulator;
  let ws: Workspace;
  const cli = (args: string[]): Promise<CliResult> => runCli([...args, '--state', 'state.json'], { cwd: ws.dir, env: emu.env, timeoutMs: 120_000 });
  const write = (text: string): void => writeFileSync(ws.path('agents.yaml'), text);
  const state = (): StateFile => (existsSync(ws.path('state.json')) ? (JSON.parse(readFileSync(ws.path('state.json'), 'utf8')) as StateFile) : { resources: {}, pending: {} });
  /** The websites scraped during this test (the seed's own, made long ago, left out). */
  const websitesOnServer = async (): Promise<{ uniqueId: string; sourceName: string }[]> =>
    (await emu.get<{ data: { uniqueId: string; sourceName: string; createdAt: number }[] }>('/ai-agents/agent-builder/knowledge-base?start=0&end=0&limit=100')).data.filter(
      (site) => site.createdAt > Date.now() - 600_000,
    );
  const writes = async (): Promise<RequestLogEntry[]> => emu.apiWrites();
  const count = (log: readonly RequestLogEntry[], method: string, path: string | RegExp): number =>
    log.filter((r) => r.method === method && (typeof path === 'string' ? r.path === path : path.test(r.path))).length;

  beforeAll(async () => {
    assertBuilt();
    emu = await startTestEmulator({ kb: { kbProcessingMs: 100 } });
  });
  afterAll(() => emu.close());
  beforeEach(async () => {
    ws = makeWorkspace('agentsync-r3-websites-');
    await emu.reset();
    await emu.configure({ kbCursorForever: false, kbScrapeDropNext: 0, kbListFailNext: 0, kbDeleteFailNext: 0, kbProcessFailNext: 0 });
    return () => ws.remove();
  });

  it("item 11: a website step that fails is that website's failure; unrelated agents are created and the summary says what the server holds", async () => {
    write(manifest({ docs: { url: DEMO } }, ['a1', 'a2', 'a3']));
    await emu.configure({ kbCursorForever: true });
    // One call at a time: the website's steps run before the agents, which still run.
    const applied = await cli(['apply', '--auto-approve', '--concurrency', '1']);
    expect(applied.code).toBe(1);
    expect(applied.stderr).not.toMatch(STACK_TRACE);
    const log = await writes();
    // The server holds three new agents and one scraped, unprocessed website.
    expect(count(log, 'POST', '/v3/ai-agents/agents')).toBe(3);
    expect(count(log, 'POST', SCRAPE)).toBe(1);
    expect(count(log, 'POST', /\/process$/)).toBe(0);
    const [site] = await websitesOnServer();
    expect(site).toBeDefined();
    const out = applied.stdout + applied.stderr;
    expect(out).toContain('Apply failed: 3 of 4 changes done, 1 failed, 0 not attempted.');
    expect(out).not.toMatch(/nothing was (changed|applied)/);
    expect(out).toMatch(/Failed:\n\s+\+ website\.docs: GET [^\n]*discovered-urls/);
    // What the server now holds: the website exists (its id), recorded, not processed yet.
    expect(out).toContain(`It exists on the server now (remote id ${site!.uniqueId})`);
    expect(state().resources['website.docs']?.remoteId).toBe(site!.uniqueId);
    for (const key of ['a1', 'a2', 'a3']) expect(out).toContain(`+ agent.${key}`);
  });

  it('item 1: a scrape whose answer is lost is marked pending, said to be maybe created, and adopted by the next apply: one website, one scrape', async () => {
    write(manifest({ docs: { url: DEMO, exclude: ['**/changelog*'] } }));
    await emu.configure({ kbScrapeDropNext: 1 });
    const first = await cli(['apply', '--auto-approve']);
    expect(first.code).toBe(1);
    expect(first.stdout + first.stderr).toMatch(/website\.docs[^\n]*\n\s+It may have been created/);
    expect(state().pending['website.docs']).toBeDefined();
    const [made, ...others] = await websitesOnServer();
    expect(others).toEqual([]);

    const plan = await cli(['plan']);
    expect(plan.stdout).toMatch(/website\.docs: a create was sent at .* apply looks for it there first/);

    const second = await cli(['apply', '--auto-approve']);
    expect(second.code, second.stderr).toBe(0);
    expect(second.stdout).toContain(`Adopted website.docs (remote id ${made!.uniqueId})`);
    expect(second.stdout).toMatch(/Apply complete: 0 created, 0 updated, 0 forgotten, 1 adopted\./);
    const log = await writes();
    expect(count(log, 'POST', SCRAPE)).toBe(1);
    expect(count(log, 'POST', `/v3/ai-agents/agent-builder/knowledge-base/website/${made!.uniqueId}/discovered-urls/process`)).toBe(1);
    expect(await websitesOnServer()).toHaveLength(1);
    expect(state().resources['website.docs']?.remoteId).toBe(made!.uniqueId);
    expect(state().pending).toEqual({});
    expect((await cli(['plan'])).stdout).toContain('No changes.');
  });

  it('item 1: with the knowledge-base list unreadable, a pending scrape sends nothing and keeps its mark', async () => {
    write(manifest({ docs: { url: DEMO } }));
    await emu.configure({ kbScrapeDropNext: 1 });
    expect((await cli(['apply', '--auto-approve'])).code).toBe(1);
    // The knowledge-base list answers 500 (a 500 is not retried).
    await emu.configure({ kbListFailNext: 1 });
    const blocked = await cli(['apply', '--auto-approve']);
    expect(blocked.code).toBe(1);
    expect(blocked.stdout + blocked.stderr).toContain('nothing was sent, so no second website was made');
    expect(count(await writes(), 'POST', SCRAPE)).toBe(1);
    expect(state().pending['website.docs']).toBeDefined();
  });

  it('item 24: an interrupted agent create is one account: the plan adopts it without a duplicate warning, and the summary counts it adopted', async () => {
    write(manifest({}, ['keep']));
    expect((await cli(['apply', '--auto-approve'])).code).toBe(0);
    // What a killed apply leaves: the agent made on the server, only a pending mark in the state.
    const made = await emu.call('POST', '/ai-agents/agents', { name: 'Agent a1', integrationType: 'llm', integrateWith: 'gpt-4o', isActive: true, tools: [], actions: [] });
    expect(made.status).toBeLessThan(300);
    const uid = (made.json as { agent?: { uid: string }; uid?: string }).agent?.uid ?? (made.json as { uid: string }).uid;
    const file = JSON.parse(readFileSync(ws.path('state.json'), 'utf8')) as StateFile & { serial: number };
    file.pending['agent.a1'] = { type: 'agent', since: new Date(Date.now() - 60_000).toISOString() } as StateFile['pending'][string];
    writeFileSync(ws.path('state.json'), JSON.stringify(file));
    write(manifest({}, ['keep', 'a1']));
    await emu.clearRequests();

    const plan = await cli(['plan']);
    expect(plan.code, plan.stderr).toBe(0);
    expect(plan.stdout).toContain(`an interrupted earlier apply created it (uid ${uid})`);
    expect(plan.stdout).not.toContain('a duplicate may exist');
    const applied = await cli(['apply', '--auto-approve']);
    expect(applied.code, applied.stderr).toBe(0);
    expect(applied.stdout).toContain(`Adopted agent.a1 (remote id ${uid})`);
    expect(applied.stdout).toContain('Apply complete: 0 created, 0 updated, 0 forgotten, 1 adopted.');
    const log = await writes();
    expect(log.map((r) => `${r.method} ${r.path}`)).toEqual([`PATCH /v3/ai-agents/agents/${uid}`]);
  });

  it('item 2: a re-crawl whose old-website DELETE fails records the new website first and deletes the old one on the next apply: no third crawl', async () => {
    write(manifest({ docs: { url: DEMO, maxPages: 50 } }));
    expect((await cli(['apply', '--auto-approve'])).code).toBe(0);
    const [old] = await websitesOnServer();
    write(manifest({ docs: { url: DEMO, maxPages: 40 } }));
    await emu.configure({ kbDeleteFailNext: 1 });
    const first = await cli(['apply', '--auto-approve']);
    expect(first.code).toBe(1);
    const fresh = (await websitesOnServer()).find((site) => site.uniqueId !== old!.uniqueId);
    expect(fresh).toBeDefined();
    expect(state().resources['website.docs']?.remoteId).toBe(fresh!.uniqueId);
    const out = first.stdout + first.stderr;
    expect(out).toContain(`It exists on the server now (remote id ${fresh!.uniqueId})`);
    expect(out).toContain(`The website it replaces (remote id ${old!.uniqueId}) is still on the server`);

    await emu.clearRequests();
    const plan = await cli(['plan']);
    expect(plan.stdout).toMatch(new RegExp(`- website\\.docs~[^\\n]*${old!.uniqueId}`));
    const second = await cli(['apply', '--auto-approve']);
    expect(second.code, second.stderr + second.stdout).toBe(0);
    const log = await writes();
    expect(count(log, 'POST', SCRAPE)).toBe(0);
    expect(log.map((r) => `${r.method} ${r.path}`)).toEqual([`DELETE /v3/ai-agents/agent-builder/knowledge-base/website/${old!.uniqueId}`]);
    expect((await websitesOnServer()).map((site) => site.uniqueId)).toEqual([fresh!.uniqueId]);
    expect(Object.keys(state().resources)).toEqual(['website.docs']);
    expect((await cli(['plan'])).stdout).toContain('No changes.');
  });

  it('item 2: a re-crawl whose new website cannot be processed still deletes the old website, on the next plain apply', async () => {
    write(manifest({ docs: { url: DEMO, maxPages: 50 } }));
    expect((await cli(['apply', '--auto-approve'])).code).toBe(0);
    const [old] = await websitesOnServer();
    write(manifest({ docs: { url: DEMO, maxPages: 40 } }));
    await emu.configure({ kbProcessFailNext: 1 });
    const first = await cli(['apply', '--auto-approve']);
    expect(first.code).toBe(1);
    const fresh = (await websitesOnServer()).find((site) => site.uniqueId !== old!.uniqueId);
    expect(state().resources['website.docs']?.remoteId).toBe(fresh!.uniqueId);

    await emu.clearRequests();
    const second = await cli(['apply', '--auto-approve']);
    expect(second.code, second.stderr + second.stdout).toBe(0);
    const log = await writes();
    expect(count(log, 'POST', SCRAPE)).toBe(0);
    expect(count(log, 'POST', `/v3/ai-agents/agent-builder/knowledge-base/website/${fresh!.uniqueId}/discovered-urls/process`)).toBe(1);
    expect(count(log, 'DELETE', `/v3/ai-agents/agent-builder/knowledge-base/website/${old!.uniqueId}`)).toBe(1);
    expect((await websitesOnServer()).map((site) => site.uniqueId)).toEqual([fresh!.uniqueId]);
    expect((await cli(['plan'])).stdout).toContain('No changes.');
  });

  it('item 2, sibling: a --prune DELETE that failed is finished by the next plain apply, never forgotten onto the server', async () => {
    write(manifest({ docs: { url: DEMO } }, ['keep']));
    expect((await cli(['apply', '--auto-approve'])).code).toBe(0);
    const [site] = await websitesOnServer();
    write(manifest({}, ['keep']));
    await emu.configure({ kbDeleteFailNext: 1 });
    expect((await cli(['apply', '--auto-approve', '--prune'])).code).toBe(1);
    expect(state().pending['website.docs']?.action).toBe('delete');
    const plain = await cli(['apply', '--auto-approve']);
    expect(plain.code, plain.stderr + plain.stdout).toBe(0);
    expect(plain.stdout).not.toMatch(/Forgot website\.docs/);
    expect(count(await writes(), 'DELETE', `/v3/ai-agents/agent-builder/knowledge-base/website/${site!.uniqueId}`)).toBe(2);
    expect(await websitesOnServer()).toEqual([]);
    expect(state().resources['website.docs']).toBeUndefined();
  });

  it('item 12: a website whose listing cannot be read is named with its reason, nothing is planned for it, the rest is planned and applied, and apply exits 1', async () => {
    write(manifest({ docs: { url: DEMO } }, ['a1']));
    expect((await cli(['apply', '--auto-approve'])).code).toBe(0);
    const before = state().resources['website.docs'];
    write(manifest({ docs: { url: DEMO, exclude: ['**/changelog*'] } }, ['a1', 'a2']).replace('name: Agent a1', 'name: Agent a1 renamed'));
    await emu.configure({ kbCursorForever: true });
    await emu.clearRequests();

    const plan = await cli(['plan']);
    expect(plan.stderr).not.toMatch(STACK_TRACE);
    expect(plan.stdout).toMatch(/Could not be read from the server[^\n]*\n\s+! website\.docs: the server answered the same cursor twice/);
    expect(plan.stdout).toContain('~ agent.a1');
    expect(plan.stdout).toContain('+ agent.a2');
    expect(plan.stdout).not.toMatch(/[~+-] website\.docs/);
    expect(plan.stdout).toContain('Plan: 1 to create, 1 to update, 0 to forget.');
    const json = JSON.parse((await cli(['plan', '--json'])).stdout) as { changes: { address: string }[]; unreadable: { address: string; reason: string }[] };
    expect(json.changes.map((c) => c.address)).toEqual(['agent.a1', 'agent.a2']);
    expect(json.unreadable.map((u) => u.address)).toEqual(['website.docs']);

    await emu.clearRequests();
    const applied = await cli(['apply', '--auto-approve']);
    expect(applied.code).toBe(1);
    const out = applied.stdout + applied.stderr;
    expect(out).toContain('Apply failed: 2 of 2 changes done, 0 failed, 0 not attempted, 1 not read from the server.');
    expect(out).toMatch(/Not read from the server[^\n]*\n\s+! website\.docs: /);
    // What the server saw: the two agent changes, nothing for the website.
    const log = await writes();
    expect(log.map((r) => `${r.method} ${r.path.replace(/\/agents\/[^/]+$/, '/agents/UID')}`).sort()).toEqual(['PATCH /v3/ai-agents/agents/UID', 'POST /v3/ai-agents/agents']);
    expect(state().resources['website.docs']).toEqual(before);

    // With nothing else left to do, apply still fails while the website cannot be read.
    const again = await cli(['apply', '--auto-approve']);
    expect(again.code).toBe(1);
    expect(again.stdout + again.stderr).toContain('1 not read from the server');
  });

  it('item 15: renaming a website with moved: moves its state entry and sends nothing to the server', async () => {
    write(manifest({ docs: { url: DEMO, exclude: ['**/changelog*'] } }));
    expect((await cli(['apply', '--auto-approve'])).code).toBe(0);
    const before = state().resources['website.docs'];
    write(manifest({ handbook: { url: DEMO, exclude: ['**/changelog*'] } }, [], [{ from: 'website.docs', to: 'website.handbook' }]));
    await emu.clearRequests();
    const plan = await cli(['plan']);
    expect(plan.stdout).toContain('website.docs → website.handbook (moved)');
    expect(plan.stdout).not.toMatch(/[~+-] website\./);
    expect(plan.stdout).toContain('Plan: 0 to create, 0 to update, 0 to forget, 1 to move.');
    const applied = await cli(['apply', '--auto-approve']);
    expect(applied.code, applied.stderr).toBe(0);
    expect(await writes()).toEqual([]);
    expect(state().resources).toEqual({ 'website.handbook': before });
    expect((await cli(['plan'])).stdout).toContain('No changes.');
  });
});
