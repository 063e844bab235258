// A line diff for multi-line strings (an agent's `instruction`), shown with a little context, so a
// one-line edit in a long prompt reads as one line and not as two walls of text.
//
// The alignment is jsdiff's `diffArrays` (Myers' O((N+M)·D) algorithm, well kept and well tested).
// Myers costs time with the number of differences, so two texts that share almost nothing would be
// slow (2,100 lines each: ~1 s). Before it runs, every line that does not occur on the other side
// is taken out: such a line can never be part of a common subsequence, so the longest common
// subsequence, and so the diff, are unchanged. It is put back as removed or added where it stood.
// A rewrite then costs nothing, an edit in a long text costs its few differences, and no size
// makes the diff give up and print the whole text twice.
import { diffArrays } from 'diff';

export type DiffLine =
  | { kind: 'same' | 'removed' | 'added'; text: string }
  | { kind: 'skipped'; count: number }
  /** Only one side ends with a newline: said once, at the end, instead of as an empty line. */
  | { kind: 'final-newline'; change: 'removed' | 'added' };

/** The lines of `before` → `after`, with unchanged runs beyond `context` lines folded to `skipped`. */
export function diffLines(before: string, after: string, context = 2): DiffLine[] {
  const lines = alignLines(textLines(before), textLines(after));
  const ends = before.endsWith('\n');
  if (ends !== after.endsWith('\n')) lines.push({ kind: 'final-newline', change: ends ? 'removed' : 'added' });
  return foldContext(lines, context);
}

/**
 * A text's lines. The newline that ends the last line (a YAML block scalar always has one) ends
 * it, and does not start one more, empty line.
 */
export function textLines(text: string): string[] {
  return (text.endsWith('\n') ? text.slice(0, -1) : text).split('\n');
}

function alignLines(a: readonly string[], b: readonly string[]): DiffLine[] {
  const inA = new Set(a);
  const inB = new Set(b);
  // Positions (in a and b) of the lines that could be matched at all.
  const keptA = indexesWhere(a, (line) => inB.has(line));
  const keptB = indexesWhere(b, (line) => inA.has(line));
  const lines: DiffLine[] = [];
  let i = 0; // next line of a not yet emitted
  let j = 0; // next line of b not yet emitted
  // Lines of a before a[untilA] and of b before b[untilB] that were taken out: removed, then added.
  const flushTo = (untilA: number, untilB: number): void => {
    for (; i < untilA; i++) lines.push({ kind: 'removed', text: a[i] as string });
    for (; j < untilB; j++) lines.push({ kind: 'added', text: b[j] as string });
  };
  let ka = 0;
  let kb = 0;
  for (const part of diffArrays(
    keptA.map((index) => a[index] as string),
    keptB.map((index) => b[index] as string),
  )) {
    for (const text of part.value) {
      if (part.added) {
        flushTo(i, keptB[kb] as number);
        lines.push({ kind: 'added', text });
        j++;
        kb++;
      } else if (part.removed) {
        flushTo(keptA[ka] as number, j);
        lines.push({ kind: 'removed', text });
        i++;
        ka++;
      } else {
        flushTo(keptA[ka] as number, keptB[kb] as number);
        lines.push({ kind: 'same', text });
        i++;
        j++;
        ka++;
        kb++;
      }
    }
  }
  flushTo(a.length, b.length);
  return lines;
}

function indexesWhere(lines: readonly string[], keep: (line: string) => boolean): number[] {
  const indexes: number[] = [];
  lines.forEach((line, index) => {
    if (keep(line)) indexes.push(index);
  });
  return indexes;
}

function foldContext(lines: readonly DiffLine[], context: number): DiffLine[] {
  const keep = lines.map(() => false);
  lines.forEach((line, index) => {
    if (line.kind === 'same') return;
    for (let k = Math.max(0, index - context); k <= Math.min(lines.length - 1, index + context); k++) keep[k] = true;
  });
  const folded: DiffLine[] = [];
  let skipped = 0;
  lines.forEach((line, index) => {
    if (keep[index]) {
      if (skipped > 0) folded.push({ kind: 'skipped', count: skipped });
      skipped = 0;
      folded.push(line);
    } else {
      skipped++;
    }
  });
  if (skipped > 0) folded.push({ kind: 'skipped', count: skipped });
  return folded;
}
