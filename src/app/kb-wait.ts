// `apply --wait` (docs/spec/knowledge-base.md#waiting-for-indexing): after processing, poll the
// status of every URL that was sent to be indexed until none is `discovered` or `processing`, or
// until the deadline. Each round asks only about the URLs still unfinished, in chunks, so a
// 10,000-URL website costs a few requests a round and the polls shrink as indexing advances. Output
// is the caller's (render/kb-progress.ts). A status it does not know, or a URL the answer leaves
// out, is unknown: never counted as processed, and a wait that ends with any is an error, not
// "Indexing complete".
import { UserError } from '../core/errors.js';
import { oneSafeLine } from '../core/terminal-safe.js';
import { matchIds, matchWebsite } from '../core/kinds/website/match.js';
import { discoveredUrlsPath, UNFINISHED_STATUSES, type DiscoveredUrl } from '../core/kinds/website/urls.js';
import { isObject } from '../core/kinds/kind.js';
import type { State } from '../core/state.js';
import type { ApiClient } from '../io/api/client.js';
import { isSourceAddress, KB_STATUS_POLL_PATH, SOURCE_DONE, SOURCE_UNFINISHED } from './kb-sources.js';
import { mapBounded, readOne, WEBSITE_READ_CONCURRENCY, websiteIdOf } from '../io/api/read-websites.js';

/** Ids per status-poll request: the body stays small (about 40 KB) whatever the website's size. */
export const POLL_CHUNK = 1000;

export interface KbCounts {
  processed: number;
  failed: number;
  /** A status agentsync does not know, or left out of the answer: neither processed nor failed. */
  unknown: number;
  /** Still `discovered` or `processing`. */
  remaining: number;
}

/** Final statuses a URL may end in; `skipped` is counted with processed, as it always was. */
const FINAL_STATUSES: ReadonlySet<string> = new Set(['processed', 'failed', 'skipped']);

export interface UnknownUrl {
  address: string;
  url: string;
  /** What the server said, printable (`"exploded"`, `42`, `{}`), or undefined when it left the URL out. */
  said: string | undefined;
}

export interface FailedUrl {
  address: string;
  url: string;
}

export interface KbWaitResult {
  counts: KbCounts;
  failed: FailedUrl[];
  unknown: UnknownUrl[];
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

/** One website's URLs to wait for: id → URL of those sent to be indexed. */
export interface WaitTarget {
  address: string;
  websiteId: string;
  urls: ReadonlyMap<string, string>;
  /**
   * Indexed sources (text entries, uploads) instead of a website's URLs: all of them in one target,
   * polled through `…/knowledge-base/status/poll`; id → the source's address.
   */
  sources?: ReadonlyMap<string, string>;
}

interface Tracked extends WaitTarget {
  unfinished: Set<string>;
}

/** The websites of `addresses` that the state holds (after an apply), and the ids each one processes. */
export async function waitForIndexing(client: ApiClient, state: State, addresses: readonly string[], options: KbWaitOptions): Promise<KbWaitResult> {
  const started = Date.now();
  const deadline = deadlineOf(options);
  let targets: WaitTarget[];
  try {
    const sources = sourcesTarget(state, addresses.filter(isSourceAddress));
    targets = [...(await trackedWebsites(client, state, addresses, deadline.signal)), ...(sources === undefined ? [] : [sources])];
  } catch (err) {
    if (!deadline.signal.aborted) throw err;
    // No count is known yet, so "N remaining" would be made up: the reason is said instead.
    throw new UserError('api_error', `the URLs to wait for could not be read from the server within ${Math.ceil(options.timeoutMs / 1000)} s`);
  } finally {
    deadline.dispose();
  }
  return waitForUrls(client, targets, { ...options, timeoutMs: Math.max(0, options.timeoutMs - (Date.now() - started)) });
}

/** Waits for exactly these URLs (`kb sync` sends only some of a website's URLs). */
export async function waitForUrls(client: ApiClient, targets: readonly WaitTarget[], options: KbWaitOptions): Promise<KbWaitResult> {
  const deadline = deadlineOf(options);
  try {
    return await pollUntilDone(client, targets, options, deadline.signal);
  } finally {
    deadline.dispose();
  }
}

/**
 * A signal that fires when the wait's time is up (or the caller's signal does). Each call is cut
 * off by it: a server that stalls a poll must not hold the wait past --wait-timeout for the
 * client's own per-call limits (30 s an attempt, 5 min with retries).
 */
function deadlineOf(options: KbWaitOptions): { signal: AbortSignal; dispose(): void } {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), options.timeoutMs);
  const signal = options.signal ? AbortSignal.any([controller.signal, options.signal]) : controller.signal;
  return { signal, dispose: () => clearTimeout(timer) };
}

