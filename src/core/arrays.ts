// Array helpers that stay safe at any length. `target.push(...items)` and `Math.max(...items)` pass
// one argument per item, and past about 100,000 items (an agent listing 200,000 unknown actions, a
// state of that many resources) the call overflows the stack: "Maximum call stack size exceeded".

/** Appends `items` to `target`, one by one. */
export function appendAll<T>(target: T[], items: Iterable<T>): void {
  for (const item of items) target.push(item);
}

/** The largest of `values`, or `empty` when there is none. */
export function maxOf(values: Iterable<number>, empty = 0): number {
  let max: number | undefined;
  for (const value of values) if (max === undefined || value > max) max = value;
  return max ?? empty;
}
