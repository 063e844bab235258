// Agent Builder agents on the emulator (`/ai-agents/agent-builder/agents`): create, get, update,
// delete, the cursor-paged list, and attaching knowledge, as ../shared/reference/ gives them.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { BuilderAgentListResponse, BuilderAgentRecord } from '../../src/core/agent-builder-wire.js';
import { CreatedOrder } from '../../src/emulator/created-order.js';
import { listBuilderAgents } from '../../src/emulator/resources/builder-agent/list.js';
import { seedData } from '../../src/emulator/seed.js';
import { startTestEmulator, type TestEmulator } from '../support/emulator.js';
import { AGENTS, attach, createAgent, createText, getAgent, initiate, KB, PDF } from './builder-helpers.js';
import { agentsError } from './helpers.js';

let emu: TestEmulator;
beforeAll(async () => {
  emu = await startTestEmulator({ kb: { kbProcessingMs: 0 } });
});
afterAll(() => emu.close());
beforeEach(async () => {
  await emu.reset();
  await emu.configure({ createStatus: 200, storeAsSent: false, kbAttachArrays: 'split' });
});

describe('Agent Builder agents: create, get, update, delete', () => {
  it('creates with the mode create status and answers {agent}, stored like a server: defaults filled in', async () => {
    await emu.configure({ createStatus: 201 });
    const reply = await emu.call('POST', AGENTS, { name: 'Concierge', instruction: 'Be kind.', modelMetaData: { temperature: 0.2 } });
    expect(reply.status).toBe(201);
    const { agent } = reply.json as { agent: BuilderAgentRecord };
    expect(agent).toMatchObject({
      appId: 'local',
      name: 'Concierge',
      isActive: true,
      model: 'gpt-4o-mini',
      tools: [],
      apiTools: [],
      mcpServers: [],
      frontendActions: [],
      files: [],
      websites: [],
      otherKbIntegrations: [],
      metaData: {},
      modelMetaData: { temperature: 0.2 },
      instruction: 'Be kind.',
      formattedInstruction: 'Be kind.',
      ragVersion: 'v2',
      lastMessageAt: null,
    });
    expect(agent.uid).toMatch(/^[0-9a-f-]{36}$/);
    expect(agent.createdAt).toBe(agent.updatedAt);
    expect(typeof agent.createdAt).toBe('number');
    expect(await getAgent(emu, agent.uid)).toEqual(agent);
    await emu.configure({ createStatus: 200 });
    expect((await emu.call('POST', AGENTS, { name: 'Second' })).status).toBe(200);
  });

  it('under storeAsSent keeps what was sent plus uid, appId, files, websites and the times only', async () => {
    await emu.configure({ storeAsSent: true });
    const agent = await createAgent(emu, { name: 'Bare', tools: ['gmail'] });
    expect(Object.keys(agent).sort()).toEqual(['appId', 'createdAt', 'files', 'name', 'tools', 'uid', 'updatedAt', 'websites']);
    expect(agent.tools).toEqual(['gmail']);
  });

  it('gives every agent its own createdAt, however fast they come', async () => {
    const agents = await Promise.all(Array.from({ length: 30 }, (_, i) => createAgent(emu, { name: `A${i}` })));
    expect(new Set(agents.map((agent) => agent.createdAt)).size).toBe(30);
  });

  it.each([
    ['no name', {}, "'name' is required."],
    ['an empty name', { name: '  ' }, "'name' must not be empty."],
    ['a name of 101 characters', { name: 'n'.repeat(101) }, "'name' must be at most 100 characters; it has 101."],
    ['an instruction of 32,001 characters', { name: 'x', instruction: 'i'.repeat(32_001) }, "'instruction' must be at most 32000 characters; it has 32001."],
    ['files', { name: 'x', files: ['f'] }, "Unknown field 'files'"],
    ['frontendActions', { name: 'x', frontendActions: [] }, "Unknown field 'frontendActions'"],
    ['ragVersion and uid', { name: 'x', ragVersion: 'v1', uid: 'mine' }, "Unknown fields 'ragVersion', 'uid'"],
    ['tools that are not strings', { name: 'x', tools: [1] }, "'tools[0]' must be a string."],
    ['a metaData that is not an object', { name: 'x', metaData: [] }, "'metaData' must be an object."],
    ['an isActive that is not a boolean', { name: 'x', isActive: 'yes' }, "'isActive' must be a boolean."],
    ['a null model', { name: 'x', model: null }, "'model' must be a string."],
  ])('refuses a create with %s (400, naming it) and stores nothing', async (_label, body, message) => {
    const reply = await emu.call('POST', AGENTS, body);
    expect(reply.status).toBe(400);
    expect(agentsError(reply).message).toContain(message);
    expect(((await emu.call('GET', AGENTS)).json as BuilderAgentListResponse).data).toEqual([]);
  });

  it('updates: answers exactly {success: true}; arrays and objects replace; instruction carries formattedInstruction', async () => {
    const agent = await createAgent(emu, { name: 'A', tools: ['gmail', 'slack'], metaData: { a: 1, b: 2 }, instruction: 'old' });
    const reply = await emu.call('PATCH', `${AGENTS}/${agent.uid}`, { tools: ['notion'], metaData: { c: 3 }, instruction: 'new' });
    expect(reply.status).toBe(200);
    expect(reply.json).toEqual({ success: true });
    const after = await getAgent(emu, agent.uid);
    expect(after).toMatchObject({ name: 'A', tools: ['notion'], metaData: { c: 3 }, instruction: 'new', formattedInstruction: 'new', createdAt: agent.createdAt });
    expect(after.updatedAt).toBeGreaterThan(agent.updatedAt);
  });

  it('refuses an update with an unknown key or a bad value, and changes nothing', async () => {
    const agent = await createAgent(emu, { name: 'A' });
    for (const body of [{ websites: [] }, { name: '' }, { instruction: 'i'.repeat(32_001) }]) {
      const reply = await emu.call('PATCH', `${AGENTS}/${agent.uid}`, body);
      expect(reply.status, JSON.stringify(body)).toBe(400);
    }
    expect(await getAgent(emu, agent.uid)).toEqual(agent);
  });

  it('404s a get, update, delete or attach of an unknown agent', async () => {
    for (const [method, path, body] of [
      ['GET', `${AGENTS}/nope`, undefined],
      ['PATCH', `${AGENTS}/nope`, { name: 'x' }],
      ['DELETE', `${AGENTS}/nope`, undefined],
      ['PATCH', `${AGENTS}/nope/knowledge-base/text/add`, { uniqueIds: ['x'] }],
    ] as const) {
      const reply = await emu.call(method, path, body);
      expect(reply.status, `${method} ${path}`).toBe(404);
      expect(agentsError(reply).message).toContain("Agent 'nope' does not exist.");
    }
  });

  it('deletes for good: {success, message}, then a second DELETE and a GET are 404', async () => {
    const agent = await createAgent(emu, { name: 'A' });
    const reply = await emu.call('DELETE', `${AGENTS}/${agent.uid}`);
    expect(reply.status).toBe(200);
    expect(reply.json).toEqual({ success: true, message: 'Operation completed successfully' });
    expect((await emu.call('DELETE', `${AGENTS}/${agent.uid}`)).status).toBe(404);
    expect((await emu.call('GET', `${AGENTS}/${agent.uid}`)).status).toBe(404);
  });
});

