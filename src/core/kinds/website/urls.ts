// A website's discovered URLs, read page by page (`GET …/website/{id}/discovered-urls`, cursor +
// limit, `meta.next`). Pure: the caller hands in how to GET a path (the apply's Wire, or the API
// client for refresh and `kb status`), so both read pages the same way. Only the id, the URL and
// the status of each record are kept (a page also carries 500-character content previews), so
// memory is about 100 bytes a URL whatever the server sends. A server that ignores `limit` or
// never stops is bounded four ways: pages, URLs kept, characters kept, and bytes of answers read.
import { UserError } from '../../errors.js';
import { isObject, seg, timestampMs } from '../kind.js';

export interface DiscoveredUrl {
  id: string;
  url: string;
  status: string;
  /** When the server last fetched the page (ISO 8601), if it says. */
  lastCrawledAt?: string;
  /** Other URLs the server listed under the same id (twins): an exclude glob matching one excludes the id. */
  twins?: string[];
}

/** The reference's page size limit ("at most 100"). */
export const URL_PAGE_LIMIT = 100;
/**
 * A server that pages forever is an error, not a hang. A crawl holds at most 10,000 pages
 * (ScrapePagesDto.maxPages), 100 pages of 100; the bound leaves ten times that.
 */
export const MAX_URL_PAGES = 1000;
/** URLs kept for one website: ten times the most a crawl finds (maxPages 10,000). */
export const MAX_DISCOVERED_URLS = 100_000;
/** Characters of id, URL and status kept for one website: 320 a URL at the URL bound. */
export const MAX_DISCOVERED_URL_CHARS = 32 * 1024 * 1024;
/** One page's answer: 100 entries with their previews are about 100 KB; this lets a server that sends 10,000 on one page through. */
export const URL_PAGE_BYTES = 8 * 1024 * 1024;
/** Every page's answer of one website added up: 1,000 pages of 100 entries with room to spare. */
export const MAX_DISCOVERED_URL_BYTES = 256 * 1024 * 1024;

/** The statuses a discovered URL may have (docs/spec/knowledge-base.md#discovered-urls, the reference's enum). */
export const URL_STATUSES = ['discovered', 'processing', 'processed', 'failed', 'skipped'] as const;
/** Statuses that are not final yet: `--wait` waits until no URL has one. */
export const UNFINISHED_STATUSES: ReadonlySet<string> = new Set(['discovered', 'processing']);

export interface PageLimits {
  /** The largest answer this page may be (what is left of MAX_DISCOVERED_URL_BYTES, at most URL_PAGE_BYTES). */
  maxResponseBytes: number;
  /** Told the size of the answer that was read, so the pages add up against the bound. */
  onAnswerBytes(bytes: number): void;
}

export type GetPage = (path: string, limits: PageLimits) => Promise<unknown>;

export function websitePath(websiteId: string): string {
  return `/ai-agents/agent-builder/knowledge-base/website/${seg(websiteId)}`;
}

export function discoveredUrlsPath(websiteId: string): string {
  return `${websitePath(websiteId)}/discovered-urls`;
}

/**
 * Every discovered URL of a website, following `meta.next` until a page has none. A cursor seen
 * before, more than MAX_URL_PAGES pages, or more URLs, text or answer bytes than the bounds above
 * is an error naming the website; so is an answer that is not `{data: [...]}` or an entry without
 * an id and a URL (skipping it would lose a URL).
 */
