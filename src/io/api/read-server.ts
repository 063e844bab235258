// The server half of refresh: one list call per readable kind (two today, whatever the number of
// resources), read through each kind's module into the shape core/refresh.ts compares.
import { isUserError, UserError } from '../../core/errors.js';
import { isObject, kindOf, moduleOf, RESOURCE_TYPES, type ResourceType } from '../../core/kinds/index.js';
import type { Observable, ObserveTarget } from '../../core/kinds/observe.js';
import type { KindListing, ServerSnapshot } from '../../core/refresh.js';
import type { State } from '../../core/state.js';
import { isApiError } from './api-error.js';
import { scrubOutside } from './outside-text.js';
import type { ApiClient, CallOptions } from './client.js';

export async function readServer(client: ApiClient, types: readonly ResourceType[] = RESOURCE_TYPES): Promise<ServerSnapshot> {
  const readable = types.filter((type) => kindOf(type).refresh !== undefined);
  // Every list call settles before a failure is reported, so none is left running (and retrying)
  // while the caller closes the client.
  const settled = await Promise.allSettled(readable.map((type) => readListing(client, type)));
  const failed = settled.find((s): s is PromiseRejectedResult => s.status === 'rejected');
  if (failed) throw failed.reason;
  const listings = settled.map((s) => (s as PromiseFulfilledResult<KindListing>).value);
  const snapshot: ServerSnapshot = {};
  readable.forEach((type, i) => (snapshot[type] = listings[i]));
  return snapshot;
}

/** What one refresh read: every kind's listing, and, for the kinds read resource by resource, what each read answered. */
export interface ServerRead {
  snapshot: ServerSnapshot;
  /** type → address → what the kind's `observe.read` answered (resources found only). */
  seen: Partial<Record<ResourceType, ReadonlyMap<string, unknown>>>;
}

/**
 * The refresh's reading of the server (docs/spec/server.md#refresh): every kind the way it needs,
 * all at once: one list call per listable kind (one the manifest, `declared`, and the state do not
 * use is skipped when its refresh says `onlyWhenUsed`), and each resource the state holds of a kind
 * that is read resource by resource.
 */
export async function readKinds(client: ApiClient, state: State | null, declared: ReadonlySet<ResourceType> = new Set(RESOURCE_TYPES)): Promise<ServerRead> {
  const observed = RESOURCE_TYPES.flatMap((type) => {
    const observe = moduleOf(type).observe;
    return observe === undefined ? [] : [{ type, observe }];
  });
  const held = new Set(Object.values(state?.resources ?? {}).map((entry) => entry.type));
  const listed = RESOURCE_TYPES.filter((type) => kindOf(type).refresh?.onlyWhenUsed !== true || declared.has(type) || held.has(type));
  const [snapshot, ...reads] = await Promise.all([readServer(client, listed), ...observed.map(({ observe }) => readObserved(client, observe, state))]);
  const seen: ServerRead['seen'] = {};
  observed.forEach(({ type }, i) => {
    const read = reads[i] as ObservedRead;
    snapshot[type] = read.listing;
    seen[type] = read.seen;
  });
  return { snapshot, seen };
}

/** Resources read at once: enough to hide latency, few enough to stay inside a rate budget. */
export const OBSERVE_CONCURRENCY = 16;

export interface ObservedRead {
  /** For core/refresh.ts: the resources found, matched by their state remote id. */
  listing: KindListing;
  /** address → what its read answered (found only). */
  seen: Map<string, unknown>;
  /** Addresses the server answered 404 for. */
  gone: Set<string>;
}

/**
 * Reads every target of a kind, OBSERVE_CONCURRENCY at a time. A resource that cannot be read is
 * named in `listing.unreadable` with the reason, and the others are still read
 * (docs/spec/server.md#refresh): one broken read does not stop a plan of everything else.
 */