async function pollUntilDone(client: ApiClient, targets: readonly WaitTarget[], options: KbWaitOptions, deadline: AbortSignal): Promise<KbWaitResult> {
  const started = Date.now();
  const tracked: Tracked[] = targets.map((target) => ({ ...target, unfinished: new Set(target.urls.keys()) }));
  const counts: KbCounts = { processed: 0, failed: 0, unknown: 0, remaining: 0 };
  const seen: Seen = { failed: [], unknown: [] };
  for (const site of tracked) counts.remaining += site.unfinished.size;
  for (;;) {
    try {
      await mapBounded(tracked, WEBSITE_READ_CONCURRENCY, (site) => pollOnce(client, site, counts, seen, deadline));
    } catch (err) {
      // A poll cut off by the deadline (or Ctrl-C) ends the wait with what is known so far.
      if (!deadline.aborted) throw err;
      return { counts, ...seen, timedOut: true, elapsedMs: Date.now() - started };
    }
    const elapsedMs = Date.now() - started;
    options.onProgress({ ...counts }, elapsedMs);
    if (counts.remaining === 0) {
      if (seen.unknown.length > 0) throw unknownOutcome(counts, seen.unknown);
      return { counts, ...seen, timedOut: false, elapsedMs };
    }
    if (elapsedMs + options.pollMs > options.timeoutMs || options.signal?.aborted === true) return { counts, ...seen, timedOut: true, elapsedMs };
    await sleep(options.pollMs, options.signal);
  }
}

interface Seen {
  failed: FailedUrl[];
  unknown: UnknownUrl[];
}

/**
 * The wait ended, but some URLs' outcome is unknown: what was sent stands, the exit code must not
 * say all is well. The caller says what stands (an apply, a sync); `details.outcome` marks it.
 */
function unknownOutcome(counts: KbCounts, unknown: readonly UnknownUrl[]): UserError {
  const leftOut = unknown.filter((u) => u.said === undefined).length;
  const statuses = [...new Set(unknown.flatMap((u) => (u.said === undefined ? [] : [u.said])))].sort();
  const parts: string[] = [];
  if (leftOut > 0) parts.push(`${leftOut} left out of the server's answer`);
  if (unknown.length > leftOut) {
    const shown = statuses.slice(0, 5).join(', ') + (statuses.length > 5 ? `, and ${statuses.length - 5} more` : '');
    parts.push(`${unknown.length - leftOut} with a status agentsync does not know: ${shown}`);
  }
  const urls = unknown.length === 1 ? '1 URL' : `${unknown.length} URLs`;
  return new UserError('apply_failed', `indexing ended with ${urls} in an unknown state (${parts.join(', ')}); ${counts.processed} processed, ${counts.failed} failed`, {
    outcome: 'unknown',
    unknown: unknown.map((u) => ({ ...u })),
  });
}

