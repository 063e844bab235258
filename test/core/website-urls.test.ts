import { describe, expect, it } from 'vitest';
import { MAX_DISCOVERED_URL_BYTES, MAX_DISCOVERED_URL_CHARS, MAX_DISCOVERED_URLS, readDiscoveredUrls, URL_PAGE_BYTES, type PageLimits } from '../../src/core/kinds/website/urls.js';
import { fingerprintOf, matchWebsite } from '../../src/core/kinds/website/match.js';

/** A server of `total` URLs in pages of the asked limit, cursor = the last id of the page. */
function pagedServer(total: number, shape: (i: number) => Record<string, unknown> = (i) => ({ urlId: `u${i}`, url: `https://d.com/p/${i}`, status: 'discovered' })) {
  const asked: string[] = [];
  const get = async (path: string): Promise<unknown> => {
    asked.push(path);
    const query = new URL(path, 'http://x').searchParams;
    const limit = Number(query.get('limit'));
    const from = query.get('cursor') === null ? 0 : Number(query.get('cursor')) + 1;
    const data = Array.from({ length: Math.max(0, Math.min(limit, total - from)) }, (_, k) => shape(from + k));
    const last = from + data.length - 1;
    return { data, meta: { current: { limit, count: data.length }, ...(last < total - 1 ? { next: { affix: 'append', cursor: String(last) } } : {}) } };
  };
  return { get, asked };
}

describe('reading discovered URLs', () => {
  it('follows meta.next through every page, 100 at a time', async () => {
    const server = pagedServer(250);
    const urls = await readDiscoveredUrls(server.get, 'web 1', 'website.docs');
    expect(urls).toHaveLength(250);
    expect(urls[249]).toEqual({ id: 'u249', url: 'https://d.com/p/249', status: 'discovered' });
    expect(server.asked).toEqual([
      '/ai-agents/agent-builder/knowledge-base/website/web%201/discovered-urls?limit=100',
      '/ai-agents/agent-builder/knowledge-base/website/web%201/discovered-urls?limit=100&cursor=99&affix=append',
      '/ai-agents/agent-builder/knowledge-base/website/web%201/discovered-urls?limit=100&cursor=199&affix=append',
    ]);
  });

  it('reads the id as urlId (the reference) or uniqueId (the seed)', async () => {
    const urls = await readDiscoveredUrls(pagedServer(2, (i) => ({ uniqueId: `s${i}`, url: `https://d.com/${i}` })).get, 'w', 'website.docs');
    expect(urls.map((u) => u.id)).toEqual(['s0', 's1']);
  });

  it('refuses a server that answers the same cursor forever, or pages past the bound', async () => {
    const forever = async (): Promise<unknown> => ({ data: [{ urlId: 'a', url: 'https://d.com/a' }], meta: { next: { cursor: 'same' } } });
    await expect(readDiscoveredUrls(forever, 'w', 'website.docs')).rejects.toThrow('website.docs: the server answered the same cursor twice while listing discovered URLs (page 3)');
    let n = 0;
    const endless = async (): Promise<unknown> => ({ data: [], meta: { next: { cursor: String(n++) } } });
    await expect(readDiscoveredUrls(endless, 'w', 'website.docs', 50)).rejects.toThrow('still had more discovered URLs after 50 pages');
  });

  it('bounds the URLs kept, whatever each page holds: a server that ignores limit is refused on the page that passes the bound', async () => {
    let pages = 0;
    // 100,000 entries a page with a new cursor each time: before the bound this read 5 pages (and, with no end, ran out of memory).
    const flood = async (): Promise<unknown> => {
      pages++;
      const data = Array.from({ length: 100_000 }, (_, k) => ({ urlId: `p${pages}-${k}`, url: `https://d.com/${pages}/${k}` }));
      return { data, meta: pages < 5 ? { next: { cursor: `c${pages}` } } : {} };
    };
    await expect(readDiscoveredUrls(flood, 'w', 'website.docs')).rejects.toThrow(
      `website.docs: the server listed more than ${MAX_DISCOVERED_URLS.toLocaleString('en-US')} discovered URLs (page 2); stopped reading: a crawl finds at most 10,000 pages, so the server is not paging as asked (limit=100)`,
    );
    expect(pages).toBe(2);
  });

  it('bounds the text kept: a few enormous URLs are refused too', async () => {
    const huge = 'x'.repeat(1024 * 1024);
    let page = 0;
    const giants = async (): Promise<unknown> => ({
      data: Array.from({ length: 10 }, (_, k) => ({ urlId: `g${page}-${k}`, url: `https://d.com/${huge}` })),
      meta: { next: { cursor: String(++page) } },
    });
    await expect(readDiscoveredUrls(giants, 'w', 'website.docs')).rejects.toThrow(
      `website.docs: the discovered URLs hold more than ${MAX_DISCOVERED_URL_CHARS / (1024 * 1024)} M characters of text (page 4); stopped reading`,
    );
  });

  it('asks each page for at most URL_PAGE_BYTES and stops when the answers add up past the bound', async () => {
    const asked: number[] = [];
    let page = 0;
    const heavy = async (_path: string, limits: PageLimits): Promise<unknown> => {
      asked.push(limits.maxResponseBytes);
      limits.onAnswerBytes(URL_PAGE_BYTES);
      return { data: [{ urlId: `h${page}`, url: 'https://d.com/h' }], meta: { next: { cursor: String(++page) } } };
    };
    await expect(readDiscoveredUrls(heavy, 'w', 'website.docs')).rejects.toThrow(
      `website.docs: the discovered-URL pages add up to more than ${MAX_DISCOVERED_URL_BYTES / (1024 * 1024)} MB; stopped reading`,
    );
    expect(asked[0]).toBe(URL_PAGE_BYTES);
    expect(asked.length).toBe(MAX_DISCOVERED_URL_BYTES / URL_PAGE_BYTES);
  });

  it('refuses an answer that is not a page, or an entry without an id', async () => {
    await expect(readDiscoveredUrls(async () => [], 'w', 'website.docs')).rejects.toThrow('did not answer {data: [...]}');
    await expect(readDiscoveredUrls(async () => ({ data: [{ url: 'https://d.com' }] }), 'w', 'website.docs')).rejects.toThrow('without an id or a url');
  });
});

describe('matching globs to discovered URLs', () => {
  const urls = ['https://d.com/', 'https://d.com/blog/a', 'https://d.com/blog/b', 'https://d.com/changelog'].map((url, i) => ({ id: `u${i}`, url, status: 'discovered' }));
  it('counts per glob, names the first glob that excludes each URL, and fingerprints the excluded set', () => {
    const match = matchWebsite(['**/changelog*', 'https://d.com/blog/**', '**/none'], urls);
    expect(match.counts).toEqual([
      { glob: '**/changelog*', excludes: 1 },
      { glob: 'https://d.com/blog/**', excludes: 2 },
      { glob: '**/none', excludes: 0 },
    ]);
    expect(match.excludeIds).toEqual(['u1', 'u2', 'u3']);
    expect(match.processIds).toEqual(['u0']);
    expect([...match.excludedBy]).toEqual([-1, 1, 1, 0]);
    expect(match.fingerprint).toBe(fingerprintOf(['u3', 'u2', 'u1']));
    expect(match.fingerprint).toMatch(/^3 URLs #[0-9a-f]{16}$/);
    expect(fingerprintOf(['u1', 'u2'])).not.toBe(fingerprintOf(['u1', 'u3']));
  });
});
