// Refresh: what the server holds, laid over what the state remembers, before planning
// (docs/spec/server.md#refresh). Pure: io/refresh-server.ts fetches the lists; this turns them into
// a refreshed state, the drift to report, and an index of the server records no state entry tracks
// (for conflicts).
import { jsonEqual as equal } from './json-equal.js';
import type { JsonObject, JsonValue } from './api-types.js';
import type { SensitivePath } from './desired.js';
import { ADDRESS_FIELDS, referenceIndex, withAddresses } from './address-references.js';
import { diffFields } from './field-diff.js';
import { keyOfAddress, kindOf, RESOURCE_TYPES, TYPE_RANK, type RemoteRecord, type ResourceType } from './kinds/index.js';
import { normalizeSpec } from './normalize.js';
import type { DriftEntry } from './plan.js';

export type { DriftEntry } from './plan.js';
import type { UnreadableResource } from './plan.js';
import { isDigest, redactSpecShared, type Digest } from './redact.js';
import type { ResourceState, State } from './state.js';

/** One kind's list, as answered: the records, and whether every entry carried the field state matches on. */
export interface KindListing {
  records: RemoteRecord[];
  matchable: boolean;
  /** Why the list may hold more than was read (a page that failed, a cursor that loops): absence is then not proven. */
  incomplete?: string;
  /** Resources (address → why) whose own read failed: nothing is known of them, so nothing is planned for them. */
  unreadable?: Readonly<Record<string, string>>;
}

/** What the two list calls returned; kinds that cannot be read are absent. */
export type ServerSnapshot = Partial<Record<ResourceType, KindListing>>;

/** The state entries a refresh changed: the server's view (redacted), or null for deleted ones. */
export type RefreshOverlay = Record<string, ResourceState | null>;

export interface Refreshed {
  /** The state with the overlay applied; null when there was no state. */
  state: State | null;
  overlay: RefreshOverlay;
  drift: DriftEntry[];
  /** Things the user should know, e.g. a list that could not be matched. */
  warnings: string[];
  /** Server records that no state entry tracks, by kind and identity. */
  untracked: UntrackedIndex;
  /** Resources whose server record could not be read, and why (docs/spec/server.md#refresh: refresh degrades per resource). */
  unreadable: UnreadableResource[];
  /** Kinds whose list was not read whole, and why: no create of theirs is proven free of a conflict. */
  incomplete: Partial<Record<ResourceType, string>>;
}

export type UntrackedIndex = Partial<Record<ResourceType, Map<string, RemoteRecord[]>>>;

export interface RefreshInput {
  state: State | null;
  snapshot: ServerSnapshot;
  digest: Digest;
  /** Sensitive paths the manifest declares for an address (the state's own digests are found too). */
  sensitiveOf: (address: string) => readonly SensitivePath[];
}

export function refreshState({ state, snapshot: read, digest, sensitiveOf }: RefreshInput): Refreshed {
  const snapshot = withAddressesRead(read, state);
  const overlay: RefreshOverlay = {};
  const drift: DriftEntry[] = [];
  const warnings: string[] = [];
  const tracked = new Set<RemoteRecord>();
  const unreadable: UnreadableResource[] = [];
  const incomplete: Partial<Record<ResourceType, string>> = {};
  const indexes = new Map<ResourceType, { byRemoteId: Map<string, RemoteRecord>; byIdentity: Map<string, RemoteRecord> }>();
  for (const type of RESOURCE_TYPES) {
    const listing = snapshot[type];
    if (!listing) continue;
    if (!listing.matchable) {
      warnings.push(
        `the server's list of ${type}s has entries without their ${matchFieldOf(type)}, so they cannot be matched to the state: ${type}s are compared with the state only, and nothing is planned as deleted on the server`,
      );
    }
    if (listing.incomplete !== undefined) {
      incomplete[type] = listing.incomplete;
      warnings.push(`the server's list of ${type}s ${listing.incomplete}, so it may hold more than was read: nothing missing from it is planned as deleted on the server`);
    }
    indexes.set(type, indexBy(listing.records));
    for (const [address, reason] of Object.entries(listing.unreadable ?? {})) unreadable.push({ address, type, reason });
  }
  const unread = new Set(unreadable.map((entry) => entry.address));

  for (const [address, current] of Object.entries(state?.resources ?? {})) {
    const listing = snapshot[current.type];
    const index = indexes.get(current.type);
    // What could not be read is not known to be deleted, nor changed.
    if (!listing || !index || !listing.matchable || unread.has(address)) continue;
    const kind = kindOf(current.type);
    const record = kind.refresh?.matchBy === 'key' ? index.byIdentity.get(keyOfAddress(address)) : index.byRemoteId.get(current.remoteId);
    if (record === undefined) {
      // Not on the pages that could be read: maybe on one that could not (docs/spec/server.md#absence-must-be-proven).
      if (listing.incomplete !== undefined) continue;
      overlay[address] = null;
      drift.push({ address, type: current.type, kind: 'deleted', fields: [] });
      continue;
    }
    tracked.add(record);
    const sensitive = [...sensitiveOf(address), ...digestPaths(current.spec)];
    const refreshed = overlaySpec(current.spec, record.spec, sensitive, digest);
    const before = normalizeSpec(current.type, current.spec);
    const after = normalizeSpec(current.type, refreshed);
    if (equal(before, after)) continue;
    overlay[address] = { ...current, remoteId: record.remoteId ?? current.remoteId, spec: refreshed };
    drift.push({ address, type: current.type, kind: 'changed', fields: diffFields(before, after, sensitive) });
  }

  drift.sort((a, b) => TYPE_RANK[a.type] - TYPE_RANK[b.type] || (a.address < b.address ? -1 : a.address > b.address ? 1 : 0));
  return { state: state && applyOverlay(state, overlay), overlay, drift, warnings, untracked: untrackedIndex(snapshot, tracked), unreadable, incomplete };
}

