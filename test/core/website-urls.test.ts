import { describe, expect, it } from 'vitest';
import { readDiscoveredUrls } from '../../src/core/kinds/website-urls.js';
import { fingerprintOf, matchWebsite } from '../../src/core/kinds/website-match.js';

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
