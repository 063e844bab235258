// How the refresh reads websites (docs/spec/knowledge-base.md#refresh-and-drift): the API lists
// no websites, so each one the state holds is read by its discovered URLs, and those URLs say which
// pages a URL website's `exclude` globs match now (./resolve.ts).
import type { ResourceState, State } from '../../state.js';
import type { Observable, ObserveTarget } from '../observe.js';
import { resolveWebsites } from './resolve.js';
import { readDiscoveredUrls, type DiscoveredUrl } from './urls.js';

/** The id the discovered-URL routes take: a URL website's recorded id, the seed form's parentUniqueId. */
export function websiteIdOf(entry: Pick<ResourceState, 'remoteId' | 'spec'>): string | undefined {
  if (typeof entry.spec.url === 'string') return entry.remoteId;
  return typeof entry.spec.parentUniqueId === 'string' ? entry.spec.parentUniqueId : undefined;
}

function websiteTargetsOf(state: State | null): ObserveTarget[] {
  const targets: ObserveTarget[] = [];
  for (const [address, entry] of Object.entries(state?.resources ?? {})) {
    if (entry.type !== 'website') continue;
    const readId = websiteIdOf(entry);
    if (readId !== undefined) targets.push({ address, readId });
  }
  return targets;
}

export const websiteObserver: Observable<DiscoveredUrl[]> = {
  what: 'the discovered URLs',
  targets: websiteTargetsOf,
  read: (get, target) => readDiscoveredUrls(get, target.readId, target.address),
  resolve(desired, state, seen, saved) {
    const { desired: resolved, reports, warnings, matched } = resolveWebsites(desired, state, seen, saved);
    return { desired: resolved, reports, warnings, recorded: matched };
  },
};