export async function readObserved<Seen>(client: ApiClient, observe: Observable<Seen>, state: State | null, options: CallOptions = {}): Promise<ObservedRead> {
  const targets = observe.targets(state);
  const result: ObservedRead = { listing: { records: [], matchable: true }, seen: new Map(), gone: new Set() };
  const unreadable: Record<string, string> = {};
  const found = await mapBounded(targets, OBSERVE_CONCURRENCY, async (target) => {
    try {
      return await readTarget(client, observe, target, options);
    } catch (err) {
      if (!isUserError(err)) throw err;
      unreadable[target.address] = err.message;
      return null;
    }
  });
  if (Object.keys(unreadable).length > 0) result.listing.unreadable = unreadable;
  targets.forEach((target, i) => {
    const answer = found[i];
    if (answer === null) return;
    if (answer === undefined) {
      result.gone.add(target.address);
      return;
    }
    result.seen.set(target.address, answer.value);
    const remoteId = state?.resources[target.address]?.remoteId;
    if (remoteId !== undefined) result.listing.records.push({ remoteId, spec: {} });
  });
  return result;
}

/** One target's read, or undefined when the server says it does not exist (a 404 on the first GET). */
export async function readTarget<Seen>(client: ApiClient, observe: Observable<Seen>, target: ObserveTarget, options: CallOptions = {}): Promise<{ value: Seen } | undefined> {
  let firstPage = true;
  try {
    const value = await observe.read(async (path, limits) => {
      const answer = await client.request({ method: 'GET', path, ...limits }, options);
      firstPage = false;
      return answer;
    }, target);
    return { value };
  } catch (err) {
    if (isApiError(err)) {
      if (firstPage && err.status === 404) return undefined;
      throw new UserError('api_error', `could not read ${observe.what} of ${target.address}: ${err.message}`, { address: target.address, status: err.status });
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

/** For commands that must see every record (export, import): an incomplete list is an error, not a guess. */
export function assertComplete(snapshot: ServerSnapshot, command: string): void {
  for (const [type, listing] of Object.entries(snapshot)) {
    if (listing?.incomplete !== undefined) throw new UserError('api_error', `cannot ${command}: the server's list of ${type}s ${listing.incomplete}`);
  }
}

/** A server that pages forever (or loops on a cursor) is an error, not a hang. */
export const MAX_LIST_PAGES = 1000;
/**
 * And one that ignores paging cannot fill memory: entries read, and the bytes of every page added
 * up, are bounded per list (far above any app's tools or agents).
 */
export const MAX_LIST_ENTRIES = 100_000;
export const MAX_LIST_BYTES = 256 * 1024 * 1024;
const LIST_PAGE_BYTES = 32 * 1024 * 1024;

async function readListing(client: ApiClient, type: ResourceType): Promise<KindListing> {
  const refresh = kindOf(type).refresh;
  if (!refresh) throw new Error(`${type} cannot be read from the server`);
  const listing: KindListing = { records: [], matchable: true };
  const seen = new Set<string>();
  let query: string | undefined;
  let entries = 0;
  let bytes = 0;
  for (let page = 1; ; page++) {
    const path = query === undefined ? refresh.listPath : `${refresh.listPath}${refresh.listPath.includes('?') ? '&' : '?'}${query}`;
    const call = `GET ${path}`;
    let answer: unknown;
    try {
      answer = await client.request({ method: 'GET', path, maxResponseBytes: Math.min(LIST_PAGE_BYTES, MAX_LIST_BYTES - bytes), onAnswerBytes: (size) => (bytes += size) });
    } catch (err) {
      if (!isApiError(err)) throw err;
      if (page === 1) throw new UserError('api_error', `could not read the server's ${type}s: ${err.message}${wrongBaseHint(client, path, err.status)}`, { call, status: err.status });
      // What the first pages held is true; what the rest would have held is unknown (docs/spec/server.md#absence-must-be-proven).
      listing.incomplete = `page ${page} could not be read (${err.message})`;
      return listing;
    }
    const { list, next } = pageOf(answer);
    if (list === undefined) throw new UserError('api_error', `could not read the server's ${type}s: ${call} did not answer a list`, { call });
    entries += list.length;
    if (entries > MAX_LIST_ENTRIES) {
      // Checked before the entries are read; what was read is true, the rest unknown, as for an unreadable page.
      listing.incomplete = `holds more than ${MAX_LIST_ENTRIES.toLocaleString('en-US')} entries (page ${page}); the server is not paging as asked`;
      return listing;
    }
    for (const entry of list) {
      // Skipping a malformed entry would make its resource look deleted and plan a duplicate.
      if (!isObject(entry)) throw new UserError('api_error', `could not read the server's ${type}s: ${call} answered a list with an entry that is not an object`, { call });
      const record = refresh.read(entry);
      if (record === undefined) continue; // a soft-deleted record: not there
      if ((refresh.matchBy === 'key' ? record.identity : record.remoteId) === undefined) listing.matchable = false;
      listing.records.push(record);
    }
    if (next === undefined) return listing;
    if (next === null) {
      listing.incomplete = 'says there is more but gives no cursor to read it';
      return listing;
    }
    if (seen.has(next) || page >= MAX_LIST_PAGES || bytes >= MAX_LIST_BYTES) {
      listing.incomplete = seen.has(next)
        ? `gave the same cursor twice (page ${page + 1})`
        : page >= MAX_LIST_PAGES
          ? `has more than ${MAX_LIST_PAGES} pages`
          : `has pages that add up to more than ${MAX_LIST_BYTES / (1024 * 1024)} MB`;
      return listing;
    }
    seen.add(next);
    query = next;
  }
}

/**
 * One answer of a list call: its entries, and the query of the next page (undefined when this is
 * the last, null when the answer says there is more but not how to read it). The reference answers
 * a bare array; `{data: [...]}` is accepted as well, paged by `meta.next` (`{cursor, affix}` as the
 * knowledge-base lists page, `{createdAt, affix}` as the Agent Builder lists do, or a cursor string), `meta.nextCursor`/`hasMore`, or
 * `meta.pagination` (`current_page` of `total_pages`).
 */
function pageOf(answer: unknown): { list: unknown[] | undefined; next: string | null | undefined } {
  if (Array.isArray(answer)) return { list: answer, next: undefined };
  if (!isObject(answer) || !Array.isArray(answer.data)) return { list: undefined, next: undefined };
  const meta = isObject(answer.meta) ? answer.meta : {};
  return { list: answer.data, next: nextQuery(meta) };
}

function nextQuery(meta: Record<string, unknown>): string | null | undefined {
  const next = meta.next;
  if (isObject(next)) {
    // The knowledge-base list's cursor is `cursor`; the Agent Builder lists' is the last entry's `createdAt`.
    const [name, cursor] = scalar(next.cursor) !== undefined ? ['cursor', scalar(next.cursor)] : ['createdAt', scalar(next.createdAt)];
    if (cursor === undefined) return Object.keys(next).length === 0 ? undefined : null;
    const affix = scalar(next.affix);
    return new URLSearchParams(affix === undefined ? { [name]: cursor } : { [name]: cursor, affix }).toString();
  }
  if (typeof next === 'string' && next !== '') return new URLSearchParams({ cursor: next }).toString();
  const nextCursor = scalar(meta.nextCursor);
  if (nextCursor !== undefined) return new URLSearchParams({ cursor: nextCursor }).toString();
  if (meta.hasMore === true) return null;
  const pagination = isObject(meta.pagination) ? meta.pagination : undefined;
  const current = Number(pagination?.current_page);
  const total = Number(pagination?.total_pages);
  if (Number.isInteger(current) && Number.isInteger(total) && current < total) return new URLSearchParams({ page: String(current + 1) }).toString();
  return undefined;
}

function scalar(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : typeof value === 'number' && Number.isFinite(value) ? String(value) : undefined;
}

/**
 * A 404 on the very first list means the base URL is wrong far more often than the API is gone:
 * say which URL was asked and what a base URL looks like.
 */
function wrongBaseHint(client: ApiClient, path: string, status: number): string {
  if (status !== 404 || client.baseUrl === undefined) return '';
  const base = client.baseUrl;
  const v3 = base.endsWith('/v3') ? '' : ' It usually ends in /v3, as in https://APP_ID.api-us.cometchat.io/v3.';
  // The base URL comes from the manifest or the environment, and may carry a secret in its path.
  return scrubOutside(` (asked ${base}${path}). Check the base URL ${base} (the manifest's baseUrl, or AGENTSYNC_BASE_URL).${v3}`);
}
