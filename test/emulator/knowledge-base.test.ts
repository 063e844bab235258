import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ProcessUrlsResponse } from '../../src/core/api-types.js';
import { startTestEmulator, type TestEmulator } from '../support/emulator.js';
import { agentsError, errorMessage } from './helpers.js';

let emu: TestEmulator;
beforeAll(async () => {
  emu = await startTestEmulator();
});
afterAll(() => emu.close());

const base = '/ai-agents/agent-builder/knowledge-base/website';
const processUrls = (website: string, body: unknown) => emu.call('POST', `${base}/${website}/discovered-urls/process`, body);

interface DiscoveredUrlList {
  success: boolean;
  data: Array<{ uniqueId: string; urlId: string; url: string; status: string }>;
}

describe('knowledge base', () => {
  it('lists the ten discovered URLs of web_demo', async () => {
    const reply = await emu.call('GET', `${base}/web_demo/discovered-urls`);
    expect(reply.status).toBe(200);
    const list = reply.json as DiscoveredUrlList;
    expect(list.data.map((entry) => entry.uniqueId)).toEqual(Array.from({ length: 10 }, (_, i) => `url_${i + 1}`));
    expect(list.data.every((entry) => entry.url.startsWith('https://docs.example.com'))).toBe(true);
    // Version A calls the id urlId; both names carry it.
    expect(list.data.every((entry) => entry.urlId === entry.uniqueId)).toBe(true);
  });

  it('starts a batch of the URLs not excluded', async () => {
    const reply = await processUrls('web_demo', { exclude: ['url_7', 'url_9'] });
    expect(reply.status).toBe(200);
    const body = reply.json as ProcessUrlsResponse;
    expect(body).toMatchObject({ success: true, message: 'Batch processing initiated successfully', data: { urlsProcessed: 0, totalUrls: 8, status: 'processing' } });
    expect(body.data.batchId).toMatch(/^batch-/);
    expect(URL.canParse(body.data.webhookUrl)).toBe(true);
    const list = (await emu.call('GET', `${base}/web_demo/discovered-urls`)).json as DiscoveredUrlList;
    const statusOf = (id: string) => list.data.find((entry) => entry.uniqueId === id)?.status;
    expect([statusOf('url_7'), statusOf('url_1')]).toEqual(['skipped', 'processing']);
  });

  it('accepts an empty exclude, counts duplicates once, and gives each batch its own id', async () => {
    const all = (await processUrls('web_demo', { exclude: [] })).json as ProcessUrlsResponse;
    expect(all.data.totalUrls).toBe(10);
    const dup = (await processUrls('web_demo', { exclude: ['url_1', 'url_1'] })).json as ProcessUrlsResponse;
    expect(dup.data.totalUrls).toBe(9);
    expect(dup.data.batchId).not.toBe(all.data.batchId);
  });

  it('answers 404 for an unknown website', async () => {
    for (const reply of [await processUrls('web_nope', { exclude: [] }), await emu.call('GET', `${base}/web_nope/discovered-urls`)]) {
      expect(reply.status).toBe(404);
      expect(agentsError(reply)).toMatchObject({ statusCode: 404, error: 'Not Found' });
      expect(errorMessage(reply)).toContain("'web_nope'");
    }
  });

  it('answers 404 naming the website when every discovered URL is excluded, and changes nothing', async () => {
    const before = ((await emu.call('GET', `${base}/web_blog/discovered-urls`)).json as DiscoveredUrlList).data;
    const reply = await processUrls('web_blog', { exclude: ['blog_1', 'blog_2', 'blog_3'] });
    expect(reply.status).toBe(404);
    expect(agentsError(reply).message).toBe("No valid URLs to process: website 'web_blog' (https://blog.example.com) has every discovered URL excluded.");
    expect(((await emu.call('GET', `${base}/web_blog/discovered-urls`)).json as DiscoveredUrlList).data).toEqual(before);
  });

  it('answers 404 for a website with no discovered URLs (the seed has one: web_empty)', async () => {
    const reply = await processUrls('web_empty', { exclude: [] });
    expect(reply.status).toBe(404);
    expect(agentsError(reply).message).toContain("website 'web_empty' (https://empty.example.com) has no discovered URLs");
  });

  it('lets already processed URLs be processed again, so a changed exclude list applies', async () => {
    const first = (await processUrls('web_blog', { exclude: ['blog_1'] })).json as ProcessUrlsResponse;
    expect(first.data.totalUrls).toBe(2);
    const second = await processUrls('web_blog', { exclude: ['blog_2', 'blog_3'] });
    expect(second.status).toBe(200);
    expect((second.json as ProcessUrlsResponse).data.totalUrls).toBe(1);
    const list = ((await emu.call('GET', `${base}/web_blog/discovered-urls`)).json as DiscoveredUrlList).data;
    expect(list.map((entry) => entry.status)).toEqual(['processing', 'skipped', 'skipped']);
  });

  it('400s excluded ids that are not discovered URLs of that website, naming them', async () => {
    const reply = await processUrls('web_demo', { exclude: ['url_1', 'url_99', 'blog_1'] });
    expect(reply.status).toBe(400);
    expect(errorMessage(reply)).toContain("'url_99'");
    expect(errorMessage(reply)).toContain("'blog_1'");
    expect(errorMessage(reply)).not.toContain("'url_1'");
  });

  it.each([
    ['a missing exclude', {}],
    ['a null exclude', { exclude: null }],
    ['an exclude that is not an array', { exclude: 'url_1' }],
    ['an exclude with non-strings', { exclude: [1] }],
    ['an unknown field', { exclude: [], appId: 'x' }],
  ])('400s %s', async (_label, body) => {
    const reply = await processUrls('web_demo', body);
    expect(reply.status).toBe(400);
    expect(agentsError(reply).error).toBe('Bad Request');
  });
});
