// Knowledge base, whole sources: scrape a website (a real, bounded crawl; see kb/crawl.ts), delete
// one, list them, poll their status and re-index one. The scrape's answer names the new website's
// id `crawlId` (the only id field the reference's scrape answer has); that id is the
// `{parentUniqueId}` of the discovered-urls routes and the `{uniqueId}` of delete and of the list.
import { randomUUID } from 'node:crypto';
import { ApiError, badRequest, DropConnection, notFound } from '../../errors.js';
import { findWebsite, type KbContext } from '../../kb/context.js';
import { crawl, CrawlFailed, type CrawlSettings } from '../../kb/crawl.js';
import { fetcherFor } from '../../kb/fetchers.js';
import { withOverrides } from '../../kb/refetch.js';
import { pageOf, readPageRequest } from '../../kb/paging.js';
import { startFileIndexing } from '../../kb/progress.js';
import { locateSource, presentSource, sourceKey, sourcesNewestFirst, sourceStatus, type SourceEntry } from '../../kb/source-list.js';
import type { ApiRequest, ApiResponse, Route } from '../../router.js';
import type { DiscoveredUrl, Website } from '../../store.js';
import { optionalBoolean, rejectUnknownKeys, requireObjectBody, requireStringArray } from '../../validate.js';
import type { JsonObject } from '../../../core/api-types.js';
import { resyncWebsite, timeParameter } from './discovered-urls.js';

const KB_PATH = '/ai-agents/agent-builder/knowledge-base';
const SCRAPE_KEYS = new Set(['url', 'maxDepth', 'maxPages', 'include', 'exclude', 'fetchSitemap']);
const POLL_KEYS = new Set(['uniqueId']);

export function knowledgeBaseSourceRoutes(kb: KbContext): Route[] {
  return [
    // Listed before `website/:uniqueId`, so `website/scrape` is never taken for a website id.
    { pattern: `${KB_PATH}/website/scrape`, methods: { POST: (request) => scrape(kb, request) } },
    { pattern: `${KB_PATH}/website/:uniqueId`, methods: { DELETE: (request) => deleteWebsite(kb, request) } },
    { pattern: KB_PATH, methods: { GET: (request) => listSources(kb, request) } },
    { pattern: `${KB_PATH}/status/poll`, methods: { POST: (request) => pollSources(kb, request) } },
    { pattern: `${KB_PATH}/:sourceType/:uniqueId/sync`, methods: { PATCH: (request) => resyncSource(kb, request) }, bodyOptional: true },
  ];
}

async function scrape(kb: KbContext, request: ApiRequest): Promise<ApiResponse> {
  const settings = readScrapeBody(requireObjectBody(request.body), kb);
  const fetcher = withOverrides(fetcherFor(settings.start), kb.pageOverrides);
  if (!fetcher) {
    throw badRequest(`The emulator does not reach the network: it crawls http://127.0.0.1:<port>, http://localhost:<port> and its demo site https://docs.example.com, not ${settings.start.origin}.`);
  }
  const startedAt = kb.clock.now();
  let result;
  try {
    result = await crawl(settings, fetcher);
  } catch (err) {
    if (err instanceof CrawlFailed) throw new ApiError(500, 'ERR_KB_INDEXING_FAILED', `Failed to scrape website: ${err.message}`);
    throw err;
  }
  const now = kb.clock.now();
  const discoveredUrls: DiscoveredUrl[] = result.pages.map((page, index) => ({
    uniqueId: randomUUID(),
    url: page.url,
    status: 'discovered',
    seq: index + 1,
    title: page.title,
    description: page.description,
    content: page.content,
    createdAt: now,
    updatedAt: now,
    lastCrawledAt: now,
    retryCount: 0,
  }));
  const website: Website = {
    parentUniqueId: randomUUID(),
    url: settings.start.href,
    discoveredUrls,
    lastBatchId: null,
    maxDepth: settings.maxDepth,
    maxPages: settings.maxPages,
    createdAt: now,
    updatedAt: now,
  };
  kb.store.putWebsite(website);
  kb.store.changed();
  if (kb.config.kbScrapeDropNext > 0) {
    // The fault: the website is stored, but its answer is lost (a reset connection, a client timeout).
    kb.config.kbScrapeDropNext--;
    throw new DropConnection('kbScrapeDropNext');
  }
  const sitemap = result.sitemap ?? { found: false, urls: [] };
  return {
    status: 200,
    body: {
      success: true,
      message: result.cutShort ? 'Website scrape completed (stopped at the crawl time bound)' : 'Website scrape completed successfully',
      data: {
        crawlId: website.parentUniqueId,
        crawlDuration: now - startedAt,
        status: 'completed',
        sitemap: { ...sitemap, totalUrls: sitemap.urls.length },
      },
    },
  };
}

/** ScrapePagesDto: `url` required; maxDepth 1–10 (default 3); maxPages 1–10000 (default 100). */
function readScrapeBody(body: JsonObject, kb: KbContext): CrawlSettings {
  rejectUnknownKeys(body, SCRAPE_KEYS, '');
  const url = body.url;
  if (url === undefined || url === null) throw badRequest("'url' is required.");
  if (typeof url !== 'string' || !URL.canParse(url) || !/^https?:$/.test(new URL(url).protocol)) throw badRequest('Invalid URL format');
  return {
    start: new URL(url),
    maxDepth: boundedInteger(body.maxDepth, 'maxDepth', 1, 10, 3),
    maxPages: boundedInteger(body.maxPages, 'maxPages', 1, 10_000, 100),
    include: body.include === undefined ? [] : requireStringArray(body.include, 'include'),
    exclude: body.exclude === undefined ? [] : requireStringArray(body.exclude, 'exclude'),
    fetchSitemap: optionalBoolean(body, 'fetchSitemap') ?? false,
    fetchTimeoutMs: kb.config.kbFetchTimeoutMs,
    crawlTimeoutMs: kb.config.kbCrawlTimeoutMs,
    stop: kb.stop,
  };
}

