// Issue 31, the pure half: a website renamed by `moved:` keeps its listing and fingerprint (item 15),
// a resource the refresh could not read is planned for nowhere, under either address (item 12), and
// an entry whose DELETE was started is deleted by any plan, never forgotten (item 2).
import { describe, expect, it } from 'vitest';
import { planChanges } from '../../src/core/diff.js';
import type { Desired } from '../../src/core/desired.js';
import { resolveWebsites } from '../../src/core/kinds/website/resolve.js';
import type { DiscoveredUrl } from '../../src/core/kinds/website/urls.js';
import { foldEntry, type State } from '../../src/core/state.js';
import { APPLIED_AT, desiredOf, digest, stateOf } from './diff-fixtures.js';

const URLS: DiscoveredUrl[] = [
  { id: 'u1', url: 'https://docs.example.com/', status: 'processed' },
  { id: 'u2', url: 'https://docs.example.com/changelog', status: 'skipped' },
];
const site = { url: 'https://docs.example.com/', exclude: ['**/changelog*'] };

/** The state an apply of `docs` leaves, with the fingerprint its listing gives. */
function appliedDocs(): State {
  const desired = desiredOf({ knowledgeBase: { websites: { docs: site } } });
  return stateOf(resolveWebsites(desired, null, new Map([['website.docs', URLS]])).desired);
}

function renamed(): Desired {
  return { ...desiredOf({ knowledgeBase: { websites: { handbook: site } } }), moved: [{ from: 'website.docs', to: 'website.handbook' }] };
}

describe('a website renamed with moved:', () => {
  it('is matched with the listing read under its old address: a move, not an update', () => {
    const state = appliedDocs();
    const sites = resolveWebsites(renamed(), state, new Map([['website.docs', URLS]]));
    const plan = planChanges({ desired: sites.desired, state, digest });
    expect(plan.changes.map((c) => [c.address, c.action])).toEqual([['website.handbook', 'no-op']]);
    expect(plan.moves?.map((m) => `${m.from}→${m.to}`)).toEqual(['website.docs→website.handbook']);
  });

  it('offline, keeps the fingerprint recorded under its old address', () => {
    const state = appliedDocs();
    const plan = planChanges({ desired: resolveWebsites(renamed(), state).desired, state, digest });
    expect(plan.changes.map((c) => c.action)).toEqual(['no-op']);
  });
});

describe('a resource the refresh could not read', () => {
  const refresh = (address: string) => ({ drift: [], warnings: [], untracked: {}, unreadable: [{ address, type: 'website' as const, reason: 'the list never ends' }] });

  it('has no change at all, is listed with its reason, and the rest is planned', () => {
    const state = appliedDocs();
    const desired = desiredOf({ knowledgeBase: { websites: { docs: { ...site, exclude: [] }, blog: { url: 'https://blog.example.com/', exclude: [] } } } });
    const plan = planChanges({ desired, state, digest, refresh: refresh('website.docs') });
    expect(plan.changes.map((c) => [c.address, c.action])).toEqual([['website.blog', 'create']]);
    expect(plan.unreadable).toEqual([{ address: 'website.docs', type: 'website', reason: 'the list never ends' }]);
    expect(plan.summary).toMatchObject({ create: 1, update: 0 });
  });

  it('is not planned at its new address either when it is being moved', () => {
    const state = appliedDocs();
    const desired: Desired = { ...renamed(), resources: renamed().resources.map((r) => (r.type === 'website' ? { ...r, spec: { ...r.spec, exclude: [] } } : r)) };
    const plan = planChanges({ desired, state, digest, refresh: refresh('website.docs') });
    expect(plan.changes).toEqual([]);
  });
});

describe('an entry whose DELETE was started', () => {
  it('is deleted by a plan without --prune; others leaving the manifest are forgotten', () => {
    const state = appliedDocs();
    foldEntry(state, { op: 'applied', address: 'website.docs~old', type: 'website', remoteId: 'old', spec: { url: site.url, exclude: [] }, appliedAt: APPLIED_AT });
    foldEntry(state, { op: 'pending', address: 'website.docs~old', type: 'website', since: APPLIED_AT, action: 'delete' });
    const plan = planChanges({ desired: desiredOf({}), state, digest });
    expect(plan.changes.map((c) => [c.address, c.action])).toEqual([
      ['website.docs', 'forget'],
      ['website.docs~old', 'delete'],
    ]);
  });
});

describe('an id listed under several URLs (twins)', () => {
  const desired = (exclude: string[]): Desired => desiredOf({ knowledgeBase: { websites: { docs: { url: 'https://docs.example.com/', exclude } } } });
  const twin = (i: number): DiscoveredUrl => ({ id: `t${i}`, url: `https://docs.example.com/p${i}`, twins: [`https://docs.example.com/old/p${i}`], status: 'discovered' });

  it('counts an id once per glob even when the glob matches both of its URLs, and names no split', () => {
    const sites = resolveWebsites(desired(['**/p1']), null, new Map([['website.docs', [twin(1), ...URLS]]]));
    expect(sites.reports[0]).toMatchObject({ urls: 3, excluded: 1, globs: [{ glob: '**/p1', excludes: 1 }] });
    expect(sites.warnings).toEqual([]);
  });

  it('names five split ids, then how many more', () => {
    const urls = Array.from({ length: 7 }, (_, i) => twin(i));
    const sites = resolveWebsites(desired(['**/old/**']), null, new Map([['website.docs', urls]]));
    expect(sites.reports[0]).toMatchObject({ urls: 7, excluded: 7 });
    expect(sites.warnings).toHaveLength(6);
    expect(sites.warnings[0]).toBe(
      'website.docs: discovered URL t0 is listed under 2 URLs; it stays excluded, as "**/old/**" matches https://docs.example.com/old/p0, so https://docs.example.com/p0 is not processed either',
    );
    expect(sites.warnings[5]).toBe('website.docs: 2 more discovered URLs are listed under several URLs and excluded by one of them');
  });
});
