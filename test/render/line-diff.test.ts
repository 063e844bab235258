import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { diffLines, textLines, type DiffLine } from '../../src/render/line-diff.js';

const lines = (n: number, prefix = 'line'): string => Array.from({ length: n }, (_, i) => `${prefix} ${i}`).join('\n');
const count = (result: readonly DiffLine[], kind: DiffLine['kind']): number => result.filter((l) => l.kind === kind).length;

/** The length of a longest common subsequence, by the textbook table: the reference for small inputs. */
function lcsLength(a: readonly string[], b: readonly string[]): number {
  let row = new Array<number>(b.length + 1).fill(0);
  for (const x of a) {
    const next = [0];
    b.forEach((y, j) => next.push(x === y ? (row[j] ?? 0) + 1 : Math.max(row[j + 1] ?? 0, next[j] ?? 0)));
    row = next;
  }
  return row[b.length] ?? 0;
}

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

  it('a 2,400-line instruction with one line edited near the top and one inserted near the bottom shows those three lines', () => {
    const before = lines(2400);
    const after = before.replace('line 10\n', 'line ten\n').replace('line 2390\n', 'line 2390\na new line\n');
    const started = performance.now();
    const result = diffLines(before, after);
    expect(performance.now() - started).toBeLessThan(500);
    expect(result).toEqual([
      { kind: 'skipped', count: 8 },
      { kind: 'same', text: 'line 8' },
      { kind: 'same', text: 'line 9' },
      { kind: 'removed', text: 'line 10' },
      { kind: 'added', text: 'line ten' },
      { kind: 'same', text: 'line 11' },
      { kind: 'same', text: 'line 12' },
      { kind: 'skipped', count: 2376 },
      { kind: 'same', text: 'line 2389' },
      { kind: 'same', text: 'line 2390' },
      { kind: 'added', text: 'a new line' },
      { kind: 'same', text: 'line 2391' },
      { kind: 'same', text: 'line 2392' },
      { kind: 'skipped', count: 7 },
    ]);
  });

  it('never gives up: a few edits in 100,000 lines, and two texts with nothing in common, are both quick', () => {
    const before = lines(100_000);
    const after = before.replace('line 5\n', 'line five\n').replace('line 50000\n', '').replace('line 99990\n', 'line 99990\nmore\n');
    let started = performance.now();
    const edited = diffLines(before, after);
    expect([count(edited, 'removed'), count(edited, 'added'), count(edited, 'same')]).toEqual([2, 2, 12]);
    // Nothing in common: every line removed and added, without Myers walking ~N² diagonals.
    const rewritten = diffLines(lines(20_000, 'a'), lines(20_000, 'b'));
    expect([count(rewritten, 'removed'), count(rewritten, 'added'), count(rewritten, 'same')]).toEqual([20_000, 20_000, 0]);
    // Generous for a busy machine: without taking out the lines unique to one side, this alone takes minutes.
    expect(performance.now() - started).toBeLessThan(5_000);
    // Half of the lines rewritten, one in two: the unchanged half still lines up.
    const halves = lines(20_000);
    started = performance.now();
    const half = diffLines(
      halves,
      halves
        .split('\n')
        .map((l, i) => (i % 2 ? `${l}!` : l))
        .join('\n'),
      0,
    );
    expect([count(half, 'removed'), count(half, 'added')]).toEqual([10_000, 10_000]);
    expect(performance.now() - started).toBeLessThan(5_000);
  });

  it('is a minimal diff: both texts read back from it, and the unchanged lines are a longest common subsequence', () => {
    const text = fc.array(fc.constantFrom('a', 'b', 'c', 'd', 'e', ''), { maxLength: 30 }).map((l) => l.join('\n'));
    fc.assert(
      fc.property(text, text, (before, after) => {
        // Equal texts have nothing to show: every line is folded.
        fc.pre(before !== after);
        const result = diffLines(before, after, Infinity);
        const texts = (kinds: readonly string[]): string => result.flatMap((l) => (kinds.includes(l.kind) && 'text' in l ? [l.text] : [])).join('\n');
        // A final newline ends the last line: it is read back from the text, and said by the diff only where the two differ.
        const [endsBefore, endsAfter] = [before.endsWith('\n'), after.endsWith('\n')];
        expect(texts(['same', 'removed']) + (endsBefore ? '\n' : '')).toBe(before);
        expect(texts(['same', 'added']) + (endsAfter ? '\n' : '')).toBe(after);
        expect(result.filter((l) => l.kind === 'final-newline')).toEqual(endsBefore === endsAfter ? [] : [{ kind: 'final-newline', change: endsAfter ? 'added' : 'removed' }]);
        expect(count(result, 'same')).toBe(lcsLength(textLines(before), textLines(after)));
      }),
      { numRuns: 500 },
    );
  });

  // Issue 40 §3.6: a block scalar's final newline is no empty line of its own.
  it('never shows a final newline as an empty line, and says so when only one side has it', () => {
    expect(diffLines('a\nb\nc\n', 'a\nx\nc\n', Infinity)).toEqual([
      { kind: 'same', text: 'a' },
      { kind: 'removed', text: 'b' },
      { kind: 'added', text: 'x' },
      { kind: 'same', text: 'c' },
    ]);
    // The only difference: shown after the last lines, as context.
    expect(diffLines('p\nq\nr\ns', 'p\nq\nr\ns\n')).toEqual([
      { kind: 'skipped', count: 2 },
      { kind: 'same', text: 'r' },
      { kind: 'same', text: 's' },
      { kind: 'final-newline', change: 'added' },
    ]);
    expect(diffLines('a\nb\n', 'a\nc')).toEqual([
      { kind: 'same', text: 'a' },
      { kind: 'removed', text: 'b' },
      { kind: 'added', text: 'c' },
      { kind: 'final-newline', change: 'removed' },
    ]);
  });

  it('keeps every line when context is unlimited', () => {
    expect(diffLines('a\nb', 'a\nc', Infinity).map((l) => l.kind)).toEqual(['same', 'removed', 'added']);
  });
});
