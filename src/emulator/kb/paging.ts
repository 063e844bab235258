// Cursor paging as the reference's knowledge-base lists do it: `cursor` + `limit` (default 10, at
// most 100) + `affix` (append = the page after the cursor, prepend = the page before it), and a
// `meta` of `{current:{limit,count}, next?:{affix:'append',cursor}, previous?:{affix:'prepend',cursor}}`
// where next/previous appear only when such records exist. A cursor is a record's paginationKey,
// `<createdAt>.<seq>` (the form of the reference's example "1732492800000.12345"); clients should
// treat it as opaque.
import { badRequest } from '../errors.js';

export const DEFAULT_PAGE_LIMIT = 10;
export const MAX_PAGE_LIMIT = 100;

export interface PageMeta {
  current: { limit: number; count: number };
  next?: { affix: 'append'; cursor: string };
  previous?: { affix: 'prepend'; cursor: string };
}

export interface PageRequest {
  limit: number;
  affix: 'append' | 'prepend';
  cursor: string | undefined;
}

export function paginationKey(createdAt: number | undefined, seq: number | undefined): string {
  return `${createdAt ?? 0}.${seq ?? 0}`;
}

/** Reads `limit`, `affix` and `cursor`; a bad value is a 400 naming the parameter (the reference lists 400 for this). */
export function readPageRequest(query: URLSearchParams): PageRequest {
  const limitText = query.get('limit');
  let limit = DEFAULT_PAGE_LIMIT;
  if (limitText !== null) {
    limit = Number(limitText);
    if (limitText.trim() === '' || !Number.isInteger(limit) || limit < 1 || limit > MAX_PAGE_LIMIT) {
      throw badRequest(`'limit' must be a whole number from 1 to ${MAX_PAGE_LIMIT}; got "${limitText}".`);
    }
  }
  const affix = query.get('affix') ?? 'append';
  if (affix !== 'append' && affix !== 'prepend') throw badRequest(`'affix' must be "append" or "prepend"; got "${affix}".`);
  const cursorText = query.get('cursor');
  const cursor = cursorText === null || cursorText === '' ? undefined : cursorText;
  if (cursor !== undefined && !/^\d+\.\d+$/.test(cursor)) throw badRequest(`'cursor' "${cursor}" is not a cursor this server gave (take it from meta.next or meta.previous).`);
  return { limit, affix, cursor };
}

/**
 * One page of `items` (already in list order) that pass `keep`. O(position + limit) plus a look
 * past each end for the next/previous marker.
 */
export function pageOf<T>(
  items: readonly T[],
  keyOf: (item: T) => string,
  keep: (item: T) => boolean,
  request: PageRequest,
  /** The cursor's index, found faster than a scan when the caller knows the order; -1 when absent. */
  locate: (cursor: string) => number = (cursor) => items.findIndex((item) => keyOf(item) === cursor),
): { data: T[]; meta: PageMeta } {
  let at = -1;
  if (request.cursor !== undefined) {
    at = locate(request.cursor);
    if (at < 0) throw badRequest(`'cursor' "${request.cursor}" names no record of this list (was it re-crawled or deleted?).`);
  }
  const data: T[] = [];
  let first: number;
  let last: number;
  if (request.affix === 'append') {
    let i = at + 1;
    for (; i < items.length && data.length < request.limit; i++) if (keep(items[i] as T)) data.push(items[i] as T);
    first = at + 1;
    last = i - 1;
  } else {
    let i = at < 0 ? items.length - 1 : at - 1;
    for (; i >= 0 && data.length < request.limit; i--) if (keep(items[i] as T)) data.push(items[i] as T);
    data.reverse();
    first = i + 1;
    last = at < 0 ? items.length - 1 : at - 1;
  }
  const meta: PageMeta = { current: { limit: request.limit, count: data.length } };
  const firstItem = data[0];
  const lastItem = data[data.length - 1];
  if (lastItem !== undefined && anyKept(items, last + 1, items.length, keep)) meta.next = { affix: 'append', cursor: keyOf(lastItem) };
  if (firstItem !== undefined && anyKept(items, 0, first, keep)) meta.previous = { affix: 'prepend', cursor: keyOf(firstItem) };
  return { data, meta };
}

function anyKept<T>(items: readonly T[], from: number, to: number, keep: (item: T) => boolean): boolean {
  for (let i = from; i < to; i++) if (keep(items[i] as T)) return true;
  return false;
}

/** Index of the record with this cursor in a list sorted by ascending `seq`, by binary search; -1 when none. */
export function locateBySeq<T>(items: readonly T[], seqOf: (item: T) => number, keyOf: (item: T) => string, cursor: string): number {
  const seq = Number(cursor.slice(cursor.lastIndexOf('.') + 1));
  let low = 0;
  let high = items.length - 1;
  while (low <= high) {
    const mid = (low + high) >>> 1;
    const value = seqOf(items[mid] as T);
    if (value === seq) return keyOf(items[mid] as T) === cursor ? mid : -1;
    if (value < seq) low = mid + 1;
    else high = mid - 1;
  }
  return -1;
}
