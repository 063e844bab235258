// Where a scrape may go. The emulator never reaches the internet: it crawls loopback sites over
// real HTTP, and the demo host in-process; anything else is refused before a byte is sent.
import { DEMO_SITE_HOST, demoSitePage } from './demo-site.js';
import type { FetchedPage, PageFetcher } from './crawl.js';
import { abortReason, deadline, type Deadline } from './deadline.js';

const LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost', '[::1]']);
/** A page bigger than this is read only this far: a crawl keeps a 500-character preview anyway. */
const MAX_PAGE_BYTES = 1024 * 1024;

/** The fetcher for a start URL, or undefined when the emulator will not crawl that host. */
export function fetcherFor(start: URL): PageFetcher | undefined {
  if (start.hostname === DEMO_SITE_HOST) return demoFetcher;
  if (LOOPBACK_HOSTS.has(start.hostname) && start.protocol === 'http:') return loopbackFetcher;
  return undefined;
}

const demoFetcher: PageFetcher = (url) => {
  const parsed = new URL(url);
  const answer = demoSitePage(parsed.pathname, { links: parsed.origin, sitemap: parsed.origin });
  return Promise.resolve(answer);
};

const loopbackFetcher: PageFetcher = async (url, timeoutMs, stop) => {
  // One bound for the headers and the whole body: a page that trickles is cut off at timeoutMs.
  const bound = deadline(timeoutMs, stop, `no answer within ${timeoutMs} ms`);
  try {
    let response: Response;
    try {
      response = await fetch(url, { redirect: 'manual', signal: bound.signal, headers: { 'user-agent': 'agentsync-emulator-crawler' } });
    } catch (err) {
      throw new Error(reason(err, bound), { cause: err });
    }
    const page: FetchedPage = { status: response.status, contentType: response.headers.get('content-type') ?? '', body: '' };
    const location = response.headers.get('location');
    if (location !== null) page.location = location;
    try {
      page.body = await readCapped(response, MAX_PAGE_BYTES);
    } catch (err) {
      throw new Error(reason(err, bound), { cause: err });
    }
    return page;
  } finally {
    bound.clear();
  }
};

async function readCapped(response: Response, limit: number): Promise<string> {
  if (!response.body) return '';
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
    size += value.byteLength;
    if (size >= limit) {
      await reader.cancel();
      break;
    }
  }
  return Buffer.concat(chunks).subarray(0, limit).toString('utf8');
}

function reason(err: unknown, bound: Deadline): string {
  if (bound.signal.aborted) return abortReason(bound.signal);
  const cause = err instanceof Error ? (err.cause as { code?: string; message?: string } | undefined) : undefined;
  // undici says only "fetch failed"; the cause says why (ECONNREFUSED, a port fetch refuses, …).
  if (cause?.code) return `${cause.code}${cause.message ? ` (${cause.message})` : ''}`;
  if (cause?.message) return cause.message;
  return err instanceof Error ? err.message : String(err);
}
