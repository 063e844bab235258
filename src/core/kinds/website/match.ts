// A website's `exclude` globs against its discovered URLs: which ids to leave out, how many URLs
// each glob matched (for the plan), and a fingerprint of the matched set (`matchedUrls` in the
// spec), so that a page newly matched by a glob, or one that no longer is, makes an update.
// An id the server lists under several URLs (twins) is excluded when a glob matches any of them.
// Linear: each URL is tried against each glob once (core/url-glob.ts never backtracks).
import type { JsonValue } from '../../api-types.js';
import { compileGlobSet, type GlobSet } from '../../url-glob.js';
import type { ShownChange } from '../fields.js';
import { normalizeUrl } from '../../url-normalize.js';
import type { DiscoveredUrl } from './urls.js';

export interface GlobCount {
  glob: string;
  /** URLs this glob matches (a URL matched by two globs counts for both). */
  excludes: number;
}

export interface WebsiteMatch {
  /** Ids to send as `exclude`. */
  excludeIds: string[];
  /** Ids the process call starts (the ones `--wait` follows). */
  processIds: string[];
  /** Per URL, the index of the first glob (sorted order) that excludes it, or -1. */
  excludedBy: Int32Array;
  counts: GlobCount[];
  fingerprint: string;
  /** Ids listed under several URLs of which only some match a glob: excluded all the same, and named in the plan. */
  twins: TwinExclusion[];
}

export interface TwinExclusion {
  id: string;
  /** Its URLs a glob matches, and the others. */
  matched: string[];
  unmatched: string[];
  /** The first glob (sorted order) that matches one of its URLs. */
  glob: string;
}

export function matchWebsite(globs: readonly string[], urls: readonly DiscoveredUrl[]): WebsiteMatch {
  const set: GlobSet = compileGlobSet(globs);
  const counts = globs.map((glob) => ({ glob, excludes: 0 }));
  const excludedBy = new Int32Array(urls.length).fill(-1);
  const excludeIds: string[] = [];
  const processIds: string[] = [];
  const twins: TwinExclusion[] = [];
  // A glob's count is of ids: an id it matches under two URLs counts once.
  const matchedBy = new Uint8Array(set.globs.length);
  urls.forEach((entry, i) => {
    matchedBy.fill(0);
    const first = entry.twins === undefined ? matchOne(set, entry.url, matchedBy) : matchTwins(set, entry, matchedBy, twins, globs);
    for (let g = 0; g < matchedBy.length; g++) if (matchedBy[g] === 1) (counts[g] as GlobCount).excludes++;
    excludedBy[i] = first;
    (first === -1 ? processIds : excludeIds).push(entry.id);
  });
  return { excludeIds, processIds, excludedBy, counts, fingerprint: fingerprintOf(excludeIds), twins };
}

/** The index of the first glob matching `url`, or -1; marks every glob that matches it. */
function matchOne(set: GlobSet, url: string, matchedBy: Uint8Array): number {
  const normal = normalizeUrl(url); // once per URL, not once per glob
  let first = -1;
  for (let g = 0; g < set.globs.length; g++) {
    if (!set.globs[g]!.matchesNormalized(normal)) continue;
    matchedBy[g] = 1;
    if (first === -1) first = g;
  }
  return first;
}

/** An id listed under several URLs is excluded when a glob matches any of them; a split is recorded. */
function matchTwins(set: GlobSet, entry: DiscoveredUrl, matchedBy: Uint8Array, twins: TwinExclusion[], globs: readonly string[]): number {
  const matched: string[] = [];
  const unmatched: string[] = [];
  let first = -1;
  for (const url of [entry.url, ...(entry.twins ?? [])]) {
    const by = matchOne(set, url, matchedBy);
    (by === -1 ? unmatched : matched).push(url);
    if (by !== -1 && (first === -1 || by < first)) first = by;
  }
  if (matched.length > 0 && unmatched.length > 0) twins.push({ id: entry.id, matched, unmatched, glob: globs[first] ?? '' });
  return first;
}

/** The seed form names the ids itself. */
export function matchIds(exclude: readonly string[], urls: readonly DiscoveredUrl[]): Pick<WebsiteMatch, 'excludeIds' | 'processIds' | 'excludedBy'> {
  const excluded = new Set(exclude);
  const processIds: string[] = [];
  const excludedBy = new Int32Array(urls.length).fill(-1);
  urls.forEach((entry, i) => {
    if (excluded.has(entry.id)) excludedBy[i] = 0;
    else processIds.push(entry.id);
  });
  return { excludeIds: [...exclude], processIds, excludedBy };
}

/**
 * `3 URLs #1a2b3c4d5e6f7a8b`: readable in a plan diff, and the same for the same set in any order.
 * Two 32-bit FNV-1a hashes with different offsets; a collision would only hide an update.
 */
export function fingerprintOf(ids: readonly string[]): string {
  const sorted = [...ids].sort();
  let a = 0x811c9dc5;
  let b = 0x01000193 ^ 0x5bd1e995;
  for (const id of sorted) {
    for (let i = 0; i < id.length; i++) {
      const c = id.charCodeAt(i);
      a = Math.imul(a ^ c, 0x01000193) >>> 0;
      b = Math.imul(b ^ c, 0x01000193) >>> 0;
    }
    a = Math.imul(a ^ 0x0a, 0x01000193) >>> 0;
    b = Math.imul(b ^ 0x1f, 0x01000193) >>> 0;
  }
  const hex = (n: number): string => n.toString(16).padStart(8, '0');
  return `${sorted.length} URL${sorted.length === 1 ? '' : 's'} #${hex(a)}${hex(b)}`;
}

/**
 * A changed fingerprint as a plan shows it: the number of URLs the globs exclude on each side
 * (the hash means nothing to a reader). The same number of other URLs says so, so that the update
 * still reads as one. Anything else (`not processed yet`) is shown as it is.
 */
export function showMatchedUrls(before: JsonValue | undefined, after: JsonValue | undefined): ShownChange {
  const count = (value: JsonValue | undefined): JsonValue | undefined => {
    const match = typeof value === 'string' ? /^(\d+) URLs? #[0-9a-f]{16}$/.exec(value) : null;
    return match ? Number(match[1]) : value;
  };
  const shown: ShownChange = { path: 'excluded URLs' };
  const [was, is] = [count(before), count(after)];
  if (was !== undefined) shown.before = was;
  if (is !== undefined) shown.after = was === is && typeof is === 'number' ? `${is} (other URLs)` : is;
  return shown;
}
