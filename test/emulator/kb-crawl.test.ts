// The scrape's crawl against real sites on 127.0.0.1 (port 0) and the built-in demo site.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { agentsError } from './helpers.js';
import { startTestEmulator, type TestEmulator } from '../support/emulator.js';
import { discoveredPaths, scrape, scrapeId } from './kb-helpers.js';
import { closedPort, startSite, type TestSite } from '../support/site.js';

let emu: TestEmulator;
let site: TestSite;
let other: TestSite;

beforeAll(async () => {
  emu = await startTestEmulator({ kb: { kbFetchTimeoutMs: 400, kbCrawlTimeoutMs: 5000 } });
  other = await startSite({ '/': { links: ['/x'] }, '/x': {} });
  // A tree three levels deep with a cycle (c → /), duplicate and fragment links, another origin,
  // a redirect, a missing page and a non-HTML file.
  site = await startSite({
    '/': { links: ['/b', '/a', '/a#part', 'mailto:x@example.com', `${other.origin}/`, '/gone', '/moved', '/file.txt'] },
    '/a': { links: ['/a/1', '/a/2', '/'] },
    '/b': { links: ['/b/1', '/a'] },
    '/a/1': { links: ['/a/1/deep'] },
    '/a/2': {},
    '/b/1': {},
    '/a/1/deep': {},
    '/moved': { redirect: '/target' },
    '/target': {},
    '/file.txt': { contentType: 'text/plain' },
  });
});
afterAll(async () => {
  await Promise.all([emu.close(), site.close(), other.close()]);
});

