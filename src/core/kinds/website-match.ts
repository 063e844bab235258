// A website's `exclude` globs against its discovered URLs: which ids to leave out, how many URLs
// each glob matched (for the plan), and a fingerprint of the matched set (`matchedUrls` in the
// spec), so that a page newly matched by a glob, or one that no longer is, makes an update.
// Linear: each URL is tried against each glob once (core/url-glob.ts never backtracks).
import type { JsonValue } from '../api-types.js';
import { compileGlobSet, type GlobSet } from '../url-glob.js';
import type { ShownChange } from './fields.js';
import { normalizeUrl } from '../url-normalize.js';
import type { DiscoveredUrl } from './website-urls.js';

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
}

export function matchWebsite(globs: readonly string[], urls: readonly DiscoveredUrl[]): WebsiteMatch {
  const set: GlobSet = compileGlobSet(globs);
  const counts = globs.map((glob) => ({ glob, excludes: 0 }));
  const excludedBy = new Int32Array(urls.length).fill(-1);
  const excludeIds: string[] = [];
  const processIds: string[] = [];
  urls.forEach((entry, i) => {
    let first = -1;
    const url = normalizeUrl(entry.url); // once per URL, not once per glob
    for (let g = 0; g < set.globs.length; g++) {
      if (!set.globs[g]!.matchesNormalized(url)) continue;
      (counts[g] as GlobCount).excludes++;
      if (first === -1) first = g;
    }
    excludedBy[i] = first;
    (first === -1 ? processIds : excludeIds).push(entry.id);
  });
  return { excludeIds, processIds, excludedBy, counts, fingerprint: fingerprintOf(excludeIds) };
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