export async function readDiscoveredUrls(get: GetPage, websiteId: string, what: string, maxPages = MAX_URL_PAGES): Promise<DiscoveredUrl[]> {
  const base = discoveredUrlsPath(websiteId);
  const urls: DiscoveredUrl[] = [];
  const seen = new Set<string>();
  const byId = new Map<string, DiscoveredUrl>();
  // Every URL already kept for an id that has twins: a twin listed again is not kept twice.
  const twinSeen = new Map<string, Set<string>>();
  const stop = (why: string, because = ''): UserError => new UserError('api_error', `${what}: ${why}; stopped reading${because}`, { call: `GET ${base}` });
  let chars = 0;
  let bytes = 0;
  const limits: PageLimits = {
    maxResponseBytes: URL_PAGE_BYTES,
    onAnswerBytes: (size) => (bytes += size),
  };
  let query = new URLSearchParams({ limit: String(URL_PAGE_LIMIT) }).toString();
  for (let page = 1; ; page++) {
    const path = `${base}?${query}`;
    limits.maxResponseBytes = Math.min(URL_PAGE_BYTES, MAX_DISCOVERED_URL_BYTES - bytes);
    const answer = await get(path, limits);
    const data = isObject(answer) && Array.isArray(answer.data) ? answer.data : undefined;
    if (data === undefined) throw new UserError('api_error', `${what}: GET ${base} did not answer {data: [...]} on page ${page}`, { call: `GET ${path}` });
    // Checked before the entries are read: a page of a million entries costs nothing more.
    if (urls.length + data.length > MAX_DISCOVERED_URLS) {
      throw stop(
        `the server listed more than ${MAX_DISCOVERED_URLS.toLocaleString('en-US')} discovered URLs (page ${page})`,
        `: a crawl finds at most 10,000 pages, so the server is not paging as asked (limit=${URL_PAGE_LIMIT})`,
      );
    }
    for (const entry of data) {
      const url = readEntry(entry, what, base);
      // One id listed twice (on one page, or on pages that overlap) is still one URL: counted twice
      // it would inflate kb status and be sent twice to sync. Listed under another URL, that URL is
      // kept as its twin, so an exclude glob that matches only the twin still excludes the id.
      const first = byId.get(url.id);
      if (first !== undefined) {
        if (!addTwin(first, url.url, twinSeen)) continue;
        chars += url.url.length;
      } else {
        byId.set(url.id, url);
        chars += url.id.length + url.url.length + url.status.length;
        urls.push(url);
      }
      if (chars > MAX_DISCOVERED_URL_CHARS) throw stop(`the discovered URLs hold more than ${MAX_DISCOVERED_URL_CHARS / (1024 * 1024)} M characters of text (page ${page})`);
    }
    const cursor = nextCursor(answer as Record<string, unknown>);
    if (cursor === undefined) return urls;
    if (seen.has(cursor.cursor))
      throw new UserError('api_error', `${what}: the server answered the same cursor twice while listing discovered URLs (page ${page + 1}), so the list never ends`, { call: `GET ${base}` });
    if (page >= maxPages)
      throw new UserError('api_error', `${what}: the server still had more discovered URLs after ${maxPages} pages of ${URL_PAGE_LIMIT}; stopped reading (a server that pages forever)`, {
        call: `GET ${base}`,
      });
    if (bytes >= MAX_DISCOVERED_URL_BYTES) throw stop(`the discovered-URL pages add up to more than ${MAX_DISCOVERED_URL_BYTES / (1024 * 1024)} MB`);
    seen.add(cursor.cursor);
    const params: Record<string, string> = { limit: String(URL_PAGE_LIMIT), cursor: cursor.cursor };
    if (cursor.affix !== undefined) params.affix = cursor.affix;
    query = new URLSearchParams(params).toString();
  }
}

/** Adds `url` to the entry's twins unless it is already one of its URLs; true when added. */
function addTwin(entry: DiscoveredUrl, url: string, seen: Map<string, Set<string>>): boolean {
  if (url === entry.url) return false;
  let urls = seen.get(entry.id);
  if (urls === undefined) seen.set(entry.id, (urls = new Set([entry.url])));
  if (urls.has(url)) return false;
  urls.add(url);
  (entry.twins ??= []).push(url);
  return true;
}

/** The reference names the id `urlId`; the seed and the poll/sync bodies say `uniqueId`. Either is read. */
function readEntry(entry: unknown, what: string, base: string): DiscoveredUrl {
  const record = isObject(entry) ? entry : {};
  const id = text(record.urlId) ?? text(record.uniqueId) ?? text(record.id) ?? text(record._id);
  const url = text(record.url);
  if (id === undefined || url === undefined) throw new UserError('api_error', `${what}: GET ${base} answered a discovered URL without an id or a url`, { call: `GET ${base}` });
  const crawledMs = timestampMs(record.lastCrawledAt);
  return { id, url, status: text(record.status) ?? 'discovered', ...(crawledMs === undefined || crawledMs <= 0 ? {} : { lastCrawledAt: new Date(crawledMs).toISOString() }) };
}

/** `meta.next: {cursor, affix}` (the reference), or a bare cursor string; undefined on the last page. */
function nextCursor(answer: Record<string, unknown>): { cursor: string; affix?: string } | undefined {
  const meta = isObject(answer.meta) ? answer.meta : undefined;
  const next = meta?.next;
  if (typeof next === 'string' && next !== '') return { cursor: next };
  if (!isObject(next)) return undefined;
  const cursor = text(next.cursor) ?? (typeof next.cursor === 'number' ? String(next.cursor) : undefined);
  if (cursor === undefined) return undefined;
  const affix = text(next.affix);
  return affix === undefined ? { cursor } : { cursor, affix };
}

function text(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}
