// Discovered URLs: cursor paging, processing progress on the emulator's clock, the fail knobs,
// sync, delete, the knowledge-base list and the paging faults.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { agentsError } from './helpers.js';
import { startTestEmulator, type TestEmulator } from '../support/emulator.js';
import { KB, listAll, listPage, scrapeId, urlsPath, type UrlRecord } from './kb-helpers.js';

let emu: TestEmulator;
beforeAll(async () => {
  emu = await startTestEmulator();
});
afterAll(() => emu.close());
beforeEach(async () => {
  // Indexing takes 1,000 s unless a test says otherwise, so no status changes while a loaded machine is slow.
  await emu.admin('POST', '/config', { kbProcessingMs: 1_000_000, kbFailUrls: [], kbFailFraction: 0, kbCursorForever: false, kbThrottleNext: 0, kbThrottleRetryAfterSeconds: 1 });
});

const seed = async (count: number, extra: Record<string, unknown> = {}): Promise<string> => {
  const reply = await emu.admin('POST', '/kb/websites', { count, ...extra });
  expect(reply.status, JSON.stringify(reply.json)).toBe(200);
  return (reply.json as { parentUniqueId: string }).parentUniqueId;
};
const poll = async (id: string, ids: string[]): Promise<Record<string, string>> => {
  const reply = await emu.call('POST', `${urlsPath(id)}/status/poll`, { uniqueId: ids });
  expect(reply.status, JSON.stringify(reply.json)).toBe(200);
  return (reply.json as { data: Record<string, string> }).data;
};
const counts = (statuses: Record<string, string>): Record<string, number> => {
  const out: Record<string, number> = {};
  for (const status of Object.values(statuses)) out[status] = (out[status] ?? 0) + 1;
  return out;
};
const process = (id: string, exclude: string[] = []) => emu.call('POST', `${urlsPath(id)}/process`, { exclude });

describe('discovered-urls paging', () => {
  it('pages 250 URLs by cursor: default 10, at most 100, every URL once, meta as the reference shapes it', async () => {
    const id = await seed(250);
    const first = await listPage(emu, id);
    expect(first.meta.current).toEqual({ limit: 10, count: 10 });
    expect(first.meta.next?.affix).toBe('append');
    expect(first.meta.previous).toBeUndefined();
    const all = await listAll(emu, id, 100);
    expect(all).toHaveLength(250);
    expect(new Set(all.map((record) => record.urlId)).size).toBe(250);
    expect(all.map((record) => record.url).slice(0, 2)).toEqual(['https://seeded.example.com/page/1', 'https://seeded.example.com/page/2']);
    const second = await listPage(emu, id, `?limit=100&cursor=${encodeURIComponent(first.meta.next?.cursor ?? '')}`);
    expect(second.data[0]?.url).toBe('https://seeded.example.com/page/11');
    expect(second.meta.previous).toMatchObject({ affix: 'prepend' });
    // prepend: the page before the cursor, in list order.
    const back = await listPage(emu, id, `?limit=5&affix=prepend&cursor=${encodeURIComponent(second.meta.previous?.cursor ?? '')}`);
    expect(back.data.map((record) => record.url.split('/').pop())).toEqual(['6', '7', '8', '9', '10']);
    const third = await listPage(emu, id, `?limit=100&cursor=${encodeURIComponent(second.meta.next?.cursor ?? '')}`);
    expect(third.meta.current.count).toBe(100);
    const last = await listPage(emu, id, `?limit=100&cursor=${encodeURIComponent(third.meta.next?.cursor ?? '')}`);
    expect(last.meta.current).toEqual({ limit: 100, count: 40 });
    expect(last.meta.next).toBeUndefined();
  });

  it.each([
    ['limit 101', '?limit=101', "'limit' must be a whole number from 1 to 100"],
    ['limit 0', '?limit=0', "'limit'"],
    ['limit text', '?limit=ten', "'limit'"],
    ['a made-up cursor', '?cursor=abc', '\'cursor\' "abc" is not a cursor this server gave'],
    ['a cursor of no record', '?cursor=1.999999', 'names no record'],
    ['a bad affix', '?affix=sideways', "'affix'"],
    ['a bad status', '?status=done', "'status' must be one of"],
    ['a bad startTime', '?startTime=yesterday', "'startTime'"],
  ])('400s %s', async (_label, query, message) => {
    const id = await seed(3);
    const reply = await emu.call('GET', `${urlsPath(id)}${query}`);
    expect(reply.status).toBe(400);
    expect(agentsError(reply).message).toContain(message);
  });

  it('filters by status', async () => {
    const id = await seed(12);
    const all = await listAll(emu, id);
    expect(
      (
        await process(
          id,
          all.slice(0, 2).map((record) => record.urlId),
        )
      ).status,
    ).toBe(200);
    expect((await listPage(emu, id, '?status=skipped&limit=100')).data.map((record) => record.urlId)).toEqual(all.slice(0, 2).map((record) => record.urlId));
    expect((await listPage(emu, id, '?status=processing&limit=100')).data).toHaveLength(10);
  });

  it('answers 404 for an unknown website', async () => {
    const reply = await emu.call('GET', urlsPath('no-such-website'));
    expect(reply.status).toBe(404);
    expect(agentsError(reply).message).toContain("'no-such-website'");
  });
});

