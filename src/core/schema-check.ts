// The manifest's schema check, safe at any size. zod gathers a collection's issues with
// `issues.push(...childIssues)`, one argument per issue: a list of 200,000 wrong values (an agent's
// actions written as numbers) overflows the stack inside zod. That is caught here and said as one
// diagnostic at the largest collection in the manifest, which is where such a flood comes from.
import type { Diagnostic, PathSegment } from './diagnostics.js';
import { manifestSchema } from './schema.js';
import type { ManifestLocator } from './yaml-locate.js';

export type SchemaCheck = ReturnType<typeof manifestSchema.safeParse>;

export function checkManifestSchema(tree: unknown, locator: ManifestLocator): SchemaCheck | { overflow: Diagnostic } {
  try {
    return manifestSchema.safeParse(tree);
  } catch (err) {
    if (!(err instanceof RangeError)) throw err;
    const { path, size } = largestCollection(tree);
    return { overflow: locator.diagnostic(path, `this has ${size.toLocaleString('en-US')} entries, too many wrong ones to list one by one; compare them with what the schema allows here`) };
  }
}

/** The array or mapping with the most entries, by a walk with its own stack (the tree may be deep). */
function largestCollection(tree: unknown): { path: PathSegment[]; size: number } {
  let best: { path: PathSegment[]; size: number } = { path: [], size: 0 };
  const pending: { value: unknown; path: PathSegment[] }[] = [{ value: tree, path: [] }];
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    const { value, path } = next;
    if (value === null || typeof value !== 'object') continue;
    const entries: [PathSegment, unknown][] = Array.isArray(value) ? value.map((item, i) => [i, item]) : Object.entries(value);
    if (entries.length > best.size) best = { path, size: entries.length };
    for (const [key, item] of entries) if (item !== null && typeof item === 'object') pending.push({ value: item, path: [...path, key] });
  }
  return best;
}
