// Re-processing a discovered URL (sync, re-index) reads the page again, as a real server re-scrapes
// it: changed content is stored, and a page that no longer answers ends `failed`. Pages the
// emulator cannot reach (a seeded website's made-up URLs) keep what they had.
import type { DiscoveredUrl } from '../store.js';
import type { KbContext } from './context.js';
import type { PageFetcher } from './crawl.js';
import { fetcherFor } from './fetchers.js';
import { readHtml } from './html.js';

/** Pages fetched at once; a sync of thousands of URLs stays a bounded load on the site. */
const REFETCH_CONCURRENCY = 8;

/** Reads each page again and updates it; answers the ids whose page could not be read. */
export async function refetchPages(kb: KbContext, entries: readonly DiscoveredUrl[]): Promise<Set<string>> {
  const unreadable = new Set<string>();
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < entries.length) {
      const entry = entries[next++];
      if (entry !== undefined && !(await refetchOne(kb, entry))) unreadable.add(entry.uniqueId);
    }
  };
  await Promise.all(Array.from({ length: Math.min(REFETCH_CONCURRENCY, entries.length) }, worker));
  return unreadable;
}

async function refetchOne(kb: KbContext, entry: DiscoveredUrl): Promise<boolean> {
  if (!URL.canParse(entry.url)) return true;
  const fetcher = withOverrides(fetcherFor(new URL(entry.url)), kb.pageOverrides);
  if (fetcher === undefined) return true;
  try {
    const page = await fetcher(entry.url, kb.config.kbFetchTimeoutMs, kb.stop);
    if (page.status < 200 || page.status >= 300) return false;
    const facts = /html/i.test(page.contentType) ? readHtml(page.body) : { title: '', description: '', content: page.body.slice(0, 500) };
    entry.title = facts.title;
    entry.description = facts.description;
    entry.content = facts.content;
    entry.lastCrawledAt = kb.clock.now();
    return true;
  } catch {
    return false;
  }
}

/** A fetcher that answers the admin knob's replacement pages (`/__emulator/kb/pages`) before the site. */
export function withOverrides(fetcher: PageFetcher | undefined, overrides: ReadonlyMap<string, string>): PageFetcher | undefined {
  if (fetcher === undefined || overrides.size === 0) return fetcher;
  return (url, timeoutMs, stop) => {
    const html = overrides.get(url);
    return html === undefined ? fetcher(url, timeoutMs, stop) : Promise.resolve({ status: 200, contentType: 'text/html', body: html });
  };
}
