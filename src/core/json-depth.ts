// How deep parsed JSON nests. A state, journal line or saved plan holds what a manifest (at most
// MAX_DEPTH levels, core/parse.ts) or a server record produced, plus a few levels of its own. The
// code that reads them back (diff, digests, rendering) walks records recursively, and a hand-made
// file nested thousands of levels deep would overflow the stack there as an "internal error".

/** The deepest nesting a state, journal line or saved plan may have. */
export const MAX_STORED_JSON_DEPTH = 1000;

/** Whether `value` nests objects and arrays more than `max` levels deep; measured without recursion. */
export function nestedDeeperThan(value: unknown, max: number): boolean {
  const pending: { node: unknown; depth: number }[] = [{ node: value, depth: 0 }];
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    if (typeof next.node !== 'object' || next.node === null) continue;
    if (next.depth >= max) return true;
    for (const child of Object.values(next.node)) pending.push({ node: child, depth: next.depth + 1 });
  }
  return false;
}
