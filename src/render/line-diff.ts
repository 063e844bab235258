// A line diff for multi-line strings (an agent's `instruction`), shown with a little context, so a
// one-line edit in a long prompt reads as one line and not as two walls of text.

export type DiffLine = { kind: 'same' | 'removed' | 'added'; text: string } | { kind: 'skipped'; count: number };

/** Above this many cells the LCS table costs too much; show the old text removed and the new added. */
const MAX_TABLE_CELLS = 4_000_000;

/** The lines of `before` → `after`, with unchanged runs beyond `context` lines folded to `skipped`. */
export function diffLines(before: string, after: string, context = 2): DiffLine[] {
  return foldContext(alignLines(before.split('\n'), after.split('\n')), context);
}

function alignLines(a: readonly string[], b: readonly string[]): DiffLine[] {
  // Common head and tail cost nothing and usually leave a tiny middle for the LCS table.
  let head = 0;
  while (head < a.length && head < b.length && a[head] === b[head]) head++;
  let tail = 0;
  while (tail < a.length - head && tail < b.length - head && a[a.length - 1 - tail] === b[b.length - 1 - tail]) tail++;
  const same = (text: string): DiffLine => ({ kind: 'same', text });
  const middle = middleDiff(a.slice(head, a.length - tail), b.slice(head, b.length - tail));
  return [...a.slice(0, head).map(same), ...middle, ...a.slice(a.length - tail).map(same)];
}

function middleDiff(a: readonly string[], b: readonly string[]): DiffLine[] {
  const removedAll = a.map((text): DiffLine => ({ kind: 'removed', text }));
  const addedAll = b.map((text): DiffLine => ({ kind: 'added', text }));
  if (a.length === 0 || b.length === 0 || (a.length + 1) * (b.length + 1) > MAX_TABLE_CELLS) return [...removedAll, ...addedAll];
  // lcs[i][j] = length of the longest common subsequence of a[i..] and b[j..], in one flat array.
  const width = b.length + 1;
  const lcs = new Uint32Array((a.length + 1) * width);
  for (let i = a.length - 1; i >= 0; i--) {
    for (let j = b.length - 1; j >= 0; j--) {
      lcs[i * width + j] = a[i] === b[j] ? (lcs[(i + 1) * width + j + 1] ?? 0) + 1 : Math.max(lcs[(i + 1) * width + j] ?? 0, lcs[i * width + j + 1] ?? 0);
    }
  }
  const lines: DiffLine[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    if (a[i] === b[j]) {
      lines.push({ kind: 'same', text: a[i] as string });
      i++;
      j++;
    } else if ((lcs[(i + 1) * width + j] ?? 0) >= (lcs[i * width + j + 1] ?? 0)) {
      lines.push({ kind: 'removed', text: a[i++] as string });
    } else {
      lines.push({ kind: 'added', text: b[j++] as string });
    }
  }
  while (i < a.length) lines.push({ kind: 'removed', text: a[i++] as string });
  while (j < b.length) lines.push({ kind: 'added', text: b[j++] as string });
  return lines;
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
