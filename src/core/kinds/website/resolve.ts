// Websites declared by URL, before the diff (docs/spec/knowledge-base.md#apply): the discovered
// URLs read by the refresh say which URLs the `exclude` globs match now. That fingerprint becomes
// the desired spec's `matchedUrls`, so a page newly matched (or no longer matched) is an update;
// and the plan reports how many URLs each glob matches, warning about a glob that matches none.
// Without a listing (an offline plan, a website not scraped yet) the state's fingerprint stands:
// nothing is assumed.
import type { Desired, DesiredResource } from '../../desired.js';
import type { DiscoveredUrl } from './urls.js';
import { matchWebsite, type TwinExclusion } from './match.js';
import type { WebsiteReport } from '../../plan.js';
import type { State } from '../../state.js';
import { effectiveMoves } from '../../effective-moves.js';
import { appendAll } from '../../arrays.js';

export interface ResolvedWebsites {
  /** The desired manifest with each URL website's `matchedUrls` filled in (the same object when none). */
  desired: Desired;
  reports: WebsiteReport[];
  warnings: string[];
  /** address → fingerprint, for a saved plan to replay without reading the server again. */
  matched: Record<string, string>;
}

/** `listings`: address → discovered URLs, for the websites the refresh read; absent when offline. */
export function resolveWebsites(desired: Desired, state: State | null, listings?: ReadonlyMap<string, readonly DiscoveredUrl[]>, saved?: Readonly<Record<string, string>>): ResolvedWebsites {
  const reports: WebsiteReport[] = [];
  const warnings: string[] = [];
  const matched: Record<string, string> = {};
  let changed = false;
  // A website renamed by `moved:` is still read, and recorded, under its old address until apply
  // moves it: its listing and fingerprint are found there, so a rename is not a re-process.
  const movedFrom = new Map(effectiveMoves(desired.moved ?? [], state?.resources ?? {}).map((move) => [move.to, move.from]));
  const resources = desired.resources.map((resource): DesiredResource => {
    if (resource.type !== 'website' || resource.spec.url === undefined) return resource;
    const from = movedFrom.get(resource.address);
    const urls = listings?.get(resource.address) ?? (from === undefined ? undefined : listings?.get(from));
    let fingerprint: string | undefined;
    if (urls !== undefined) {
      const match = matchWebsite(resource.spec.exclude ?? [], urls);
      fingerprint = match.fingerprint;
      reports.push({ address: resource.address, urls: urls.length, excluded: match.excludeIds.length, globs: match.counts });
      for (const { glob, excludes } of match.counts) {
        if (excludes === 0) warnings.push(`${resource.address}: exclude glob ${JSON.stringify(glob)} matches none of its ${urls.length} discovered URLs`);
      }
      appendAll(warnings, twinWarnings(resource.address, match.twins));
    } else {
      const recorded = saved?.[resource.address] ?? (state?.resources[resource.address] ?? (from === undefined ? undefined : state?.resources[from]))?.spec.matchedUrls;
      fingerprint = typeof recorded === 'string' ? recorded : undefined;
    }
    if (fingerprint === undefined) return resource;
    matched[resource.address] = fingerprint;
    changed = true;
    return { ...resource, spec: { ...resource.spec, matchedUrls: fingerprint } };
  });
  return { desired: changed ? { ...desired, resources } : desired, reports, warnings, matched };
}

/** Named one by one up to this many; past it, how many more. */
const TWINS_NAMED = 5;

/**
 * An id the server lists under two URLs, one excluded and one not, stays excluded (excluding a URL
 * excludes the page the server has under it): the plan names it, since the other URL is left out too.
 */
function twinWarnings(address: string, twins: readonly TwinExclusion[]): string[] {
  const lines = twins
    .slice(0, TWINS_NAMED)
    .map(
      (twin) =>
        `${address}: discovered URL ${twin.id} is listed under ${[...twin.matched, ...twin.unmatched].length} URLs; it stays excluded, as ${JSON.stringify(twin.glob)} matches ${twin.matched.join(', ')}, so ${twin.unmatched.join(', ')} is not processed either`,
    );
  if (twins.length > TWINS_NAMED) lines.push(`${address}: ${twins.length - TWINS_NAMED} more discovered URLs are listed under several URLs and excluded by one of them`);
  return lines;
}
