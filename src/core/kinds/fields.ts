// The field facts of a kind (docs/spec/server.md#field-facts): one table per kind says, for each
// spec field, how it travels and how it compares. The body builder, the reader, normalization (so
// the diff and the drift check), export and the emulator all read the table, so adding a field is
// one line there plus its zod schema, and no stage can forget it.
//
// Real servers are document stores behind validators: they fill an empty value for an optional
// field that was not sent, rename a field between request and record, keep sets in their own order
// and add bookkeeping. The facts below are what lets every stage see through that.
import type { JsonObject, JsonValue } from '../api-types.js';
import type { ResourceType } from './resource-types.js';

/** Where credentials may sit inside a field's value (export hides them; the state digests them). */
export interface SecretFacts {
  /** Sub-keys whose whole value is always a credential (integrationMeta's `headers`). */
  wholeKeys?: readonly string[];
  /** Strings under keys named like credentials (`password`, `apiKey`, …), at any depth, arrays included. */
  credentialKeys?: boolean;
}

export interface FieldFact {
  /** The name a request body sends the field under; the spec's own name when absent. */
  wire?: string;
  /** Other names a server may return it under (version A's `cometchatTools` for `platformTools`). */
  readAs?: readonly string[];
  /**
   * Optional fields: the type's empty value (`""`, `{}`, `[]`). Empty equals absent: a server that
   * fills it in has changed nothing, and clearing the field sends it (never `null`).
   * Required fields have none: they are always sent.
   */
  empty?: () => JsonValue;
  /** The value both sides take when the manifest leaves the field out (`isActive: true`). */
  default?: () => JsonValue;
  /** An array whose order means nothing: compared sorted and de-duplicated. */
  set?: boolean;
  /** A list of keys of another kind's entries (an agent's `tools` name tools): lint counts them as uses. */
  refersTo?: ResourceType;
  /**
   * A set of addresses of other kinds' entries (a builder agent's `knowledge`: `website.docs`,
   * `text.refunds`), which the server holds as their remote ids (core/address-references.ts):
   * validate checks each names an entry of one of these kinds in the environment, the refresh reads
   * ids back as addresses through the state, the plan lists items added and removed, and deleting
   * such an entry says it detaches it. Kinds this build does not have are ignored.
   */
  refersToAddresses?: readonly string[];
  /** Free-form values that may hold credentials, and where. */
  secrets?: SecretFacts;
  /** Sent only when the spec says so; e.g. a tool's `parameters` when it is executed. */
  sentWhen?: (spec: JsonObject) => boolean;
  /**
   * How a change of the field reads in a plan when the field itself is bookkeeping (a website's
   * `matchedUrls` fingerprint): the change still counts, but people see this instead.
   */
  shownAs?: (before: JsonValue | undefined, after: JsonValue | undefined) => ShownChange;
}

/** A field change as a plan shows it (core/plan.ts FieldChange, without its sensitivity). */
export interface ShownChange {
  path: string;
  before?: JsonValue;
  after?: JsonValue;
}

/** One fact per spec field: a field of the spec type with no entry is a compile error. */
export type FieldTable<Spec extends object> = { readonly [K in keyof Spec & string]-?: FieldFact };

/** The table's entries as a list, for loops that do not care about the spec type. */
export function factsOf(table: object): readonly (readonly [string, FieldFact])[] {
  return Object.entries(table as Record<string, FieldFact>);
}

export function wireName(field: string, fact: FieldFact): string {
  return fact.wire ?? field;
}

/** Every name a server may return the field under, the wire name first. */
export function namesOf(field: string, fact: FieldFact): readonly string[] {
  const wire = wireName(field, fact);
  const names = [wire];
  if (wire !== field) names.push(field);
  for (const name of fact.readAs ?? []) if (!names.includes(name)) names.push(name);
  return names;
}

/**
 * The fields a manifest entry (`written`, as the user wrote it) leaves out whose default is empty
 * (`tools: []`, `description: ""`): a plan has them, but listing them on a create is only noise.
 */
