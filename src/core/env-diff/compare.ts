// `agentsync diff`: two environments compared through the manifest (docs/spec/commands.md#diff).
// A resource is its manifest address, found on each server through that environment's state (and
// by name for what no state holds). Each environment's own plan, made against its refreshed state,
// says where its server differs from its manifest (drift); the two manifests, compared with each
// other, say what differs on purpose (intended). Pure and linear: one Map lookup per resource.
import type { JsonObject } from '../api-types.js';
import type { DesiredResource } from '../desired.js';
import { diffFields } from '../field-diff.js';
import { kindOf, type RemoteRecord, type ResourceType } from '../kinds/index.js';
import { normalizeSpec } from '../normalize.js';
import { redactSpecShared } from '../redact.js';
import type { Change, FieldChange, Plan } from '../plan.js';
import type { UntrackedIndex } from '../refresh.js';
import { byIdentity, compareRecordSets, finishDiff, type RecordsByIdentity } from './records.js';
import type { EnvironmentInfo, EnvironmentsDiff, FieldRow, FieldSide, ResourceDiff, ResourceSide } from './types.js';
import { appendAll } from '../arrays.js';

/** One environment as its plan saw it. */
export interface ManagedSide {
  info: EnvironmentInfo;
  /** The manifest resolved for this environment. Its values are compared in memory and never copied out. */
  resources: readonly DesiredResource[];
  /** The environment's plan against its refreshed state (app/diff.ts): an update or a create is drift. */
  plan: Plan;
  /** The server records its state does not track, by kind and identity (core/refresh.ts). */
  untracked: UntrackedIndex;
}

/** What one environment says about one address. */
interface Presence {
  declared: boolean;
  present: boolean;
  /** Where the server differs from the manifest, live (`before`) against manifest (`after`). */
  drift: readonly FieldChange[];
  desired?: DesiredResource;
  /** The server holds it, found by name: no state entry tracks it. */
  untracked?: boolean;
}

export function compareEnvironments(a: ManagedSide, b: ManagedSide): EnvironmentsDiff {
  const infos = [a.info, b.info] as const;
  const sides = [presenceOf(a), presenceOf(b)] as const;
  const declaredIdentities = identitiesOf([...a.resources, ...b.resources]);
  const unmanaged = [unmanagedOf(a, declaredIdentities, sides[0]), unmanagedOf(b, declaredIdentities, sides[1])] as const;
  const resources: ResourceDiff[] = [];
  let identical = 0;
  const addresses = new Set([...sides[0].keys(), ...sides[1].keys()]);
  // What one server could not say is not compared at all (it is listed as unreadable, and the diff fails).
  const unread = new Set([a, b].flatMap((side) => (side.plan.unreadable ?? []).map((u) => u.address)));
  for (const address of addresses) {
    if (unread.has(address)) continue;
    const entry = compareAddress(address, infos, sides[0].get(address), sides[1].get(address));
    if (entry === undefined) identical++;
    else resources.push(entry);
  }
  for (const type of Object.keys(unmanaged[0]) as ResourceType[]) {
    const compared = compareRecordSets(type, infos, unmanaged[0][type] ?? new Map(), unmanaged[1][type] ?? new Map());
    appendAll(resources, compared.resources);
    identical += compared.identical;
  }
  const warnings = [a, b].flatMap((side) => side.plan.warnings.map((message) => ({ environment: side.info.name, message })));
  const unreadable = [a, b].flatMap((side) => (side.plan.unreadable ?? []).map((u) => ({ environment: side.info.name, address: u.address, message: u.reason })));
  return finishDiff('manifest', infos, resources, identical, warnings, unreadable);
}

/** Every address the environment's plan names, with what its server holds. */
function presenceOf(side: ManagedSide): Map<string, Presence> {
  const desired = new Map(side.resources.map((resource) => [resource.address, resource]));
  const map = new Map<string, Presence>();
  for (const change of side.plan.changes) {
    const resource = desired.get(change.address);
    const presence = presenceFrom(change, resource, side.untracked);
    if (presence !== undefined) map.set(change.address, presence);
  }
  return map;
}

