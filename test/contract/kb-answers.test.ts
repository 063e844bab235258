// The emulator's knowledge-base answers against the reference (version A, the one with every
// knowledge-base operation; O agrees where it documents a schema): each answer must pass the
// response schema, and carry no field at the top, in `data` or in `meta` that the schema does not
// name, except the one documented extra (a discovered URL's `uniqueId` beside `urlId`).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestEmulator, type Reply, type TestEmulator } from '../support/emulator.js';
import { findOperation, REFERENCE_VERSIONS, validateComponent, validateRequestBody, validateResponse } from './openapi.js';

const KB = '/ai-agents/agent-builder/knowledge-base';
const urls = (id: string): string => `${KB}/website/${id}/discovered-urls`;
const A = { versions: ['A'] as const };

interface Schema {
  properties?: Record<string, Schema>;
  items?: Schema;
}

/** Keys of `value` (and of its `data`/`meta` objects and `data[]` items) that the 200 schema does not declare. */
function undeclared(method: string, path: string, value: unknown, allowed: readonly string[] = []): string[] {
  const schema = findOperation('A', method, path)?.operation.responses?.['200']?.content?.['application/json']?.schema as Schema | undefined;
  const out: string[] = [];
  const walk = (object: unknown, shape: Schema | undefined, where: string, depth: number): void => {
    if (!shape?.properties || typeof object !== 'object' || object === null || depth > 3) return;
    for (const [key, child] of Object.entries(object)) {
      const declared = shape.properties[key];
      if (!declared && !allowed.includes(key)) out.push(`${where}${key}`);
      if (Array.isArray(child)) for (const item of child) walk(item, declared?.items, `${where}${key}[].`, depth + 1);
      else walk(child, declared, `${where}${key}.`, depth + 1);
    }
  };
  walk(value, schema, '', 0);
  return out;
}

function expectAnswer(reply: Reply, method: string, path: string, status: number, allowed: readonly string[] = []): void {
  expect(reply.status, JSON.stringify(reply.json)).toBe(status);
  expect(validateResponse(method, path, status, reply.json, A)).toEqual([]);
  if (status === 200) expect(undeclared(method, path, reply.json, allowed)).toEqual([]);
}

function expectErrorResponse(reply: Reply): void {
  for (const version of REFERENCE_VERSIONS) expect(validateComponent(version, 'ErrorResponse', reply.json)).toEqual([]);
}

let emu: TestEmulator;
let id: string;
beforeAll(async () => {
  emu = await startTestEmulator({ kb: { kbProcessingMs: 0 } });
});
afterAll(() => emu.close());

describe('knowledge-base answers match the reference', () => {
  it('POST …/website/scrape: 200 (crawlId is the website id); 400 and 500 in the inline error shape', async () => {
    const path = `${KB}/website/scrape`;
    const body = { url: 'https://docs.example.com', maxDepth: 3, maxPages: 5, fetchSitemap: true };
    expect(validateRequestBody('POST', path, body, A)).toEqual([]);
    const reply = await emu.call('POST', path, body);
    expectAnswer(reply, 'POST', path, 200);
    id = (reply.json as { data: { crawlId: string } }).data.crawlId;
    for (const [bad, status] of [
      [{ url: 'nope' }, 400],
      [{ url: 'http://127.0.0.1:9/' }, 500],
    ] as const) {
      const error = await emu.call('POST', path, bad);
      expectAnswer(error, 'POST', path, status);
      expectErrorResponse(error);
    }
  });

  it('GET …/discovered-urls: 200 with data and meta (urlId plus the uniqueId extra); 400; 404 as ErrorResponse', async () => {
    const first = await emu.call('GET', `${urls(id)}?limit=2`);
    expectAnswer(first, 'GET', urls(id), 200, ['uniqueId']);
    const cursor = (first.json as { meta: { next: { cursor: string } } }).meta.next.cursor;
    expectAnswer(await emu.call('GET', `${urls(id)}?limit=2&cursor=${cursor}`), 'GET', urls(id), 200, ['uniqueId']);
    expectAnswer(await emu.call('GET', `${urls(id)}?limit=500`), 'GET', urls(id), 400);
    const unknown = await emu.call('GET', urls('nope'));
    expect(unknown.status).toBe(404);
    expectErrorResponse(unknown);
  });

  it('POST …/process, …/status/poll and PATCH …/sync: 200 bodies as documented; 400/404', async () => {
    const all = ((await emu.call('GET', `${urls(id)}?limit=100`)).json as { data: Array<{ urlId: string }> }).data.map((record) => record.urlId);
    const processBody = { exclude: [all[0]] };
    expect(validateRequestBody('POST', `${urls(id)}/process`, processBody)).toEqual([]);
    expectAnswer(await emu.call('POST', `${urls(id)}/process`, processBody), 'POST', `${urls(id)}/process`, 200);
    const pollBody = { uniqueId: all };
    expect(validateRequestBody('POST', `${urls(id)}/status/poll`, pollBody, A)).toEqual([]);
    const polled = await emu.call('POST', `${urls(id)}/status/poll`, pollBody);
    expectAnswer(polled, 'POST', `${urls(id)}/status/poll`, 200);
    expect(polled.json).toMatchObject({ success: true, data: { [all[1] as string]: 'processed' } });
    const syncBody = { uniqueIds: all };
    expect(validateRequestBody('PATCH', `${urls(id)}/sync`, syncBody, A)).toEqual([]);
    expectAnswer(await emu.call('PATCH', `${urls(id)}/sync`, syncBody), 'PATCH', `${urls(id)}/sync`, 200);
    expectAnswer(await emu.call('PATCH', `${urls(id)}/sync`, { uniqueIds: [] }), 'PATCH', `${urls(id)}/sync`, 400);
    expectAnswer(await emu.call('PATCH', `${urls(id)}/sync`, { uniqueIds: [all[0]] }), 'PATCH', `${urls(id)}/sync`, 404);
  });

  it('GET /knowledge-base: 200 with data and meta; 400 without start/end', async () => {
    const reply = await emu.call('GET', `${KB}?start=0&end=0&limit=2`);
    expectAnswer(reply, 'GET', KB, 200);
    expect((reply.json as { meta: { next?: unknown } }).meta.next).toBeDefined();
    expectAnswer(await emu.call('GET', KB), 'GET', KB, 400);
  });

  it('POST /knowledge-base/status/poll and PATCH …/{sourceType}/{uniqueId}/sync: 200', async () => {
    const body = { uniqueId: [id] };
    expect(validateRequestBody('POST', `${KB}/status/poll`, body, A)).toEqual([]);
    expectAnswer(await emu.call('POST', `${KB}/status/poll`, body), 'POST', `${KB}/status/poll`, 200);
    const sync = await emu.call('PATCH', `${KB}/website/${id}/sync`);
    expect(validateResponse('PATCH', `${KB}/website/${id}/sync`, sync.status, sync.json, A)).toEqual([]);
    expect(sync.status).toBe(200);
    expectAnswer(await emu.call('PATCH', `${KB}/website/nope/sync`), 'PATCH', `${KB}/website/nope/sync`, 404);
  });

  it('DELETE …/website/{uniqueId}: 200, then 404, both as documented', async () => {
    const path = `${KB}/website/${id}`;
    expectAnswer(await emu.call('DELETE', path), 'DELETE', path, 200);
    const again = await emu.call('DELETE', path);
    expectAnswer(again, 'DELETE', path, 404);
    expectErrorResponse(again);
  });
});