export function emptyDefaultsLeftOut(table: object, written: Readonly<Record<string, unknown>>): string[] {
  return factsOf(table)
    .flatMap(([field, fact]) => (fact.default !== undefined && isEmptyValue(fact.default()) && !Object.hasOwn(written, field) ? [field] : []))
    .sort();
}

/** True for `""`, `[]` and `{}`: what "absent" looks like on a server that fills in optional fields. */
export function isEmptyValue(value: JsonValue | undefined): boolean {
  if (value === undefined || value === null || value === '') return true;
  if (Array.isArray(value)) return value.length === 0;
  if (typeof value === 'object') {
    for (const key in value) if (Object.hasOwn(value, key)) return false;
    return true;
  }
  return false;
}

/**
 * The request body of a create (or of a PUT, which the server merges): every field the spec holds,
 * under its wire name, sets as sorted copies. Absent optional fields are not sent; nothing is null.
 */
export function bodyOf(table: object, spec: JsonObject): JsonObject {
  const body: JsonObject = {};
  for (const [field, fact] of factsOf(table)) {
    if (fact.sentWhen && !fact.sentWhen(spec)) continue;
    const value = Object.hasOwn(spec, field) ? spec[field] : undefined;
    if (value === undefined || value === null) continue;
    body[wireName(field, fact)] = Array.isArray(value) ? [...value] : value;
  }
  return body;
}

/**
 * A PATCH body: only the fields in `changed`, each with the spec's value, or its type's empty value
 * when the spec dropped it (the public schemas allow no `null`).
 */
export function patchBodyOf(table: object, spec: JsonObject, changed: ReadonlySet<string>): JsonObject {
  const body: JsonObject = {};
  for (const [field, fact] of factsOf(table)) {
    if (!changed.has(field)) continue;
    const value = Object.hasOwn(spec, field) ? spec[field] : undefined;
    if (value !== undefined && value !== null) body[wireName(field, fact)] = Array.isArray(value) ? [...value] : value;
    else if (fact.empty) body[wireName(field, fact)] = fact.empty();
    else if (fact.default) body[wireName(field, fact)] = fact.default();
  }
  return body;
}

/**
 * The spec fields a server record carries, under the spec's names (whichever name it used). A null
 * is the server's "unset", which for an optional field is its empty value; bookkeeping (`_id`,
 * `__v`, `appId`, timestamps, `deletedAt`) and unknown keys are not spec fields and are left out.
 */
export function readFieldsOf(table: object, record: Record<string, unknown>, into: JsonObject = {}): JsonObject {
  for (const [field, fact, names] of readingOrder(table)) {
    for (const name of names) {
      if (!Object.hasOwn(record, name)) continue;
      const value = record[name];
      if (value === undefined) continue;
      if (value === null) {
        if (fact.empty) into[field] = fact.empty();
      } else {
        into[field] = value as JsonValue;
      }
      break;
    }
  }
  return into;
}

/** Each field with the names it may be read under; computed once per table (a refresh reads every record with it). */
const READING_ORDER = new WeakMap<object, readonly (readonly [string, FieldFact, readonly string[]])[]>();

function readingOrder(table: object): readonly (readonly [string, FieldFact, readonly string[]])[] {
  let order = READING_ORDER.get(table);
  if (order === undefined) {
    order = factsOf(table).map(([field, fact]) => [field, fact, namesOf(field, fact)] as const);
    READING_ORDER.set(table, order);
  }
  return order;
}

/** The top-level fields whose values differ between two normalized specs: what a PATCH must carry. */
export function changedFieldsOf(table: object, before: JsonObject, after: JsonObject, equal: (a: JsonValue | undefined, b: JsonValue | undefined) => boolean): Set<string> {
  const changed = new Set<string>();
  for (const [field] of factsOf(table)) {
    const a = Object.hasOwn(before, field) ? before[field] : undefined;
    const b = Object.hasOwn(after, field) ? after[field] : undefined;
    if (!equal(a, b)) changed.add(field);
  }
  return changed;
}