function presenceFrom(change: Change, resource: DesiredResource | undefined, untracked: UntrackedIndex): Presence | undefined {
  switch (change.action) {
    case 'no-op':
      return resource && { declared: true, present: true, drift: [], desired: resource };
    case 'update':
      return resource && { declared: true, present: true, drift: change.fields, desired: resource };
    case 'create': {
      if (!resource) return undefined;
      // No state entry, but the server has one by that name: compare it as it is.
      const record = change.conflict === undefined ? undefined : untrackedRecord(resource, untracked);
      if (record === undefined) return { declared: true, present: false, drift: [], desired: resource };
      return { declared: true, present: true, drift: recordDrift(resource, record), desired: resource, untracked: true };
    }
    case 'forget':
    case 'delete':
      // In the state, no longer in this environment's manifest: the server still holds it (unless gone).
      return change.gone === true ? undefined : { declared: false, present: true, drift: [] };
    default: {
      const _exhaustive: never = change;
      return _exhaustive;
    }
  }
}

function untrackedRecord(resource: DesiredResource, untracked: UntrackedIndex): RemoteRecord | undefined {
  const identity = kindOf(resource.type).identityOf?.(resource.spec, resource.key);
  return identity === undefined ? undefined : untracked[resource.type]?.get(identity)?.[0];
}

/** A record no state tracks, against the manifest: what it does not return is taken as declared (as a refresh does). */
function recordDrift(resource: DesiredResource, record: RemoteRecord): FieldChange[] {
  const manifest = resource.spec as unknown as JsonObject;
  const live: JsonObject = { ...manifest };
  for (const [field, value] of Object.entries(record.spec)) {
    if (value === null) delete live[field];
    else live[field] = value;
  }
  return diffFields(normalizeSpec(resource.type, live), normalizeSpec(resource.type, manifest), resource.sensitive);
}

/** One address in both environments; undefined when it is identical. */
function compareAddress(address: string, infos: readonly [EnvironmentInfo, EnvironmentInfo], a: Presence | undefined, b: Presence | undefined): ResourceDiff | undefined {
  const type = (a?.desired ?? b?.desired)?.type ?? (address.slice(0, address.indexOf('.')) as ResourceType);
  const sides: [ResourceSide, ResourceSide] = [sideOf(infos[0].name, a), sideOf(infos[1].name, b)];
  const names = [infos[0].name, infos[1].name] as const;
  // Declared and missing on its server: drift there, whatever the other side holds.
  const missing = names.filter((_, i) => sides[i]!.declared && !sides[i]!.present);
  if (missing.length > 0) return { address, type, group: 'drift', driftIn: missing, sides, fields: [] };
  if (!sides[0].declared && !sides[1].declared) {
    if (sides[0].present && sides[1].present) return undefined; // both left the manifests; neither compares it
    const holder = sides[0].present ? names[0] : names[1];
    return { address, type, group: 'only', onlyIn: holder, sides, fields: [] };
  }
  const fields = fieldRows(names, a, b);
  if (fields.length === 0) return sides[0].declared && sides[1].declared ? undefined : { address, type, group: 'intended', sides, fields };
  const driftIn = names.filter((name) => fields.some((field) => field.driftIn?.includes(name)));
  if (driftIn.length > 0) {
    const untrackedIn = names.filter((name, i) => driftIn.includes(name) && (i === 0 ? a : b)?.untracked === true);
    return { address, type, group: 'drift', driftIn, ...(untrackedIn.length > 0 ? { untrackedIn } : {}), sides, fields };
  }
  return { address, type, group: 'intended', sides, fields };
}

function sideOf(environment: string, presence: Presence | undefined): ResourceSide {
  return { environment, declared: presence?.declared === true, present: presence?.present === true };
}

/**
 * The fields that differ, each once: between the two manifests (intended), or between a server and
 * its own manifest (drift, which wins). A value neither diff names is the same as the other
 * manifest's, so every side's manifest and live value is known without looking it up.
 */