async function trackedWebsites(client: ApiClient, state: State, addresses: readonly string[], signal: AbortSignal): Promise<WaitTarget[]> {
  const sites: { address: string; websiteId: string; spec: State['resources'][string]['spec'] }[] = [];
  for (const address of addresses) {
    const entry = state.resources[address];
    const websiteId = entry && entry.type === 'website' ? websiteIdOf(entry) : undefined;
    if (entry && websiteId !== undefined) sites.push({ address, websiteId, spec: entry.spec });
  }
  const listings = await mapBounded(sites, WEBSITE_READ_CONCURRENCY, (site) => readOne(client, site, { signal }));
  return sites.map((site, i) => {
    const urls = listings[i];
    if (urls === undefined) throw new UserError('api_error', `cannot wait for ${site.address}: the server no longer has its website (404)`);
    const exclude = Array.isArray(site.spec.exclude) ? site.spec.exclude.filter((item): item is string => typeof item === 'string') : [];
    const processIds = typeof site.spec.url === 'string' ? matchWebsite(exclude, urls).processIds : matchIds(exclude, urls).processIds;
    return trackedOf(site.address, site.websiteId, urls, new Set(processIds));
  });
}

/** The indexed sources of `addresses` the state holds, as one target; undefined when there are none. */
function sourcesTarget(state: State, addresses: readonly string[]): WaitTarget | undefined {
  const sources = new Map<string, string>();
  for (const address of addresses) {
    const entry = state.resources[address];
    if (entry !== undefined) sources.set(entry.remoteId, address);
  }
  return sources.size === 0 ? undefined : { address: 'knowledge base', websiteId: '', urls: sources, sources };
}

function trackedOf(address: string, websiteId: string, urls: readonly DiscoveredUrl[], processIds: ReadonlySet<string>): WaitTarget {
  const byId = new Map<string, string>();
  for (const entry of urls) if (processIds.has(entry.id)) byId.set(entry.id, entry.url);
  return { address, websiteId, urls: byId };
}

/** How a target is polled: a website's URLs, or the indexed sources (SOURCE_UNFINISHED, SOURCE_DONE). */
function pollRules(site: Tracked): { path: string; unfinished: ReadonlySet<string>; done: ReadonlySet<string> } {
  if (site.sources !== undefined) return { path: KB_STATUS_POLL_PATH, unfinished: SOURCE_UNFINISHED, done: SOURCE_DONE };
  return { path: `${discoveredUrlsPath(site.websiteId)}/status/poll`, unfinished: UNFINISHED_STATUSES, done: FINAL_STATUSES };
}

/** Asks about the target's unfinished URLs (or sources); every one sent ends up counted under exactly one heading. */
async function pollOnce(client: ApiClient, site: Tracked, counts: KbCounts, seen: Seen, signal: AbortSignal): Promise<void> {
  const ids = [...site.unfinished];
  const { path, unfinished, done } = pollRules(site);
  for (let from = 0; from < ids.length; from += POLL_CHUNK) {
    const chunk = ids.slice(from, from + POLL_CHUNK);
    const answer = await client.request({ method: 'POST', path, body: { uniqueId: chunk }, repeatable: true }, { signal });
    const statuses = isObject(answer) && isObject(answer.data) ? answer.data : undefined;
    if (statuses === undefined) throw new UserError('api_error', `${site.address}: POST ${path} did not answer {data: {id: status}}`);
    for (const id of chunk) {
      const status = Object.hasOwn(statuses, id) ? statuses[id] : undefined;
      if (typeof status === 'string' && unfinished.has(status)) continue;
      site.unfinished.delete(id);
      counts.remaining--;
      // A source is named by its address; a URL by the website's address and the URL.
      const address = site.sources?.get(id) ?? site.address;
      const url = site.sources === undefined ? (site.urls.get(id) ?? id) : id;
      if (status === 'failed') {
        counts.failed++;
        seen.failed.push({ address, url });
      } else if (typeof status === 'string' && done.has(status)) {
        counts.processed++;
      } else {
        counts.unknown++;
        seen.unknown.push({ address, url, said: status === undefined ? undefined : describe(status) });
      }
    }
  }
}

/** A status as the server sent it, quoted like JSON and made safe to print: `"exploded"`, `42`, `{}`. */
function describe(value: unknown): string {
  let text: string;
  try {
    text = JSON.stringify(value) ?? String(value);
  } catch {
    text = String(value);
  }
  return oneSafeLine(text, 60);
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
