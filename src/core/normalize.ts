// One normal form for a spec, applied to both sides of the diff. The manifest side already has
// zod's defaults; the state side may come from an older version or a hand edit, so it may lack a
// defaulted key or hold a set in another order. Neither may ever show as a change.
import type { JsonObject, JsonValue } from './api-types.js';
import { canonicalJson } from './canonical.js';
import type { ResourceType, SpecJson } from './desired.js';
import { cloneJson } from './redact.js';

/** A normalized deep copy: defaults filled in, set-like arrays sorted and de-duplicated. */
export function normalizeSpec(type: ResourceType, spec: SpecJson): SpecJson {
  return normalizeSpecInPlace(type, cloneJson(spec) as JsonObject);
}

/** The same, on a spec the caller owns (a fresh copy); saves a second copy on the hot path. */
export function normalizeSpecInPlace(type: ResourceType, spec: JsonObject): JsonObject {
  switch (type) {
    case 'tool': {
      defaultMember(spec, 'doNotExecute', false);
      defaultMember(spec, 'parameters', {});
      const parameters = spec.parameters;
      if (isPlainObject(parameters)) sortSetMember(parameters, 'required');
      break;
    }
    case 'agent':
      defaultMember(spec, 'isActive', true);
      defaultMember(spec, 'tools', []);
      defaultMember(spec, 'actions', []);
      sortSetMember(spec, 'tools');
      sortSetMember(spec, 'actions');
      sortSetMember(spec, 'platformTools');
      break;
    case 'website':
      defaultMember(spec, 'exclude', []);
      sortSetMember(spec, 'exclude');
      break;
    default: {
      const _exhaustive: never = type;
      throw new Error(`unknown resource type ${String(_exhaustive)}`);
    }
  }
  return spec;
}

export function isPlainObject(value: JsonValue | undefined): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function defaultMember(spec: JsonObject, key: string, value: JsonValue): void {
  if (!Object.hasOwn(spec, key)) spec[key] = value;
}

function sortSetMember(spec: JsonObject, key: string): void {
  const list = spec[key];
  if (Array.isArray(list)) spec[key] = sortedSet(list);
}

/** Sorted like the manifest schema sorts (UTF-16 code units), so both sides agree. */
function sortedSet(list: JsonValue[]): JsonValue[] {
  if (list.every((item) => typeof item === 'string')) return [...new Set(list)].sort();
  const byText = new Map<string, JsonValue>();
  for (const item of list) byText.set(canonicalJson(item), item);
  return [...byText.keys()].sort().map((text) => byText.get(text) as JsonValue);
}