function fieldRows(names: readonly [string, string], a: Presence | undefined, b: Presence | undefined): FieldRow[] {
  const declaredBoth = a?.desired !== undefined && b?.desired !== undefined && a.declared && b.declared;
  const across = declaredBoth ? manifestDifferences(a.desired!, b.desired!) : new Map<string, FieldChange>();
  const driftA = byPath(a?.drift ?? []);
  const driftB = byPath(b?.drift ?? []);
  const paths = [...new Set([...across.keys(), ...driftA.keys(), ...driftB.keys()])].sort();
  return paths.map((path) => {
    const cross = across.get(path);
    const [da, db] = [driftA.get(path), driftB.get(path)];
    const manifestA = cross ? value(cross, 'before') : da ? value(da, 'after') : db ? value(db, 'after') : {};
    const manifestB = cross ? value(cross, 'after') : db ? value(db, 'after') : manifestA;
    const sides: [FieldSide, FieldSide] = [
      fieldSide(names[0], a?.declared === true, manifestA, da ? value(da, 'before') : manifestA),
      fieldSide(names[1], b?.declared === true, manifestB, db ? value(db, 'before') : manifestB),
    ];
    const driftIn = names.filter((_, i) => (i === 0 ? da : db) !== undefined);
    const sensitive = [cross, da, db].some((change) => change?.sensitive === true);
    const row: FieldRow = { path, group: driftIn.length > 0 ? 'drift' : 'intended', sides };
    if (driftIn.length > 0) row.driftIn = driftIn;
    if (sensitive) row.sensitive = true;
    return row;
  });
}

/**
 * The two manifests compared with each other. A sensitive value is compared whole, as the plan
 * compares its digest, so its path is the one a drift names; it is stood for by its canonical
 * text, in memory only: diffFields puts "(sensitive)" in place of anything at a sensitive path.
 */
function manifestDifferences(a: DesiredResource, b: DesiredResource): Map<string, FieldChange> {
  const sensitive = [...a.sensitive, ...b.sensitive];
  const whole = (canonical: string): string => `compared:${canonical}`;
  const left = normalizeSpec(a.type, redactSpecShared({ spec: a.spec, sensitive }, whole));
  const right = normalizeSpec(b.type, redactSpecShared({ spec: b.spec, sensitive }, whole));
  return byPath(diffFields(left, right, sensitive));
}

type Maybe = { value?: FieldChange['before'] };

function value(change: FieldChange, side: 'before' | 'after'): Maybe {
  const found = change[side];
  return found === undefined ? {} : { value: found };
}

function fieldSide(environment: string, declared: boolean, manifest: Maybe, live: Maybe): FieldSide {
  const side: FieldSide = { environment };
  if (declared && manifest.value !== undefined) side.manifest = manifest.value;
  if (live.value !== undefined) side.live = live.value;
  return side;
}

function byPath(changes: readonly FieldChange[]): Map<string, FieldChange> {
  return new Map(changes.map((change) => [change.path, change]));
}

/** type + identity of every declared resource, to tell an unmanaged record from a declared one held elsewhere. */
function identitiesOf(resources: readonly DesiredResource[]): Map<string, string> {
  const map = new Map<string, string>();
  for (const resource of resources) {
    const identity = kindOf(resource.type).identityOf?.(resource.spec, resource.key);
    if (identity !== undefined) map.set(`${resource.type}\0${identity}`, resource.address);
  }
  return map;
}

/**
 * The environment's records that no state tracks and no manifest declares. One that bears the name
 * of a resource the other environment declares is that resource, present here but not declared here.
 */
function unmanagedOf(side: ManagedSide, declared: ReadonlyMap<string, string>, presence: Map<string, Presence>): Partial<Record<ResourceType, RecordsByIdentity>> {
  const out: Partial<Record<ResourceType, RecordsByIdentity>> = {};
  for (const [type, index] of Object.entries(side.untracked) as [ResourceType, Map<string, RemoteRecord[]>][]) {
    const records: RemoteRecord[] = [];
    for (const [identity, found] of index) {
      const address = declared.get(`${type}\0${identity}`);
      if (address === undefined) appendAll(records, found);
      else if (!presence.has(address)) presence.set(address, { declared: false, present: true, drift: [] });
    }
    out[type] = byIdentity(records);
  }
  return out;
}