describe('scrape: a real, bounded crawl', () => {
  it('crawls breadth-first in sorted link order, same origin only, each URL once', async () => {
    const id = await scrapeId(emu, { url: `${site.origin}/` });
    // A redirect's target joins the queue when the redirect is met, at the redirect's depth.
    expect(await discoveredPaths(emu, id, site.origin)).toEqual(['/', '/a', '/b', '/file.txt', '/a/1', '/a/2', '/b/1', '/target', '/a/1/deep']);
    expect(other.requested).toEqual([]);
  });

  it('gives the same URLs in the same order on every crawl', async () => {
    const first = await discoveredPaths(emu, await scrapeId(emu, { url: `${site.origin}/` }), site.origin);
    const second = await discoveredPaths(emu, await scrapeId(emu, { url: `${site.origin}/` }), site.origin);
    expect(second).toEqual(first);
  });

  it('stops at maxDepth link hops from the start', async () => {
    expect(await discoveredPaths(emu, await scrapeId(emu, { url: `${site.origin}/`, maxDepth: 1 }), site.origin)).toEqual(['/', '/a', '/b', '/file.txt', '/target']);
    expect(await discoveredPaths(emu, await scrapeId(emu, { url: `${site.origin}/`, maxDepth: 2 }), site.origin)).not.toContain('/a/1/deep');
  });

  it('stops at maxPages discovered URLs', async () => {
    expect(await discoveredPaths(emu, await scrapeId(emu, { url: `${site.origin}/`, maxPages: 3 }), site.origin)).toEqual(['/', '/a', '/b']);
  });

  it('applies the include and exclude substrings', async () => {
    const id = await scrapeId(emu, { url: `${site.origin}/`, include: ['/a'], exclude: ['deep'] });
    expect(await discoveredPaths(emu, id, site.origin)).toEqual(['/a', '/a/1', '/a/2']);
  });

  it('crawls the built-in demo site for https://docs.example.com without the network', async () => {
    const id = await scrapeId(emu, { url: 'https://docs.example.com' });
    const paths = await discoveredPaths(emu, id, 'https://docs.example.com');
    expect(paths).toHaveLength(17);
    expect(paths.slice(0, 3)).toEqual(['/', '/api', '/blog']);
    expect(paths).toContain('/blog/hello-world');
    expect(paths).toContain('/changelog/2025');
  });

  it('serves the same demo site over HTTP under /__emulator/sites/docs/, and crawls it there', async () => {
    const page = await fetch(`${emu.origin}/__emulator/sites/docs/install`);
    expect(page.headers.get('content-type')).toContain('text/html');
    expect(await page.text()).toContain('<title>Install</title>');
    const origin = `${emu.origin}/__emulator/sites/docs`;
    const paths = await discoveredPaths(emu, await scrapeId(emu, { url: `${origin}/` }), origin);
    expect(paths).toHaveLength(17);
  });

  it('reads the sitemap when asked', async () => {
    const reply = await scrape(emu, { url: 'https://docs.example.com', fetchSitemap: true, maxDepth: 1 });
    const sitemap = (reply.json as { data: { sitemap: { found: boolean; totalUrls: number; urls: string[] } } }).data.sitemap;
    expect(sitemap.found).toBe(true);
    expect(sitemap.totalUrls).toBe(18);
    expect(sitemap.urls[0]).toBe('https://docs.example.com/');
  });

  it("crawls the sitemap's URLs as links of the start page, within maxPages and the include/exclude substrings", async () => {
    const demo = 'https://docs.example.com';
    const crawled = async (body: Record<string, unknown>): Promise<string[]> => discoveredPaths(emu, await scrapeId(emu, { url: demo, ...body }), demo);
    // /archive is linked from no page: only the sitemap lists it.
    expect(await crawled({})).not.toContain('/archive');
    expect(await crawled({ fetchSitemap: true })).toContain('/archive');
    // One hop from the start: found even at maxDepth 1, and before the start page's own links.
    expect(await crawled({ fetchSitemap: true, maxDepth: 1, maxPages: 3 })).toEqual(['/', '/getting-started', '/install']);
    expect(await crawled({ fetchSitemap: true, include: ['/arch', '/faq'] })).toEqual(['/faq', '/archive']);
    expect(await crawled({ fetchSitemap: true, exclude: ['/archive'] })).not.toContain('/archive');
    expect(await crawled({ include: ['/arch'] })).toEqual([]);
  });

  it('answers a clean 500 at once for a site nobody listens on', async () => {
    const port = await closedPort();
    const started = Date.now();
    const reply = await scrape(emu, { url: `http://127.0.0.1:${port}/` });
    expect(reply.status).toBe(500);
    expect(agentsError(reply).message).toMatch(/^Failed to scrape website: cannot fetch http:\/\/127\.0\.0\.1:\d+\/: ECONNREFUSED/);
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it('answers 500 within the fetch timeout for a site that never answers, and skips slow inner pages', async () => {
    const slow = await startSite({ '/': { hang: true } });
    const started = Date.now();
    const reply = await scrape(emu, { url: `${slow.origin}/` });
    expect(reply.status).toBe(500);
    expect(agentsError(reply).message).toContain('no answer within 400 ms');
    expect(Date.now() - started).toBeLessThan(3000);
    await slow.close();
    const mixed = await startSite({ '/': { links: ['/ok', '/stuck'] }, '/ok': {}, '/stuck': { hang: true } });
    expect(await discoveredPaths(emu, await scrapeId(emu, { url: `${mixed.origin}/` }), mixed.origin)).toEqual(['/', '/ok']);
    await mixed.close();
  });

  it('ends a crawl at the whole-crawl time bound with what it found', async () => {
    const bounded = await startTestEmulator({ kb: { kbCrawlTimeoutMs: 300 } });
    const links = Array.from({ length: 40 }, (_, i) => `/p${i}`);
    const pages = Object.fromEntries([['/', { links }], ...links.map((link) => [link, { delayMs: 60 }])]);
    const slowSite = await startSite(pages);
    const started = Date.now();
    const reply = await scrape(bounded, { url: `${slowSite.origin}/` });
    expect(reply.status).toBe(200);
    expect((reply.json as { message: string }).message).toContain('time bound');
    expect(Date.now() - started).toBeLessThan(2000);
    const found = await discoveredPaths(bounded, (reply.json as { data: { crawlId: string } }).data.crawlId, slowSite.origin);
    expect(found.length).toBeGreaterThan(0);
    expect(found.length).toBeLessThan(41);
    await Promise.all([bounded.close(), slowSite.close()]);
  });

  it('reads an endless page only to its cap, and a page of 5,000 links only to maxPages', async () => {
    const endless = createServer((req, res) => {
      res.writeHead(200, { 'content-type': 'text/html' });
      const chunk = `<a href="/x">x</a>${' '.repeat(256 * 1024)}`;
      const timer = setInterval(() => res.write(chunk), 1);
      res.on('close', () => clearInterval(timer));
    });
    await new Promise<void>((resolve) => endless.listen(0, '127.0.0.1', resolve));
    const reply = await scrape(emu, { url: `http://127.0.0.1:${(endless.address() as AddressInfo).port}/`, maxDepth: 1 });
    expect(reply.status).toBe(200);
    endless.closeAllConnections();
    endless.close();
    const links = Array.from({ length: 5000 }, (_, i) => `/l${i}`);
    const wide = await startSite(Object.fromEntries([['/', { links }], ...links.map((link) => [link, {}])]));
    const paths = await discoveredPaths(emu, await scrapeId(emu, { url: `${wide.origin}/`, maxPages: 50 }), wide.origin);
    expect(paths).toHaveLength(50);
    expect(wide.requested.length).toBeLessThan(60);
    await wide.close();
  });

  it('ends a running crawl when the emulator closes, so nothing outlives it', async () => {
    const stopping = await startTestEmulator({ kb: { kbFetchTimeoutMs: 60_000 } });
    const stuck = await startSite({ '/': { hang: true } });
    const pending = scrape(stopping, { url: `${stuck.origin}/` }).catch((err: unknown) => err);
    while (stuck.requested.length === 0) await new Promise((resolve) => setTimeout(resolve, 10));
    const started = Date.now();
    await stopping.close();
    await pending;
    expect(Date.now() - started).toBeLessThan(2500);
    await stuck.close();
  });

  it.each([
    ['another host', { url: 'https://example.org/' }, 400, 'does not reach the network'],
    ['https on loopback', { url: 'https://127.0.0.1:9/' }, 400, 'does not reach the network'],
    ['a missing url', {}, 400, "'url' is required"],
    ['a non-http url', { url: 'ftp://127.0.0.1/' }, 400, 'Invalid URL format'],
    ['text that is no URL', { url: 'docs' }, 400, 'Invalid URL format'],
    ['maxDepth 0', { url: 'https://docs.example.com', maxDepth: 0 }, 400, "'maxDepth' must be a whole number from 1 to 10"],
    ['maxDepth 11', { url: 'https://docs.example.com', maxDepth: 11 }, 400, "'maxDepth'"],
    ['maxPages 10001', { url: 'https://docs.example.com', maxPages: 10_001 }, 400, "'maxPages' must be a whole number from 1 to 10000"],
    ['an unknown field', { url: 'https://docs.example.com', depth: 2 }, 400, "'depth'"],
    ['include not an array', { url: 'https://docs.example.com', include: 'docs' }, 400, "'include'"],
  ])('400s %s, creating nothing', async (_label, body, status, message) => {
    const before = (await emu.call('GET', '/ai-agents/agent-builder/knowledge-base?start=0&end=0&limit=100')).json as { data: unknown[] };
    const reply = await scrape(emu, body);
    expect(reply.status).toBe(status);
    expect(agentsError(reply).message).toContain(message);
    const after = (await emu.call('GET', '/ai-agents/agent-builder/knowledge-base?start=0&end=0&limit=100')).json as { data: unknown[] };
    expect(after.data.length).toBe(before.data.length);
  });
});
