// How deep parsed JSON nests. A state, journal line or saved plan holds what a manifest (at most
// MAX_DEPTH levels, core/parse.ts) or a server record produced, plus a few levels of its own. The
// code that reads them back (diff, digests, rendering) walks records recursively, and a hand-made
// file nested thousands of levels deep would overflow the stack there as an "internal error".

/** The deepest nesting a state, journal line or saved plan may have. */
export const MAX_STORED_JSON_DEPTH = 1000;

/**
 * Whether `value` nests objects and arrays more than `max` levels deep; measured without recursion.
 * Every plan reads the state through this, so it visits only objects and arrays (two parallel
 * stacks, no record per node): ~1 ms for a 1,100-resource state. Object.values, not for-in, so that
 * an own `__proto__` key is followed like any other.
 */
export function nestedDeeperThan(value: unknown, max: number): boolean {
  if (typeof value !== 'object' || value === null) return false;
  const nodes: object[] = [value];
  const depths: number[] = [0];
  for (let node = nodes.pop(); node !== undefined; node = nodes.pop()) {
    const depth = depths.pop() ?? 0;
    if (depth >= max) return true;
    for (const child of Array.isArray(node) ? node : Object.values(node)) {
      if (typeof child !== 'object' || child === null) continue;
      nodes.push(child as object);
      depths.push(depth + 1);
    }
  }
  return false;
}