describe('processing progress', () => {
  it('moves discovered → processing → processed over kbProcessingMs on the emulator clock', async () => {
    // URLs finish 100 s apart on the emulator clock, so wall time between the calls cannot matter.
    const id = await seed(10);
    const ids = (await listAll(emu, id)).map((record) => record.urlId);
    expect(counts(await poll(id, ids))).toEqual({ discovered: 10 });
    expect((await process(id)).status).toBe(200);
    expect(counts(await poll(id, ids))).toEqual({ processing: 10 });
    await emu.admin('POST', '/clock', { advanceMs: 500_000 });
    expect(counts(await poll(id, ids))).toEqual({ processed: 5, processing: 5 });
    await emu.admin('POST', '/clock', { advanceMs: 500_000 });
    expect(counts(await poll(id, ids))).toEqual({ processed: 10 });
    const record = (await listPage(emu, id, '?limit=1')).data[0] as UrlRecord & { vectorizationStatus: string };
    expect(record.vectorizationStatus).toBe('completed');
  });

  it('is instant with kbProcessingMs 0, and leaves unknown ids out of the poll', async () => {
    await emu.admin('POST', '/config', { kbProcessingMs: 0 });
    const id = await seed(3);
    const ids = (await listAll(emu, id)).map((record) => record.urlId);
    await process(id, [ids[0] as string]);
    expect(await poll(id, [...ids, 'not-an-id'])).toEqual({ [ids[0] as string]: 'skipped', [ids[1] as string]: 'processed', [ids[2] as string]: 'processed' });
  });

  it('ends URLs that match kbFailUrls failed, and a kbFailFraction picks the same URLs every time', async () => {
    await emu.admin('POST', '/config', { kbProcessingMs: 0, kbFailUrls: ['https://seeded.example.com/page/1*'] });
    const id = await seed(20);
    const ids = (await listAll(emu, id)).map((record) => record.urlId);
    await process(id);
    // page/1 and page/10..19
    expect(counts(await poll(id, ids))).toEqual({ failed: 11, processed: 9 });
    await emu.admin('POST', '/config', { kbFailUrls: [], kbFailFraction: 0.5 });
    const failedOf = async (): Promise<string[]> => {
      const other = await seed(40, { url: 'http://fraction.example.com' });
      await process(other);
      return (await listAll(emu, other)).filter((record) => record.status === 'failed').map((record) => record.url);
    };
    const first = await failedOf();
    expect(first.length).toBeGreaterThan(5);
    expect(first.length).toBeLessThan(35);
    expect(await failedOf()).toEqual(first);
  });

  it('400s a bad knob and keeps the old config', async () => {
    const reply = await emu.admin('POST', '/config', { kbFailUrls: ['***'], kbProcessingMs: 5 });
    expect(reply.status).toBe(400);
    expect(((await emu.admin('GET', '/config')).json as { kbProcessingMs: number }).kbProcessingMs).toBe(1_000_000);
  });
});

describe('sync and delete', () => {
  it('re-processes the listed URLs, skipping excluded ones, and counts retries', async () => {
    await emu.admin('POST', '/config', { kbProcessingMs: 0, kbFailUrls: ['**/page/2'] });
    const id = await seed(3);
    const ids = (await listAll(emu, id)).map((record) => record.urlId);
    await process(id, [ids[0] as string]);
    expect(counts(await poll(id, ids))).toEqual({ skipped: 1, failed: 1, processed: 1 });
    await emu.admin('POST', '/config', { kbFailUrls: [] });
    const reply = await emu.call('PATCH', `${urlsPath(id)}/sync`, { uniqueIds: [...ids, 'unknown'] });
    expect(reply.status).toBe(200);
    expect((reply.json as { data: unknown }).data).toMatchObject({ urlsProcessed: 2, totalRequested: 4, excludedUrls: 1, status: 'processing', processedUrls: [ids[1], ids[2]] });
    expect(counts(await poll(id, ids))).toEqual({ skipped: 1, processed: 2 });
    const records = await listAll(emu, id);
    expect(records.map((record) => record.retryCount)).toEqual([0, 1, 1]);
  });

  it('400s an empty or missing uniqueIds and 404s when no id is a non-excluded URL', async () => {
    const id = await seed(2);
    const ids = (await listAll(emu, id)).map((record) => record.urlId);
    await process(id, [ids[0] as string]);
    expect((await emu.call('PATCH', `${urlsPath(id)}/sync`, { uniqueIds: [] })).status).toBe(400);
    expect((await emu.call('PATCH', `${urlsPath(id)}/sync`, {})).status).toBe(400);
    expect((await emu.call('PATCH', `${urlsPath(id)}/sync`, { uniqueIds: [ids[0], 'nope'] })).status).toBe(404);
  });

  it('deletes a website; then each of its routes answers 404', async () => {
    const id = await scrapeId(emu, { url: 'https://docs.example.com', maxDepth: 1 });
    const reply = await emu.call('DELETE', `${KB}/website/${id}`);
    expect(reply.status).toBe(200);
    expect(reply.json).toEqual({ success: true, message: 'Website and all associated data deleted successfully', data: { uniqueId: id, deletedFromAgents: false, vectorsDeleted: true } });
    for (const next of [
      await emu.call('GET', urlsPath(id)),
      await emu.call('POST', `${urlsPath(id)}/process`, { exclude: [] }),
      await emu.call('POST', `${urlsPath(id)}/status/poll`, { uniqueId: [] }),
      await emu.call('PATCH', `${urlsPath(id)}/sync`, { uniqueIds: ['x'] }),
      await emu.call('DELETE', `${KB}/website/${id}`),
    ]) {
      expect(next.status).toBe(404);
      agentsError(next);
    }
  });
});

