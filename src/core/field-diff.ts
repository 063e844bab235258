// Field-level differences between two specs. Objects are walked key by key; arrays and scalars are
// single fields (an array's order is meaningful unless normalizeSpec already sorted it as a set).
import { jsonEqual as equal } from './json-equal.js';
import type { JsonValue } from './api-types.js';
import type { SensitivePath } from './desired.js';
import { isPlainObject } from './normalize.js';
import { SENSITIVE_PLACEHOLDER, type FieldChange } from './plan.js';
import { containsDigest, touchesSensitive, type PathSegment } from './redact.js';

/**
 * The changed fields between `before` and `after` (either may be absent), with keys in sorted
 * order. A side that is absent is left out of the change. A field that is, holds or lies inside a
 * sensitive value shows `(sensitive)` on both sides.
 */
export function diffFields(before: JsonValue | undefined, after: JsonValue | undefined, sensitive: readonly SensitivePath[] = []): FieldChange[] {
  const changes: FieldChange[] = [];
  walk(before, after, [], sensitive, changes);
  return changes;
}

function walk(before: JsonValue | undefined, after: JsonValue | undefined, path: PathSegment[], sensitive: readonly SensitivePath[], out: FieldChange[]): void {
  if (shouldDescend(before, after)) {
    const beforeObject = isPlainObject(before) ? before : NOTHING;
    const afterObject = isPlainObject(after) ? after : NOTHING;
    for (const key of sortedKeysOfBoth(beforeObject, afterObject)) {
      path.push(key);
      walk(ownMember(beforeObject, key), ownMember(afterObject, key), path, sensitive, out);
      path.pop();
    }
    return;
  }
  if (equal(before, after)) return;
  out.push(fieldChange(path, before, after, sensitive));
}

const NOTHING: Record<string, JsonValue> = Object.freeze({});

/** Every key either side has, once, sorted. Called for every object of every changed resource. */
function sortedKeysOfBoth(before: Record<string, JsonValue>, after: Record<string, JsonValue>): string[] {
  const keys = Object.keys(after);
  for (const key of Object.keys(before)) if (!Object.hasOwn(after, key)) keys.push(key);
  return keys.sort();
}

/** Walk into objects on both sides, and into a non-empty object whose other side is absent. */
function shouldDescend(before: JsonValue | undefined, after: JsonValue | undefined): boolean {
  if (isPlainObject(before) && isPlainObject(after)) return true;
  if (before === undefined && isPlainObject(after)) return Object.keys(after).length > 0;
  if (after === undefined && isPlainObject(before)) return Object.keys(before).length > 0;
  return false;
}

function ownMember(object: Record<string, JsonValue>, key: string): JsonValue | undefined {
  return Object.hasOwn(object, key) ? object[key] : undefined;
}

function fieldChange(path: readonly PathSegment[], before: JsonValue | undefined, after: JsonValue | undefined, sensitive: readonly SensitivePath[]): FieldChange {
  const isSensitive = touchesSensitive(path, sensitive) || containsDigest(before) || containsDigest(after);
  const change: FieldChange = { path: formatPath(path) };
  if (before !== undefined) change.before = isSensitive ? SENSITIVE_PLACEHOLDER : before;
  if (after !== undefined) change.after = isSensitive ? SENSITIVE_PLACEHOLDER : after;
  if (isSensitive) change.sensitive = true;
  return change;
}

const PLAIN_KEY = /^[A-Za-z_$][A-Za-z0-9_$-]*$/;

/** `parameters.properties.city`, with odd keys bracketed: `metaData["a.b"]`, `metaData["0"]`. */
export function formatPath(path: readonly PathSegment[]): string {
  let text = '';
  for (const segment of path) {
    const key = String(segment);
    if (PLAIN_KEY.test(key)) text += text === '' ? key : `.${key}`;
    else text += `[${JSON.stringify(key)}]`;
  }
  return text;
}
