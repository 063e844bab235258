// The scrape's crawl: breadth-first from the start URL, same origin only, each URL once, links of
// a page taken in sorted order, so the same site always gives the same discovered URLs in the same
// order. Bounded by maxDepth (link hops from the start), maxPages (discovered URLs), a timeout per
// fetch and one for the whole crawl (which then ends with what it found, cutting off the fetches in
// flight), and a cap on the URLs it remembers, so no site can make it hang or grow without end.
// With fetchSitemap, the URLs of `/sitemap.xml` are crawled too, as links of the start page.
import { abortReason, deadline } from './deadline.js';
import { readHtml, readSitemap } from './html.js';

export interface FetchedPage {
  status: number;
  contentType: string;
  body: string;
  /** The Location of a redirect. */
  location?: string;
}

/** Fetches one URL, or throws an Error whose message says why it could not. `stop` aborts it. */
export type PageFetcher = (url: string, timeoutMs: number, stop: AbortSignal) => Promise<FetchedPage>;

export interface CrawlSettings {
  start: URL;
  maxDepth: number;
  maxPages: number;
  /** The reference's substring filters: only URLs containing one of `include`, none of `exclude`. */
  include: readonly string[];
  exclude: readonly string[];
  fetchSitemap: boolean;
  fetchTimeoutMs: number;
  crawlTimeoutMs: number;
  /** Aborted when the emulator closes, so no crawl outlives it. */
  stop: AbortSignal;
}

export interface CrawledPage {
  url: string;
  title: string;
  description: string;
  content: string;
}

export interface CrawlResult {
  pages: CrawledPage[];
  /** True when the whole-crawl time bound ended it. */
  cutShort: boolean;
  sitemap: { found: boolean; url: string; urls: string[] } | undefined;
}

/** The start URL could not be fetched: nothing was crawled. */
export class CrawlFailed extends Error {}

const PARALLEL_FETCHES = 4;
const MAX_REMEMBERED_URLS = 100_000;

export async function crawl(settings: CrawlSettings, fetchPage: PageFetcher, now: () => number = Date.now): Promise<CrawlResult> {
  // The whole-crawl bound aborts the fetches in flight too, not only the next batch.
  const whole = deadline(settings.crawlTimeoutMs, settings.stop, `the crawl's ${settings.crawlTimeoutMs} ms bound ended it`);
  try {
    return await crawlWithin({ ...settings, stop: whole.signal }, fetchPage, now, () => whole.expired());
  } finally {
    whole.clear();
  }
}

async function crawlWithin(settings: CrawlSettings, fetchPage: PageFetcher, now: () => number, expired: () => boolean): Promise<CrawlResult> {
  const deadline = now() + settings.crawlTimeoutMs;
  const startUrl = normalize(settings.start.href, settings.start.href) ?? settings.start.href;
  const queue: Array<{ url: string; depth: number }> = [{ url: startUrl, depth: 0 }];
  const seen = new Set<string>([startUrl]);
  const pages: CrawledPage[] = [];
  const wanted = (url: string): boolean => (settings.include.length === 0 || settings.include.some((part) => url.includes(part))) && !settings.exclude.some((part) => url.includes(part));
  const enqueue = (href: string, base: string, depth: number): void => {
    const url = normalize(href, base);
    if (url === undefined || new URL(url).origin !== settings.start.origin || seen.has(url) || !wanted(url) || seen.size >= MAX_REMEMBERED_URLS) return;
    seen.add(url);
    queue.push({ url, depth });
  };
  // The sitemap is read first and its URLs join the queue right after the start, one hop from it,
  // as if the start linked them: a page only the sitemap lists is found, within maxPages and the
  // include/exclude substrings like any other.
  const sitemap = settings.fetchSitemap ? await readSiteMap(settings, fetchPage, settings.fetchTimeoutMs) : undefined;
  for (const url of sitemap?.urls ?? []) enqueue(url, startUrl, 1);
  let head = 0;
  let cutShort = false;
  while (head < queue.length && pages.length < settings.maxPages) {
    if (settings.stop.aborted && !expired()) throw new CrawlFailed(abortReason(settings.stop));
    const left = deadline - now();
    if (left <= 0 || expired()) {
      cutShort = true;
      break;
    }
    const batch = queue.slice(head, head + PARALLEL_FETCHES);
    head += batch.length;
    // Each fetch has its own bound; the whole-crawl bound aborts it through `stop`. Clamping the fetch
    // bound to the time left made the two timers race: a fetch cut at the crawl's end by its own timer
    // could finish the loop a moment before the crawl's timer fired, and the crawl read as complete.
    const timeout = settings.fetchTimeoutMs;
    const results = await Promise.all(batch.map((item) => fetchPage(item.url, timeout, settings.stop).catch((err: unknown) => err as Error)));
    batch.forEach((item, index) => {
      const result = results[index] as FetchedPage | Error;
      const isStart = item.url === startUrl;
      if (result instanceof Error) {
        if (isStart) throw new CrawlFailed(`cannot fetch ${item.url}: ${result.message}`);
        return;
      }
      if (result.status >= 300 && result.status < 400 && result.location !== undefined) {
        enqueue(result.location, item.url, item.depth);
        return;
      }
      if (result.status < 200 || result.status >= 300) {
        if (isStart) throw new CrawlFailed(`${item.url} answered HTTP ${result.status}`);
        return;
      }
      const isHtml = /html/i.test(result.contentType);
      const facts = isHtml ? readHtml(result.body) : { title: '', description: '', content: result.body.slice(0, 500), hrefs: [] };
      if (pages.length < settings.maxPages && wanted(item.url)) {
        pages.push({ url: item.url, title: facts.title, description: facts.description, content: facts.content });
      }
      if (item.depth < settings.maxDepth) {
        const links = [...new Set(facts.hrefs.map((href) => normalize(href, item.url)).filter((url): url is string => url !== undefined))].sort();
        for (const link of links) enqueue(link, item.url, item.depth + 1);
      }
    });
  }
  // Fetches cut off by the bound end the loop like finished ones: the crawl was still cut short.
  if (expired()) cutShort = true;
  // The answer lists at most maxPages of the sitemap's URLs; the crawl above had them all to choose from.
  return { pages, cutShort, sitemap: sitemap && { ...sitemap, urls: sitemap.urls.slice(0, settings.maxPages) } };
}

async function readSiteMap(settings: CrawlSettings, fetchPage: PageFetcher, timeoutMs: number): Promise<CrawlResult['sitemap']> {
  const url = new URL('/sitemap.xml', settings.start).href;
  try {
    const answer = await fetchPage(url, timeoutMs, settings.stop);
    if (answer.status !== 200) return { found: false, url, urls: [] };
    return { found: true, url, urls: readSitemap(answer.body) };
  } catch {
    return { found: false, url, urls: [] };
  }
}

/** An absolute http(s) URL without its fragment, or undefined for mailto:, javascript: and the like. */
function normalize(href: string, base: string): string | undefined {
  if (!URL.canParse(href, base)) return undefined;
  const url = new URL(href, base);
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return undefined;
  url.hash = '';
  return url.href;
}
