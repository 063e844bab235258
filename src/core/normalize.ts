// One normal form for a spec, applied to both sides of the diff. The manifest side already has
// zod's defaults; the state side may come from an older version, a hand edit or the server, so it
// may lack a defaulted key or hold a set in another order. Neither may ever show as a change.
// What the defaults, sets and further rules are is each kind's to say (core/kinds/).
import type { JsonObject, JsonValue } from './api-types.js';
import { canonicalJson } from './canonical.js';
import type { ResourceType, SpecJson } from './desired.js';
import { factsOf, isEmptyValue } from './kinds/fields.js';
import { kindOf } from './kinds/index.js';

/**
 * The spec with defaults filled in, set-like arrays sorted and de-duplicated, undefined members
 * dropped and the kind's own rules applied. Never mutates its input. A spec that is already normal
 * (the usual case, on both sides) comes back as the same object without any allocation, so the
 * result must be treated as read-only.
 */
export function normalizeSpec(type: ResourceType, spec: SpecJson): SpecJson {
  const kind = kindOf(type);
  const defaulted = isNormal(type, spec) ? spec : normalizedCopy(type, spec);
  return kind.normalizeMore ? kind.normalizeMore(defaulted) : defaulted;
}

/** The table's facts as the three lists normalization walks, computed once per kind. */
interface NormalRules {
  defaults: readonly (readonly [string, () => JsonValue])[];
  sets: readonly string[];
  /** Optional fields, whose empty value is the same as their absence (docs/spec/server.md#how-records-compare). */
  emptiable: readonly string[];
}

const RULES = new Map<ResourceType, NormalRules>();

function rulesOf(type: ResourceType): NormalRules {
  let rules = RULES.get(type);
  if (rules === undefined) {
    const facts = factsOf(kindOf(type).fields);
    rules = {
      defaults: facts.flatMap(([field, fact]) => (fact.default ? [[field, fact.default] as const] : [])),
      sets: facts.filter(([, fact]) => fact.set === true).map(([field]) => field),
      emptiable: facts.filter(([, fact]) => fact.empty !== undefined && fact.default === undefined).map(([field]) => field),
    };
    RULES.set(type, rules);
  }
  return rules;
}

function isNormal(type: ResourceType, spec: JsonObject): boolean {
  const rules = rulesOf(type);
  if (hasUndefinedMember(spec)) return false;
  for (const [key] of rules.defaults) if (!Object.hasOwn(spec, key)) return false;
  for (const key of rules.emptiable) if (Object.hasOwn(spec, key) && isEmptyValue(spec[key])) return false;
  for (const key of rules.sets) {
    const list = spec[key];
    if (Array.isArray(list) && !isSortedSet(list)) return false;
  }
  return true;
}

function normalizedCopy(type: ResourceType, spec: JsonObject): JsonObject {
  const rules = rulesOf(type);
  const copy = withoutUndefined(spec);
  for (const [key, make] of rules.defaults) if (!Object.hasOwn(copy, key)) copy[key] = make();
  for (const key of rules.emptiable) if (Object.hasOwn(copy, key) && isEmptyValue(copy[key])) delete copy[key];
  for (const key of rules.sets) {
    const list = copy[key];
    if (Array.isArray(list)) copy[key] = sortedSet(list);
  }
  return copy;
}

export function isPlainObject(value: JsonValue | undefined): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function hasUndefinedMember(spec: JsonObject): boolean {
  for (const key in spec) if (spec[key] === undefined) return true;
  return false;
}

/** A shallow copy without undefined members (they are "absent" to JSON, so they must be here too). */
function withoutUndefined(spec: JsonObject): JsonObject {
  const copy: JsonObject = {};
  for (const [key, value] of Object.entries(spec)) {
    if (value === undefined) continue;
    if (key === '__proto__') Object.defineProperty(copy, key, { value, enumerable: true, writable: true, configurable: true });
    else copy[key] = value;
  }
  return copy;
}

/** Already strictly ascending strings: nothing to sort or de-duplicate (checked in one pass). */
function isSortedSet(list: readonly JsonValue[]): boolean {
  for (let i = 0; i < list.length; i++) {
    const item = list[i];
    if (typeof item !== 'string') return false;
    if (i > 0 && !((list[i - 1] as string) < item)) return false;
  }
  return true;
}

/** Sorted like the manifest schema sorts (UTF-16 code units), so both sides agree. */
function sortedSet(list: readonly JsonValue[]): JsonValue[] {
  if (list.every((item) => typeof item === 'string')) return [...new Set(list)].sort();
  const byText = new Map<string, JsonValue>();
  for (const item of list) byText.set(canonicalJson(item), item);
  return [...byText.keys()].sort().map((text) => byText.get(text) as JsonValue);
}