describe('Agent Builder agents: the list', () => {
  it('pages newest first with meta.next and meta.previous only where a page exists, and searches', async () => {
    const made: BuilderAgentRecord[] = [];
    for (let i = 0; i < 5; i++) made.push(await createAgent(emu, { name: `Agent ${i}`, description: i === 3 ? 'Handles REFUNDS' : '' }));
    const first = (await emu.call('GET', `${AGENTS}?limit=2`)).json as BuilderAgentListResponse;
    expect(first.data.map((agent) => agent.name)).toEqual(['Agent 4', 'Agent 3']);
    expect(first.meta).toEqual({ current: { limit: 2, count: 2 }, next: { affix: 'append', createdAt: made[3]?.createdAt } });
    const second = (await emu.call('GET', `${AGENTS}?limit=2&affix=append&createdAt=${first.meta.next?.createdAt}`)).json as BuilderAgentListResponse;
    expect(second.data.map((agent) => agent.name)).toEqual(['Agent 2', 'Agent 1']);
    expect(second.meta.previous).toEqual({ affix: 'prepend', createdAt: made[2]?.createdAt });
    const back = (await emu.call('GET', `${AGENTS}?limit=2&affix=prepend&createdAt=${second.meta.previous?.createdAt}`)).json as BuilderAgentListResponse;
    expect(back.data.map((agent) => agent.name)).toEqual(['Agent 4', 'Agent 3']);
    expect(back.meta.previous).toBeUndefined();
    const search = async (term: string) => ((await emu.call('GET', `${AGENTS}?search=${encodeURIComponent(term)}`)).json as BuilderAgentListResponse).data.map((agent) => agent.name);
    expect(await search('refunds')).toEqual(['Agent 3']);
    expect(await search('agent 1')).toEqual(['Agent 1']);
    expect(await search(made[0]?.uid.slice(4, 12) ?? '')).toEqual(['Agent 0']);
  });

  it('takes a limit over 100 as 100, and refuses a limit below 1, a bad limit, affix or createdAt with 400', async () => {
    const big = (await emu.call('GET', `${AGENTS}?limit=1000`)).json as BuilderAgentListResponse;
    expect(big.meta.current.limit).toBe(100);
    for (const query of ['limit=0', 'limit=abc', 'limit=', 'limit=2.5', 'affix=sideways', 'createdAt=yesterday', 'createdAt=-5']) {
      const reply = await emu.call('GET', `${AGENTS}?${query}`);
      expect(reply.status, query).toBe(400);
    }
  });
});

