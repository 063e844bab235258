// Fields whose items are addresses of other kinds' entries (FieldFact.refersToAddresses: a builder
// agent's `knowledge`), which the server holds as remote ids. Kind-agnostic: the field tables say
// which fields and which kinds. The refresh reads ids back as addresses through the state, the plan
// lists items added and removed, a replaced source makes its referrers re-attach it, and a deleted
// one says whom it detaches from (docs/spec/plan-and-apply.md#knowledge-attachments).
import type { JsonObject, JsonValue } from './api-types.js';
import { factsOf } from './kinds/fields.js';
import { kindOf, RESOURCE_TYPES, supersededAddress, type ReferenceIds, type ResourceType } from './kinds/index.js';
import type { FieldChange } from './plan.js';
import type { ResourceState, State } from './state.js';

/** Per kind, its fields that name other entries by address, and the kinds they may name (only those this build has). */
export const ADDRESS_FIELDS: ReadonlyMap<ResourceType, readonly { field: string; kinds: readonly ResourceType[] }[]> = new Map(
  RESOURCE_TYPES.flatMap((type) => {
    const fields = factsOf(kindOf(type).fields).flatMap(([field, fact]) =>
      fact.refersToAddresses === undefined ? [] : [{ field, kinds: RESOURCE_TYPES.filter((t) => fact.refersToAddresses?.includes(t) === true) }],
    );
    return fields.length === 0 ? [] : [[type, fields] as const];
  }),
);

/** The kinds some field names by address: their entries' ids are what the refresh reads back. */
const REFERRED: ReadonlySet<ResourceType> = new Set([...ADDRESS_FIELDS.values()].flatMap((fields) => fields.flatMap((f) => f.kinds)));

/** The id others name a state entry by on the server (its remote id unless its kind says otherwise). */
export function referenceIdOf(entry: ResourceState): string | undefined {
  const kind = kindOf(entry.type);
  return kind.referenceIdOf === undefined ? entry.remoteId : kind.referenceIdOf(entry.spec, entry.remoteId);
}

/**
 * The ids an apply attaches by (CallContext.references), over the state it records into: `now`
 * reads the live state (a source made or replaced earlier in the run is there), `planned` a copy
 * taken when the run began, which is what the plan's refresh read. The copy holds only entries of
 * kinds some field names by address.
 */
export function referenceIds(state: State): ReferenceIds {
  const planned = new Map<string, string>();
  if (REFERRED.size > 0) {
    for (const [address, entry] of Object.entries(state.resources)) {
      const id = REFERRED.has(entry.type) ? referenceIdOf(entry) : undefined;
      if (id !== undefined) planned.set(address, id);
    }
  }
  return {
    now: (address) => {
      const entry = Object.hasOwn(state.resources, address) ? state.resources[address] : undefined;
      return entry === undefined ? undefined : referenceIdOf(entry);
    },
    planned: (address) => planned.get(address),
  };
}

/** remote id → address, for every state entry of a kind some field names by address. One pass over the state. */
export function referenceIndex(state: State | null): Map<string, string> {
  const index = new Map<string, string>();
  if (state === null || REFERRED.size === 0) return index;
  for (const [address, entry] of Object.entries(state.resources)) {
    if (!REFERRED.has(entry.type)) continue;
    const id = referenceIdOf(entry);
    if (id !== undefined && !index.has(id)) index.set(id, address);
  }
  return index;
}

/**
 * A server record's spec with each address field's ids written as the addresses the state knows
 * them by; an id no state entry knows stays as it is (the plan shows it, and apply detaches it:
 * the manifest is authoritative). The same object when the kind has no such field.
 */
export function withAddresses(type: ResourceType, spec: JsonObject, index: () => ReadonlyMap<string, string>): JsonObject {
  const fields = ADDRESS_FIELDS.get(type);
  if (fields === undefined) return spec;
  const mapped: JsonObject = { ...spec };
  for (const { field } of fields) {
    const list = spec[field];
    if (!Array.isArray(list)) continue;
    const ids = index();
    mapped[field] = [...new Set(list.map((id) => (typeof id === 'string' ? (ids.get(id) ?? id) : id)))].sort() as JsonValue;
  }
  return mapped;
}

/** Whether `field` of `type` is a set of addresses: the plan lists its items one by one. */
export function isAddressField(type: ResourceType, field: string): boolean {
  return ADDRESS_FIELDS.get(type)?.some((f) => f.field === field) === true;
}

/** A change of an address field, item by item: `+ knowledge: file.handbook`, `- knowledge: website.old`. */
export function itemChanges(change: FieldChange): FieldChange[] {
  const before = stringItems(change.before);
  const after = stringItems(change.after);
  const had = new Set(before);
  const has = new Set(after);
  return [
    ...before.filter((item) => !has.has(item)).map((item): FieldChange => ({ path: change.path, before: item, item: true })),
    ...after.filter((item) => !had.has(item)).map((item): FieldChange => ({ path: change.path, after: item, item: true })),
  ];
}

function stringItems(value: JsonValue | undefined): string[] {
  return Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : [];
}

/**
 * A spec as it stands once the sources the plan replaces (-/+) are replaced: the server drops a
 * deleted source from every agent, so an item naming one stands for its old id, written as the
 * superseded address (`file.handbook~<old id>`), and the agent's update attaches the new one in the
 * same apply. Undefined when it names none of them.
 */
export function withReplacedSources(type: ResourceType, spec: JsonObject, replaced: ReadonlyMap<string, string>): JsonObject | undefined {
  let changed: JsonObject | undefined;
  for (const { field } of ADDRESS_FIELDS.get(type) ?? []) {
    const list = spec[field];
    if (!Array.isArray(list) || !list.some((item) => typeof item === 'string' && replaced.has(item))) continue;
    changed ??= { ...spec };
    changed[field] = list.map((item) => (typeof item === 'string' && replaced.has(item) ? supersededAddress(item, replaced.get(item) ?? '') : item)).sort() as JsonValue;
  }
  return changed;
}
