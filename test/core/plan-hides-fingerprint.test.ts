// A website's `matchedUrls` is the plan's own bookkeeping (a fingerprint of the URLs the exclude
// globs matched): a change of it is an update, but its field diff reads as URL counts, never as
// the internal field or its hash.
import { describe, expect, it } from 'vitest';
import { planChanges } from '../../src/core/diff.js';
import type { Desired } from '../../src/core/desired.js';
import { fingerprintOf } from '../../src/core/kinds/website/match.js';
import type { Change } from '../../src/core/plan.js';
import { desiredOf, digest, stateOf } from './diff-fixtures.js';

const site = (matchedUrls: string): Desired => {
  const desired = desiredOf({ knowledgeBase: { websites: { docs: { url: 'https://docs.example.com', exclude: ['https://docs.example.com/blog/**'] } } } });
  const resource = desired.resources[0];
  if (resource?.type !== 'website') throw new Error('no website');
  resource.spec = { ...resource.spec, matchedUrls };
  return desired;
};
const fieldsOf = (change: Change | undefined) => (change?.action === 'create' || change?.action === 'update' ? change.fields : []);

describe('the matchedUrls fingerprint in a plan', () => {
  const three = fingerprintOf(['u1', 'u2', 'u3']);
  const five = fingerprintOf(['u1', 'u2', 'u3', 'u4', 'u5']);
  const otherThree = fingerprintOf(['u1', 'u2', 'u9']);

  it('a new match count is an update that reads as excluded URLs, without the hash', () => {
    const plan = planChanges({ desired: site(five), state: stateOf(site(three)), digest });
    const change = plan.changes.find((c) => c.address === 'website.docs');
    expect(change?.action).toBe('update');
    expect(fieldsOf(change)).toEqual([{ path: 'excluded URLs', before: 3, after: 5 }]);
  });

  it('the same count of other URLs is still an update, and says so', () => {
    const plan = planChanges({ desired: site(otherThree), state: stateOf(site(three)), digest });
    const change = plan.changes.find((c) => c.address === 'website.docs');
    expect(change?.action).toBe('update');
    expect(JSON.stringify(fieldsOf(change))).not.toMatch(/matchedUrls|#[0-9a-f]{16}/);
    expect(fieldsOf(change)).toEqual([{ path: 'excluded URLs', before: 3, after: '3 (other URLs)' }]);
  });

  it('a create lists the count, not the fingerprint', () => {
    const plan = planChanges({ desired: site(three), state: null, digest });
    const text = JSON.stringify(fieldsOf(plan.changes.find((c) => c.address === 'website.docs')));
    expect(text).not.toMatch(/matchedUrls|#[0-9a-f]{16}/);
    expect(text).toContain('{"path":"excluded URLs","after":3}');
  });
});