describe('Agent Builder agents: 2,000 agents', () => {
  let folder: string;
  let big: TestEmulator;
  const N = 2000;
  const base = 1_700_000_000_000;
  beforeAll(async () => {
    folder = await mkdtemp(join(tmpdir(), 'agentsync-builder-'));
    const data = seedData('local');
    // Written in shuffled order: the store orders them by createdAt whatever the file's order.
    const agents = Array.from({ length: N }, (_, i): BuilderAgentRecord => ({
      uid: `agent-${i}`,
      appId: 'local',
      name: `Agent ${i}`,
      files: [],
      websites: [],
      createdAt: base + i * 7,
      updatedAt: base + i * 7,
    }));
    data.builderAgents = agents.sort((a, b) => ((a.createdAt * 7919) % 1009) - ((b.createdAt * 7919) % 1009));
    await writeFile(join(folder, 'data.json'), JSON.stringify(data));
    big = await startTestEmulator({ dataFile: join(folder, 'data.json') });
  });
  afterAll(async () => {
    await big.close();
    await rm(folder, { recursive: true, force: true });
  });

  it('walks forward in N/limit requests with no duplicate and no gap, then back again', async () => {
    const seen: string[] = [];
    let query = `${AGENTS}?limit=100`;
    let requests = 0;
    let last: BuilderAgentListResponse | undefined;
    for (;;) {
      last = (await big.call('GET', query)).json as BuilderAgentListResponse;
      requests++;
      seen.push(...last.data.map((agent) => agent.uid));
      if (!last.meta.next) break;
      query = `${AGENTS}?limit=100&affix=append&createdAt=${last.meta.next.createdAt}`;
      expect(requests).toBeLessThan(N);
    }
    expect(requests).toBe(N / 100);
    expect(seen).toEqual(Array.from({ length: N }, (_, i) => `agent-${N - 1 - i}`));
    const back: string[] = [];
    let previous = last.meta.previous;
    while (previous) {
      const page = (await big.call('GET', `${AGENTS}?limit=100&affix=prepend&createdAt=${previous.createdAt}`)).json as BuilderAgentListResponse;
      back.unshift(...page.data.map((agent) => agent.uid));
      previous = page.meta.previous;
    }
    expect(back).toEqual(seen.slice(0, N - 100));
  });

  it('reads about a page of records per page, not the whole list (no quadratic walk)', () => {
    class CountingOrder extends CreatedOrder<BuilderAgentRecord> {
      reads = 0;
      override at(index: number): BuilderAgentRecord | undefined {
        this.reads++;
        return super.at(index);
      }
    }
    const order = new CountingOrder((agent) => agent.uid);
    for (let i = 0; i < N; i++) order.put({ uid: `a${i}`, appId: 'local', name: `A${i}`, files: [], websites: [], createdAt: base + i, updatedAt: base + i });
    let query = new URLSearchParams('limit=10');
    let pages = 0;
    for (;;) {
      const page = listBuilderAgents(order, query);
      pages++;
      if (!page.meta.next) break;
      query = new URLSearchParams(`limit=10&affix=append&createdAt=${page.meta.next.createdAt}`);
    }
    expect(pages).toBe(N / 10);
    // Each page reads its records twice, one past each end and its cursors: about 2.4 N in all. A
    // page that scanned the list would read N per page, 400,000 here.
    expect(order.reads).toBeLessThanOrEqual(3 * N);
  });
});

