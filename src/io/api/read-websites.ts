// The websites' half of refresh (docs/spec/knowledge-base.md#refresh-and-drift): one paged read of
// discovered URLs per website in the state, several at a time. A 404 on a website's list means it
// was deleted on the server. The listings also feed the plan's glob counts and `kb status`.
import { isUserError, UserError } from '../../core/errors.js';
import type { KindListing } from '../../core/refresh.js';
import type { ResourceState, State } from '../../core/state.js';
import { readDiscoveredUrls, type DiscoveredUrl } from '../../core/kinds/website/urls.js';
import { isApiError } from './api-error.js';
import type { ApiClient, CallOptions } from './client.js';

/** Websites read at once: enough to hide latency, few enough to stay inside a rate budget. */
export const WEBSITE_READ_CONCURRENCY = 16;

export interface WebsiteTarget {
  address: string;
  /** The id the discovered-URL routes take: a URL website's recorded id, the seed form's parentUniqueId. */
  websiteId: string;
}

export interface WebsiteListings {
  /** For core/refresh.ts: the websites found, matched by their state remote id. */
  listing: KindListing;
  /** address → its discovered URLs (websites found only). */
  urls: Map<string, DiscoveredUrl[]>;
  /** Addresses whose website answered 404. */
  gone: Set<string>;
}

export function websiteIdOf(entry: Pick<ResourceState, 'remoteId' | 'spec'>): string | undefined {
  if (typeof entry.spec.url === 'string') return entry.remoteId;
  return typeof entry.spec.parentUniqueId === 'string' ? entry.spec.parentUniqueId : undefined;
}

export function websiteTargetsOf(state: State | null): WebsiteTarget[] {
  const targets: WebsiteTarget[] = [];
  for (const [address, entry] of Object.entries(state?.resources ?? {})) {
    if (entry.type !== 'website') continue;
    const websiteId = websiteIdOf(entry);
    if (websiteId !== undefined) targets.push({ address, websiteId });
  }
  return targets;
}

/**
 * Reads every target's discovered URLs, WEBSITE_READ_CONCURRENCY at a time. A website whose list
 * cannot be read is named in `listing.unreadable` with the reason, and the others are still read
 * (docs/spec/server.md#refresh): one broken listing does not stop a plan of everything else.
 */
export async function readWebsites(client: ApiClient, state: State | null, options: CallOptions = {}): Promise<WebsiteListings> {
  const targets = websiteTargetsOf(state);
  const result: WebsiteListings = { listing: { records: [], matchable: true }, urls: new Map(), gone: new Set() };
  const unreadable: Record<string, string> = {};
  const found = await mapBounded(targets, WEBSITE_READ_CONCURRENCY, async (target) => {
    try {
      return await readOne(client, target, options);
    } catch (err) {
      if (!isUserError(err)) throw err;
      unreadable[target.address] = err.message;
      return null;
    }
  });
  if (Object.keys(unreadable).length > 0) result.listing.unreadable = unreadable;
  targets.forEach((target, i) => {
    const urls = found[i];
    if (urls === null) return;
    if (urls === undefined) {
      result.gone.add(target.address);
      return;
    }
    result.urls.set(target.address, urls);
    const remoteId = state?.resources[target.address]?.remoteId;
    if (remoteId !== undefined) result.listing.records.push({ remoteId, spec: {} });
  });
  return result;
}

/** The website's URLs, or undefined when the server says it does not exist. */
export async function readOne(client: ApiClient, target: WebsiteTarget, options: CallOptions = {}): Promise<DiscoveredUrl[] | undefined> {
  let firstPage = true;
  try {
    return await readDiscoveredUrls(
      async (path, limits) => {
        const answer = await client.request({ method: 'GET', path, ...limits }, options);
        firstPage = false;
        return answer;
      },
      target.websiteId,
      target.address,
    );
  } catch (err) {
    if (isApiError(err)) {
      if (firstPage && err.status === 404) return undefined;
      throw new UserError('api_error', `could not read the discovered URLs of ${target.address}: ${err.message}`, { address: target.address, status: err.status });
    }
    throw err;
  }
}

/** `work` over `items`, at most `limit` at a time, results in order; every call settles before the first failure is thrown. */
export async function mapBounded<T, R>(items: readonly T[], limit: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const results = new Array<R>(items.length);
  let failure: { error: unknown } | undefined;
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) {
      const i = next++;
      try {
        results[i] = await work(items[i] as T);
      } catch (error) {
        failure ??= { error };
        next = items.length; // start nothing new; the calls in flight finish
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  if (failure) throw failure.error;
  return results;
}
