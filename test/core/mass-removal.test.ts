// The threshold of the mass-removal guard (core/mass-removal.ts): more than half of the managed
// resources, and at least 3; a resource already gone from the server never counts.
import { describe, expect, it } from 'vitest';
import { isMassDeletion, massRemovalOf } from '../../src/core/mass-removal.js';
import type { Change } from '../../src/core/plan.js';

function changes(counts: { noop?: number; create?: number; delete?: number; forget?: number; goneDelete?: number; goneForget?: number }): Change[] {
  const out: Change[] = [];
  const base = (i: number, prefix: string) => ({ type: 'tool' as const, address: `tool.${prefix}${i}`, key: `${prefix}${i}`, remoteId: `r-${prefix}${i}` });
  const times = (n = 0, make: (i: number) => Change) => Array.from({ length: n }, (_, i) => out.push(make(i)));
  times(counts.noop, (i) => ({ action: 'no-op', ...base(i, 'n') }));
  times(counts.create, (i) => ({ action: 'create', type: 'tool', address: `tool.c${i}`, key: `c${i}`, after: {}, fields: [] }));
  times(counts.delete, (i) => ({ action: 'delete', ...base(i, 'd'), before: {} }));
  times(counts.forget, (i) => ({ action: 'forget', ...base(i, 'f'), before: {} }));
  times(counts.goneDelete, (i) => ({ action: 'delete', ...base(i, 'gd'), before: {}, gone: true }));
  times(counts.goneForget, (i) => ({ action: 'forget', ...base(i, 'gf'), before: {}, gone: true }));
  return out;
}

describe('massRemovalOf', () => {
  it.each([
    { name: '3 of 5 deleted', counts: { noop: 2, delete: 3 }, mass: { removed: 3, deleted: 3, managed: 5 }, deletion: true },
    { name: 'exactly half is not more than half', counts: { noop: 3, delete: 3 }, mass: undefined, deletion: false },
    { name: '2 of 2 is under the minimum', counts: { delete: 2 }, mass: undefined, deletion: false },
    { name: 'creates are not managed resources', counts: { create: 10, noop: 2, delete: 3 }, mass: { removed: 3, deleted: 3, managed: 5 }, deletion: true },
    { name: 'forgets warn but are no deletion', counts: { noop: 1, forget: 3 }, mass: { removed: 3, deleted: 0, managed: 4 }, deletion: false },
    { name: 'mixed: warned, but the deletions alone are too few', counts: { noop: 1, delete: 2, forget: 2 }, mass: { removed: 4, deleted: 2, managed: 5 }, deletion: false },
    { name: 'already gone from the server does not count', counts: { noop: 1, goneDelete: 3, goneForget: 3 }, mass: undefined, deletion: false },
  ])('$name', ({ counts, mass, deletion }) => {
    const found = massRemovalOf({ changes: changes(counts) });
    expect(found).toEqual(mass);
    expect(isMassDeletion(found)).toBe(deletion);
  });

  it('counts a resource the refresh could not read as managed', () => {
    const unreadable = Array.from({ length: 3 }, (_, i) => ({ address: `tool.u${i}`, type: 'tool' as const, reason: 'timeout' }));
    expect(massRemovalOf({ changes: changes({ delete: 3 }), unreadable })).toBeUndefined();
    expect(massRemovalOf({ changes: changes({ delete: 4 }), unreadable })).toEqual({ removed: 4, deleted: 4, managed: 7 });
  });
});
