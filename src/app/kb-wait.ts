// `apply --wait` (CONTRACT §11): after processing, poll the status of every URL that was sent to
// be indexed until none is `discovered` or `processing`, or until the deadline. Each round asks
// only about the URLs still unfinished, in chunks, so a 10,000-URL website costs a few requests a
// round and the polls shrink as indexing advances. Output is the caller's (render/kb-progress.ts).
import { UserError } from '../core/errors.js';
import { matchIds, matchWebsite } from '../core/kinds/website-match.js';
import { discoveredUrlsPath, UNFINISHED_STATUSES, type DiscoveredUrl } from '../core/kinds/website-urls.js';
import { isObject } from '../core/kinds/kind.js';
import type { State } from '../core/state.js';
import type { ApiClient } from '../io/api/client.js';
import { mapBounded, readOne, WEBSITE_READ_CONCURRENCY, websiteIdOf } from '../io/api/read-websites.js';

/** Ids per status-poll request: the body stays small (about 40 KB) whatever the website's size. */
export const POLL_CHUNK = 1000;

export interface KbCounts {
  processed: number;
  failed: number;
  /** Still `discovered` or `processing`. */
  remaining: number;
}

export interface FailedUrl {
  address: string;
  url: string;
}

export interface KbWaitResult {
  counts: KbCounts;
  failed: FailedUrl[];
  timedOut: boolean;
  elapsedMs: number;
}

export interface KbWaitOptions {
  timeoutMs: number;
  pollMs: number;
  onProgress(counts: KbCounts, elapsedMs: number): void;
  /** Stops waiting early (Ctrl-C); what is known so far is returned. */
  signal?: AbortSignal;
}

interface Tracked {
  address: string;
  websiteId: string;
  /** id → URL of the URLs sent to be indexed. */
  urls: Map<string, string>;
  unfinished: Set<string>;
}

/** The websites of `addresses` that the state holds (after an apply), and the ids each one processes. */
export async function waitForIndexing(client: ApiClient, state: State, addresses: readonly string[], options: KbWaitOptions): Promise<KbWaitResult> {
  const started = Date.now();
  const tracked = await trackedWebsites(client, state, addresses);
  const counts: KbCounts = { processed: 0, failed: 0, remaining: 0 };
  const failed: FailedUrl[] = [];
  for (const site of tracked) counts.remaining += site.unfinished.size;
  for (;;) {
    await mapBounded(tracked, WEBSITE_READ_CONCURRENCY, (site) => pollOnce(client, site, counts, failed));
    const elapsedMs = Date.now() - started;
    options.onProgress({ ...counts }, elapsedMs);
    if (counts.remaining === 0) return { counts, failed, timedOut: false, elapsedMs };
    if (elapsedMs + options.pollMs > options.timeoutMs || options.signal?.aborted === true) return { counts, failed, timedOut: true, elapsedMs };
    await sleep(options.pollMs, options.signal);
  }
}

async function trackedWebsites(client: ApiClient, state: State, addresses: readonly string[]): Promise<Tracked[]> {
  const sites: { address: string; websiteId: string; spec: State['resources'][string]['spec'] }[] = [];
  for (const address of addresses) {
    const entry = state.resources[address];
    const websiteId = entry && entry.type === 'website' ? websiteIdOf(entry) : undefined;
    if (entry && websiteId !== undefined) sites.push({ address, websiteId, spec: entry.spec });
  }
  const listings = await mapBounded(sites, WEBSITE_READ_CONCURRENCY, (site) => readOne(client, site));
  return sites.map((site, i) => {
    const urls = listings[i];
    if (urls === undefined) throw new UserError('api_error', `cannot wait for ${site.address}: the server no longer has its website (404)`);
    const exclude = Array.isArray(site.spec.exclude) ? site.spec.exclude.filter((item): item is string => typeof item === 'string') : [];
    const processIds = typeof site.spec.url === 'string' ? matchWebsite(exclude, urls).processIds : matchIds(exclude, urls).processIds;
    return trackedOf(site.address, site.websiteId, urls, new Set(processIds));
  });
}

function trackedOf(address: string, websiteId: string, urls: readonly DiscoveredUrl[], processIds: ReadonlySet<string>): Tracked {
  const byId = new Map<string, string>();
  for (const entry of urls) if (processIds.has(entry.id)) byId.set(entry.id, entry.url);
  return { address, websiteId, urls: byId, unfinished: new Set(byId.keys()) };
}

/** Asks about the website's unfinished URLs; a URL the answer leaves out no longer exists and is not waited for. */
async function pollOnce(client: ApiClient, site: Tracked, counts: KbCounts, failed: FailedUrl[]): Promise<void> {
  const ids = [...site.unfinished];
  const path = `${discoveredUrlsPath(site.websiteId)}/status/poll`;
  for (let from = 0; from < ids.length; from += POLL_CHUNK) {
    const chunk = ids.slice(from, from + POLL_CHUNK);
    const answer = await client.request({ method: 'POST', path, body: { uniqueId: chunk }, repeatable: true });
    const statuses = isObject(answer) && isObject(answer.data) ? answer.data : undefined;
    if (statuses === undefined) throw new UserError('api_error', `${site.address}: POST ${path} did not answer {data: {id: status}}`);
    for (const id of chunk) {
      const status = statuses[id];
      if (typeof status === 'string' && UNFINISHED_STATUSES.has(status)) continue;
      site.unfinished.delete(id);
      counts.remaining--;
      if (status === 'failed') {
        counts.failed++;
        failed.push({ address: site.address, url: site.urls.get(id) ?? id });
      } else if (status !== undefined) counts.processed++;
    }
  }
}

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    function done(): void {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    }
    signal?.addEventListener('abort', done, { once: true });
  });
}
