import { describe, expect, it } from 'vitest';
import { diffLines } from '../../src/render/line-diff.js';

const lines = (n: number, prefix = 'line'): string => Array.from({ length: n }, (_, i) => `${prefix} ${i}`).join('\n');

describe('diffLines', () => {
  it('shows one changed line with two lines of context and folds the rest', () => {
    const before = lines(10);
    const after = before.replace('line 5', 'line five');
    expect(diffLines(before, after)).toEqual([
      { kind: 'skipped', count: 3 },
      { kind: 'same', text: 'line 3' },
      { kind: 'same', text: 'line 4' },
      { kind: 'removed', text: 'line 5' },
      { kind: 'added', text: 'line five' },
      { kind: 'same', text: 'line 6' },
      { kind: 'same', text: 'line 7' },
      { kind: 'skipped', count: 2 },
    ]);
  });

  it('finds inserted and deleted lines in the middle', () => {
    expect(diffLines('a\nb\nc\nd', 'a\nc\nx\nd', 0)).toEqual([
      { kind: 'skipped', count: 1 },
      { kind: 'removed', text: 'b' },
      { kind: 'skipped', count: 1 },
      { kind: 'added', text: 'x' },
      { kind: 'skipped', count: 1 },
    ]);
  });

  it('replaces wholesale when the texts are too large for the table', () => {
    const result = diffLines(lines(2100, 'a'), lines(2100, 'b'));
    expect(result.filter((l) => l.kind === 'removed')).toHaveLength(2100);
    expect(result.filter((l) => l.kind === 'added')).toHaveLength(2100);
  });

  it('keeps every line when context is unlimited', () => {
    expect(diffLines('a\nb', 'a\nc', Infinity).map((l) => l.kind)).toEqual(['same', 'removed', 'added']);
  });
});