describe('knowledge-base list, source poll and source sync', () => {
  it('lists websites newest first, paged, with their status; start and end are required', async () => {
    await emu.admin('POST', '/config', { kbProcessingMs: 0 });
    const fresh = await startTestEmulator({ kb: { kbProcessingMs: 0 } });
    const a = await scrapeId(fresh, { url: 'https://docs.example.com', maxDepth: 1 });
    const b = await scrapeId(fresh, { url: 'https://docs.example.com', maxDepth: 1 });
    await fresh.call('POST', `${urlsPath(b)}/process`, { exclude: [] });
    const list = async (query: string) =>
      (await fresh.call('GET', `${KB}?start=0&end=0${query}`)).json as { data: Array<{ uniqueId: string; status: string; type: string; sourceName: string }>; meta: { next?: { cursor: string } } };
    const first = await list('&limit=2');
    expect(first.data.map((source) => source.uniqueId)).toEqual([b, a]);
    expect(first.data.map((source) => source.status)).toEqual(['indexed', 'inSync']);
    expect(first.data[0]).toMatchObject({ type: 'website', sourceName: 'https://docs.example.com/' });
    const rest = await list(`&limit=100&cursor=${encodeURIComponent(first.meta.next?.cursor ?? '')}`);
    expect(rest.data.map((source) => source.uniqueId)).toEqual(['web_empty', 'web_blog', 'web_demo']);
    const missing = await fresh.call('GET', KB);
    expect(missing.status).toBe(400);
    expect(agentsError(missing).message).toContain("'start' and 'end' are required");
    const polled = await fresh.call('POST', `${KB}/status/poll`, { uniqueId: [a, b, 'nope'] });
    expect(polled.json).toEqual({ success: true, data: { [a]: 'inSync', [b]: 'indexed' } });
    expect((await fresh.call('PATCH', `${KB}/website/${a}/sync`)).status).toBe(200);
    expect(((await fresh.call('POST', `${KB}/status/poll`, { uniqueId: [a] })).json as { data: Record<string, string> }).data[a]).toBe('indexed');
    expect((await fresh.call('PATCH', `${KB}/uploads/${a}/sync`)).status).toBe(404);
    await fresh.close();
  });
});

describe('paging faults', () => {
  it('kbCursorForever answers the sent cursor as the next one, forever', async () => {
    const id = await seed(15);
    await emu.admin('POST', '/config', { kbCursorForever: true });
    const first = await listPage(emu, id);
    let cursor = first.meta.next?.cursor ?? '';
    for (let i = 0; i < 5; i++) {
      const page = await listPage(emu, id, `?cursor=${encodeURIComponent(cursor)}`);
      expect(page.meta.next?.cursor).toBe(cursor);
      cursor = page.meta.next?.cursor ?? '';
    }
    await expect(listAll(emu, id, 10, 50)).rejects.toThrow('more than 50 pages');
  });

  it('kbThrottleNext answers 429 with Retry-After to that many list calls, then pages normally', async () => {
    const id = await seed(5);
    await emu.admin('POST', '/config', { kbThrottleNext: 3, kbThrottleRetryAfterSeconds: 0 });
    for (let i = 0; i < 3; i++) {
      const reply = await emu.call('GET', urlsPath(id));
      expect(reply.status).toBe(429);
      expect(reply.headers.get('retry-after')).toBe('0');
      expect(agentsError(reply).error).toBe('Too Many Requests');
    }
    expect((await listAll(emu, id)).length).toBe(5);
  });

  it('seeds 10,000 URLs at once and pages them all in 100 calls with little memory', async () => {
    const before = process_memory();
    const id = await seed(10_000);
    const all = await listAll(emu, id, 100, 101);
    expect(all).toHaveLength(10_000);
    expect(new Set(all.map((record) => record.urlId)).size).toBe(10_000);
    expect(process_memory() - before).toBeLessThan(200 * 1024 * 1024);
  });
});

function process_memory(): number {
  return globalThis.process.memoryUsage().heapUsed;
}