/**
 * The snapshot with the ids an address field holds (a builder agent's attached knowledge) written
 * as the addresses the state knows them by (core/address-references.ts); the same snapshot when no
 * kind read has such a field.
 */
function withAddressesRead(snapshot: ServerSnapshot, state: State | null): ServerSnapshot {
  let index: Map<string, string> | undefined;
  const lazyIndex = (): Map<string, string> => (index ??= referenceIndex(state));
  let mapped: ServerSnapshot | undefined;
  for (const type of ADDRESS_FIELDS.keys()) {
    const listing = snapshot[type];
    if (listing === undefined) continue;
    mapped ??= { ...snapshot };
    mapped[type] = { ...listing, records: listing.records.map((record) => ({ ...record, spec: withAddresses(type, record.spec, lazyIndex) })) };
  }
  return mapped ?? snapshot;
}

/** The state as the refresh saw it. Used again by `apply PLANFILE`, whose plan file carries the overlay. */
export function applyOverlay(state: State, overlay: RefreshOverlay): State {
  const addresses = Object.keys(overlay);
  if (addresses.length === 0) return state;
  const resources = { ...state.resources };
  for (const address of addresses) {
    const entry = overlay[address];
    if (entry === null || entry === undefined) delete resources[address];
    else resources[address] = entry;
  }
  return { ...state, resources };
}

function matchFieldOf(type: ResourceType): string {
  return kindOf(type).refresh?.matchBy === 'key' ? 'name' : 'remote id';
}

function indexBy(records: readonly RemoteRecord[]): { byRemoteId: Map<string, RemoteRecord>; byIdentity: Map<string, RemoteRecord> } {
  const byRemoteId = new Map<string, RemoteRecord>();
  const byIdentity = new Map<string, RemoteRecord>();
  for (const record of records) {
    if (record.remoteId !== undefined) byRemoteId.set(record.remoteId, record);
    if (record.identity !== undefined && !byIdentity.has(record.identity)) byIdentity.set(record.identity, record);
  }
  return { byRemoteId, byIdentity };
}

function untrackedIndex(snapshot: ServerSnapshot, tracked: ReadonlySet<RemoteRecord>): UntrackedIndex {
  const index: UntrackedIndex = {};
  for (const type of RESOURCE_TYPES) {
    const listing = snapshot[type];
    if (!listing) continue;
    const byIdentity = new Map<string, RemoteRecord[]>();
    for (const record of listing.records) {
      if (tracked.has(record) || record.identity === undefined) continue;
      const same = byIdentity.get(record.identity);
      if (same) same.push(record);
      else byIdentity.set(record.identity, [record]);
    }
    index[type] = byIdentity;
  }
  return index;
}

/**
 * The state's spec with every field the server returned replaced by the server's value (null means
 * the server has the optional field unset). Sensitive values the server returned are digested with
 * the state's key, so they compare with the state's digests and are never held in clear.
 */
function overlaySpec(stateSpec: JsonObject, serverSpec: JsonObject, sensitive: readonly SensitivePath[], digest: Digest): JsonObject {
  const merged: JsonObject = { ...stateSpec };
  for (const [field, value] of Object.entries(serverSpec)) {
    if (value === null) delete merged[field];
    else merged[field] = value;
  }
  const fromServer = sensitive.filter((path) => path.length > 0 && Object.hasOwn(serverSpec, String(path[0])) && serverSpec[String(path[0])] !== null);
  return redactSpecShared({ spec: merged, sensitive: fromServer }, digest);
}

/** Paths in a stored spec whose value is a digest: the state's own record of what was sensitive. */
function digestPaths(spec: JsonValue, path: (string | number)[] = [], out: SensitivePath[] = []): SensitivePath[] {
  if (isDigest(spec)) out.push([...path]);
  else if (Array.isArray(spec)) spec.forEach((item, i) => digestPaths(item, [...path, i], out));
  else if (spec !== null && typeof spec === 'object') for (const [key, value] of Object.entries(spec)) digestPaths(value, [...path, key], out);
  return out;
}
