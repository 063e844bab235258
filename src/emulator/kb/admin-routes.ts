// The knowledge base's `/__emulator/*` endpoints: move the KB clock forward, and create a website
// with N discovered URLs at once (no crawl), for tests of paging and of big websites.
import { randomUUID } from 'node:crypto';
import { badRequest } from '../errors.js';
import type { Route } from '../router.js';
import type { DiscoveredUrl, DiscoveredUrlStatus } from '../store.js';
import { isHttpUrl, rejectUnknownKeys, requireObjectBody } from '../validate.js';
import type { KbContext } from './context.js';

const SEED_KEYS = new Set(['count', 'url', 'parentUniqueId', 'status']);
const PAGE_KEYS = new Set(['url', 'html']);
const SEED_STATUSES: readonly DiscoveredUrlStatus[] = ['discovered', 'processed', 'failed'];
export const MAX_SEEDED_URLS = 100_000;

export function kbAdminRoutes(kb: KbContext): Route[] {
  return [
    {
      pattern: '/__emulator/clock',
      methods: {
        GET: () => ({ status: 200, body: { now: kb.clock.now() } }),
        // `{advanceMs}`: everything time-driven (indexing) sees that much time pass at once.
        POST: (request) => {
          const { advanceMs } = requireObjectBody(request.body);
          if (typeof advanceMs !== 'number' || !Number.isSafeInteger(advanceMs) || advanceMs < 0) throw badRequest("'advanceMs' must be a whole number ≥ 0.");
          return { status: 200, body: { now: kb.clock.advance(advanceMs) } };
        },
      },
    },
    {
      pattern: '/__emulator/kb/pages',
      methods: {
        // `{url, html}`: the page at url answers html from now on (a crawl, sync or re-index sees it); `html: null` restores the site.
        POST: (request) => {
          const body = requireObjectBody(request.body);
          rejectUnknownKeys(body, PAGE_KEYS, '');
          const { url, html } = body;
          if (typeof url !== 'string' || !isHttpUrl(url)) throw badRequest("'url' must be an http(s) URL.");
          const page = new URL(url).href;
          if (html === null) kb.pageOverrides.delete(page);
          else if (typeof html === 'string') kb.pageOverrides.set(page, html);
          else throw badRequest("'html' must be a string (the page's new HTML) or null (serve the site's own page again).");
          return { status: 200, body: { pages: [...kb.pageOverrides.keys()] } };
        },
      },
    },
    {
      pattern: '/__emulator/kb/websites',
      methods: {
        // `{count, url?, parentUniqueId?, status?}` → `{parentUniqueId, count}`; URLs are `<url>/page/<i>`.
        POST: (request) => {
          const body = requireObjectBody(request.body);
          rejectUnknownKeys(body, SEED_KEYS, '');
          const { count, url = 'https://seeded.example.com', parentUniqueId = randomUUID(), status = 'discovered' } = body;
          if (typeof count !== 'number' || !Number.isSafeInteger(count) || count < 0 || count > MAX_SEEDED_URLS) throw badRequest(`'count' must be a whole number from 0 to ${MAX_SEEDED_URLS}.`);
          if (typeof url !== 'string' || !isHttpUrl(url)) throw badRequest("'url' must be an http(s) URL.");
          if (typeof parentUniqueId !== 'string' || parentUniqueId.trim() === '' || parentUniqueId.includes('/')) throw badRequest("'parentUniqueId' must be a non-empty string without '/'.");
          if (!SEED_STATUSES.includes(status as DiscoveredUrlStatus)) throw badRequest(`'status' must be one of ${SEED_STATUSES.join(', ')}.`);
          const now = kb.clock.now();
          const base = url.replace(/\/+$/, '');
          const discoveredUrls: DiscoveredUrl[] = Array.from({ length: count }, (_, index) => ({
            uniqueId: randomUUID(),
            url: `${base}/page/${index + 1}`,
            status: status as DiscoveredUrlStatus,
            seq: index + 1,
            title: `Page ${index + 1}`,
            createdAt: now,
            updatedAt: now,
            lastCrawledAt: now,
            retryCount: 0,
          }));
          kb.store.putWebsite({ parentUniqueId, url: base, discoveredUrls, lastBatchId: null, createdAt: now, updatedAt: now });
          kb.store.changed();
          return { status: 200, body: { parentUniqueId, count } };
        },
      },
    },
  ];
}