function boundedInteger(value: unknown, field: string, min: number, max: number, fallback: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) throw badRequest(`'${field}' must be a whole number from ${min} to ${max}.`);
  return value;
}

function deleteWebsite(kb: KbContext, request: ApiRequest): ApiResponse {
  const id = request.params.uniqueId ?? '';
  if (kb.config.kbDeleteFailNext > 0) {
    kb.config.kbDeleteFailNext--;
    throw new ApiError(500, 'ERR_INTERNAL', `Failed to delete website '${id}' (injected by kbDeleteFailNext).`);
  }
  if (!kb.store.deleteWebsite(id)) throw notFound('ERR_KB_NOT_FOUND', `Website '${id}' does not exist in this app's knowledge base.`);
  // The website leaves every Agent Builder agent too; `deletedFromAgents` says whether one held it.
  const deletedFromAgents = kb.store.detachEverywhere(new Set([id]), kb.clock.now());
  kb.store.changed();
  return {
    status: 200,
    body: { success: true, message: 'Website and all associated data deleted successfully', data: { uniqueId: id, deletedFromAgents, vectorsDeleted: true } },
  };
}

/**
 * `GET /ai-agents/agent-builder/knowledge-base`: every source (websites, text entries, uploads),
 * newest first, cursor paged (kb/source-list.ts). The reference marks `start` and `end` required
 * without saying what they mean, so they are checked to be numbers and otherwise not used;
 * `startTime`/`endTime` filter on createdAt.
 */
function listSources(kb: KbContext, request: ApiRequest): ApiResponse {
  if (kb.config.kbListFailNext > 0) {
    kb.config.kbListFailNext--;
    throw new ApiError(500, 'ERR_INTERNAL', 'Failed to read the knowledge base (injected by kbListFailNext).');
  }
  const missing = ['start', 'end'].filter((name) => request.query.get(name) === null);
  if (missing.length > 0) throw badRequest(`The query parameters 'start' and 'end' are required (numbers); missing ${missing.map((name) => `'${name}'`).join(' and ')}.`);
  timeParameter(request.query, 'start');
  timeParameter(request.query, 'end');
  const startTime = timeParameter(request.query, 'startTime');
  const endTime = timeParameter(request.query, 'endTime');
  const page = readPageRequest(request.query);
  const sources = sourcesNewestFirst(kb.store);
  const keep = (entry: SourceEntry): boolean => {
    const createdAt = entry.record.createdAt ?? 0;
    return (startTime === undefined || createdAt > startTime) && (endTime === undefined || createdAt < endTime);
  };
  const { data, meta } = pageOf(sources, sourceKey, keep, page, (cursor) => locateSource(sources, cursor));
  const now = kb.clock.now();
  return { status: 200, body: { data: data.map((entry) => presentSource(entry, kb.store.appId, now)), meta } };
}

/** `{uniqueId: [...]}` → `{success, data: {id: inSync|indexing|indexed|failed}}` for websites, text entries and uploads; unknown ids left out. */
function pollSources(kb: KbContext, request: ApiRequest): ApiResponse {
  const body = requireObjectBody(request.body);
  rejectUnknownKeys(body, POLL_KEYS, '');
  if (body.uniqueId === undefined || body.uniqueId === null) throw badRequest("'uniqueId' is required (an array of source ids).");
  const now = kb.clock.now();
  const data: Record<string, string> = {};
  for (const id of requireStringArray(body.uniqueId, 'uniqueId')) {
    const status = sourceStatus(kb.store, id, now);
    if (status !== undefined) data[id] = status;
  }
  return { status: 200, body: { success: true, data } };
}

/**
 * Re-indexes one source: a website's URLs are fetched and processed again; a text entry, or an
 * upload whose bytes have arrived, is indexed again over `kbProcessingMs` (an upload without bytes
 * has nothing to index and stays `indexing`). A source of another type, or none, is a 404.
 */
async function resyncSource(kb: KbContext, request: ApiRequest): Promise<ApiResponse> {
  const sourceType = request.params.sourceType ?? '';
  const id = request.params.uniqueId ?? '';
  if (sourceType === 'website') {
    findWebsite(kb.store, id);
    await resyncWebsite(kb, id);
  } else {
    const file = sourceType === 'text' ? kb.store.kbTexts.get(id) : sourceType === 'uploads' ? kb.store.kbUploads.get(id) : undefined;
    if (!file) throw notFound('ERR_KB_NOT_FOUND', `No ${sourceType} source '${id}' in this app's knowledge base (source types: website, text, uploads).`);
    const now = kb.clock.now();
    if (!('uploadId' in file) || file.content !== undefined) {
      startFileIndexing(file, now, kb.config);
      file.updatedAt = Math.max(now, file.updatedAt + 1);
      kb.store.changed();
    }
  }
  return { status: 200, body: { success: true, message: 'Re-indexing started' } };
}
