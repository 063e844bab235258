// The fields of a resolved manifest that hold a concrete secret string.
// Sensitive *paths* come from where ${secret:…} was written; but a secret (or the API key) can also
// reach a plain field: typed literally, or echoed in another value. Such a field is made sensitive
// too, so that it is digested in the state and shown as (sensitive), never stored in clear.
import type { JsonValue } from './api-types.js';
import type { DesiredResource, SensitivePath } from './desired.js';
import { isSensitivePath } from './redact.js';
import { MIN_SCRUB_LENGTH } from './scrub.js';

/** Marks every string field that contains one of `values` as sensitive (in place). */
export function markFieldsHolding(resources: readonly DesiredResource[], values: readonly string[]): void {
  const needles = values.filter((v) => v.trim().length >= MIN_SCRUB_LENGTH);
  if (needles.length === 0) return;
  for (const resource of resources) {
    walkStrings(resource.spec as JsonValue, [], (text, path) => {
      if (!needles.some((needle) => text.includes(needle))) return;
      // Set-like lists are sorted, so an index in them is not stable: the whole list becomes sensitive.
      const firstIndex = path.findIndex((segment) => typeof segment === 'number');
      const field = firstIndex < 0 ? [...path] : path.slice(0, firstIndex);
      if (!isSensitivePath(field, resource.sensitive)) resource.sensitive.push(field);
    });
  }
}

/** Calls `visit` for each string leaf; `path` is live (mutated as the walk goes on): copy it to keep it. */
function walkStrings(value: JsonValue, path: (string | number)[], visit: (text: string, path: SensitivePath) => void): void {
  if (typeof value === 'string') {
    visit(value, path);
    return;
  }
  if (value === null || typeof value !== 'object') return;
  if (Array.isArray(value)) {
    value.forEach((item, i) => {
      path.push(i);
      walkStrings(item, path, visit);
      path.pop();
    });
    return;
  }
  for (const key of Object.keys(value)) {
    const member = value[key];
    if (member === undefined) continue;
    path.push(key);
    walkStrings(member, path, visit);
    path.pop();
  }
}

/**
 * A diagnostic quotes the value it is about (`must be one of … (got "…")`, `unknown tool "…"`),
 * and that value may come from a secret. Each quoted value that holds one (or is a cut-off start
 * of one) becomes "(sensitive)"; the rest of the message (paths), and a quoted manifest key
 * (`did you mean "billing_lookup"`), are left as written.
 */
export function hideQuotedSecrets(message: string, values: readonly string[], keys: ReadonlySet<string> = new Set()): string {
  const needles = values.filter((v) => v.trim().length >= MIN_SCRUB_LENGTH).map((v) => JSON.stringify(v).slice(1, -1));
  if (needles.length === 0 || !message.includes('"')) return message;
  return message.replace(/"((?:[^"\\]|\\.)*)"/g, (quoted, inner: string) => {
    if (keys.has(inner)) return quoted;
    const cut = inner.endsWith('…') ? inner.slice(0, -1) : undefined;
    const holds = needles.some((needle) => inner.includes(needle) || (cut !== undefined && cut.length >= MIN_SCRUB_LENGTH && needle.startsWith(cut)));
    return holds ? '"(sensitive)"' : quoted;
  });
}