describe('Agent Builder agents: attaching knowledge', () => {
  async function sources(): Promise<{ text: string; upload: string; website: string }> {
    const text = (await createText(emu, 'Refunds', 'We refund.')).uniqueId;
    const [upload] = await initiate(emu, [{ fileName: 'handbook.pdf', mimeType: PDF, fileSize: 10 }]);
    return { text, upload: upload?.uploadId ?? '', website: 'web_demo' };
  }

  it('split (the default): uploads and text entries into files, websites into websites; answers {success: true} only', async () => {
    const agent = await createAgent(emu, { name: 'A' });
    const ids = await sources();
    for (const [type, id] of [
      ['text', ids.text],
      ['uploads', ids.upload],
      ['website', ids.website],
    ] as const) {
      const reply = await attach(emu, agent.uid, type, 'add', [id]);
      expect(reply.status).toBe(200);
      expect(reply.json).toEqual({ success: true });
    }
    const after = await getAgent(emu, agent.uid);
    expect(after.files).toEqual([ids.text, ids.upload]);
    expect(after.websites).toEqual(['web_demo']);
    expect(after.updatedAt).toBeGreaterThan(agent.updatedAt);
  });

  it('files: every id into files; remove takes them off again', async () => {
    await emu.configure({ kbAttachArrays: 'files' });
    const agent = await createAgent(emu, { name: 'A' });
    const ids = await sources();
    await attach(emu, agent.uid, 'website', 'add', [ids.website]);
    await attach(emu, agent.uid, 'text', 'add', [ids.text]);
    expect(await getAgent(emu, agent.uid)).toMatchObject({ files: ['web_demo', ids.text], websites: [] });
    expect((await attach(emu, agent.uid, 'website', 'remove', [ids.website])).json).toEqual({ success: true });
    expect(await getAgent(emu, agent.uid)).toMatchObject({ files: [ids.text], websites: [] });
  });

  it('an add of an attached id and a remove of one not attached are no-ops', async () => {
    const agent = await createAgent(emu, { name: 'A' });
    const { text } = await sources();
    await attach(emu, agent.uid, 'text', 'add', [text]);
    const once = await getAgent(emu, agent.uid);
    expect((await attach(emu, agent.uid, 'text', 'add', [text, text])).status).toBe(200);
    expect((await attach(emu, agent.uid, 'uploads', 'remove', ['never-attached'])).status).toBe(200);
    expect(await getAgent(emu, agent.uid)).toEqual(once);
  });

  it.each([
    ['an unknown source type', 'files', 'add', ['x'], `'sourceType' must be "uploads", "text" or "website"; got "files".`],
    ['an empty uniqueIds', 'text', 'add', [], "'uniqueIds' must name at least one source."],
    ['a uniqueIds that is not an array', 'text', 'add', 'x', "'uniqueIds' must be an array of strings."],
    ['an unknown id', 'text', 'add', ['ghost'], "'uniqueIds' names 'ghost', not a text entry of this app's knowledge base"],
    ['an id of another source type', 'uploads', 'add', ['web_demo'], "'uniqueIds' names 'web_demo', not an upload"],
  ])('400s %s, naming it, and attaches nothing', async (_label, type, action, ids, message) => {
    const agent = await createAgent(emu, { name: 'A' });
    const reply = await attach(emu, agent.uid, type, action as 'add', ids);
    expect(reply.status).toBe(400);
    expect(agentsError(reply).message).toContain(message);
    expect(await getAgent(emu, agent.uid)).toEqual(agent);
  });

  it('deleting a text entry, an upload or a website detaches it from every agent', async () => {
    const ids = await sources();
    const agents = [await createAgent(emu, { name: 'A' }), await createAgent(emu, { name: 'B' })];
    for (const agent of agents) {
      await attach(emu, agent.uid, 'text', 'add', [ids.text]);
      await attach(emu, agent.uid, 'uploads', 'add', [ids.upload]);
      await attach(emu, agent.uid, 'website', 'add', [ids.website]);
    }
    expect((await emu.call('DELETE', `${KB}/text/${ids.text}`)).status).toBe(200);
    expect((await emu.call('DELETE', `${KB}/uploads/${ids.upload}`)).status).toBe(200);
    const website = await emu.call('DELETE', `${KB}/website/${ids.website}`);
    expect((website.json as { data: { deletedFromAgents: boolean } }).data.deletedFromAgents).toBe(true);
    for (const agent of agents) expect(await getAgent(emu, agent.uid)).toMatchObject({ files: [], websites: [] });
  });
});
