// Deep equality of JSON values. fast-deep-equal calls a member named `valueOf` or `toString` as a
// method when an object has one, so a manifest's `metaData: { valueOf: x }` made the diff throw;
// JSON data has no methods, and this compares it as data: same keys (in any order), equal members.
import type { JsonValue } from './api-types.js';

export function jsonEqual(a: JsonValue | undefined, b: JsonValue | undefined): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!jsonEqual(a[i], b[i])) return false;
    return true;
  }
  if (Array.isArray(b)) return false;
  const keys = Object.keys(a);
  if (keys.length !== Object.keys(b).length) return false;
  for (const key of keys) {
    if (!Object.hasOwn(b, key) || !jsonEqual(a[key], b[key])) return false;
  }
  return true;
}
