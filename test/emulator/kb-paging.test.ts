// The cursor paging of the knowledge-base lists, as a property: following meta.next from the first
// page yields every kept record exactly once, in order; following meta.previous back from the last
// page yields them all again; both cursor lookups (scan and binary search) agree.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { locateBySeq, pageOf, paginationKey, type PageRequest } from '../../src/emulator/kb/paging.js';

interface Item {
  seq: number;
  createdAt: number;
  kept: boolean;
}

const keyOf = (item: Item): string => paginationKey(item.createdAt, item.seq);

function walk(items: Item[], limit: number, affix: PageRequest['affix'], fast: boolean): Item[] {
  const locate = fast ? (cursor: string) => locateBySeq(items, (item) => item.seq, keyOf, cursor) : undefined;
  const seen: Item[] = [];
  let cursor: string | undefined;
  for (let guard = 0; guard <= items.length + 1; guard++) {
    const { data, meta } = pageOf(items, keyOf, (item) => item.kept, { limit, affix, cursor }, locate);
    expect(meta.current).toEqual({ limit, count: data.length });
    expect(data.length).toBeLessThanOrEqual(limit);
    if (affix === 'append') seen.push(...data);
    else seen.unshift(...data);
    const step = affix === 'append' ? meta.next : meta.previous;
    if (!step) return seen;
    expect(step.affix).toBe(affix);
    cursor = step.cursor;
  }
  throw new Error('paging did not end');
}

describe('knowledge-base cursor paging', () => {
  it('visits every kept record once, forwards and backwards, with either cursor lookup', () => {
    fc.assert(
      fc.property(fc.array(fc.boolean(), { maxLength: 120 }), fc.integer({ min: 1, max: 100 }), (keptFlags, limit) => {
        const items = keptFlags.map((kept, index) => ({ seq: index + 1, createdAt: 1_700_000_000_000, kept }));
        const expected = items.filter((item) => item.kept);
        for (const fast of [false, true]) {
          expect(walk(items, limit, 'append', fast)).toEqual(expected);
          expect(walk(items, limit, 'prepend', fast)).toEqual(expected);
        }
      }),
      { numRuns: 300 },
    );
  });

  it('finds no record for a cursor whose time or seq is not in the list', () => {
    const items = [1, 2, 3].map((seq) => ({ seq, createdAt: 5, kept: true }));
    const find = (cursor: string) => locateBySeq(items, (item) => item.seq, keyOf, cursor);
    expect([find('5.2'), find('6.2'), find('5.9'), find('5.0')]).toEqual([1, -1, -1, -1]);
  });
});
