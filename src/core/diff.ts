// The diff: (desired, state, optionally the refreshed server) → Plan. Pure and linear: one Map
// lookup per resource, no nested scans. Both sides pass through the same redaction and
// normalization, so only a difference in what would be sent can show as a change; key order,
// written-out defaults and set order never do.
import { jsonEqual as equal } from './json-equal.js';
import type { Desired, DesiredResource, Move, ResourceType } from './desired.js';
import { diffFields } from './field-diff.js';
import { couldBeCreatedSince, kindOf, TYPE_RANK, type RemoteRecord } from './kinds/index.js';
import { normalizeSpec } from './normalize.js';
import { ADDRESS_FIELDS, isAddressField, itemChanges, withReplacedSources } from './address-references.js';
import { summarize, type Change, type CreateChange, type DeleteChange, type FieldChange, type PendingWarning, type Plan, type UnreadableResource } from './plan.js';
import type { FieldFact } from './kinds/fields.js';
import { effectiveMoves } from './effective-moves.js';
import { leftoverChanges, limitToTargets, NO_SCOPE, selectTargets, type PlanScope } from './plan-scope.js';
import { redactSpecShared, type Digest } from './redact.js';
import type { Refreshed } from './refresh.js';
import type { PendingCreate, ResourceState, State } from './state.js';

export interface PlanInput {
  desired: Desired;
  /** null when no state exists yet: everything is a create. With a refresh, the refreshed state. */
  state: State | null;
  /**
   * The state's keyed digester, for sensitive values on the desired side. A digest is slow on
   * purpose; io/state/digest.ts keeps each one for the life of the process, so this may call it freely.
   */
  digest: Digest;
  /** The server as read before planning; absent with --offline. */
  refresh?: Pick<Refreshed, 'drift' | 'warnings' | 'untracked'> & Partial<Pick<Refreshed, 'unreadable' | 'incomplete'>>;
  /** Creates a saved plan decided to adopt (apply PLANFILE does not read the server again). */
  adopt?: Readonly<Record<string, string>>;
  /** `--prune` and `--target`; absent means neither. */
  scope?: PlanScope;
  /** State entries the refresh found deleted on the server (dropped from `state`); `--prune` cleans them up. */
  goneFromServer?: Readonly<Record<string, ResourceState>>;
}

export function planChanges({ desired, state: stored, digest, refresh, adopt, scope = NO_SCOPE, goneFromServer = {} }: PlanInput): Plan {
  const moves = effectiveMoves(desired.moved ?? [], stored?.resources ?? {});
  const state = moves.length > 0 && stored ? withMoves(stored, moves) : stored;
  const recorded = state?.resources ?? {};
  const changes: Change[] = [];
  const unproven: UnreadableResource[] = [];
  let matched = 0;
  // Sources the plan replaces (-/+), by address → old id: their referrers attach the new one (they come later in plan order).
  const replaced = new Map<string, string>();
  for (const resource of desired.resources) {
    const current = Object.hasOwn(recorded, resource.address) ? recorded[resource.address] : undefined;
    if (current !== undefined) matched++;
    const change = changeFor(resource, asAfterReplacements(resource.type, current, replaced), digest);
    if (change.action === 'update' && change.replace === true) replaced.set(change.address, change.remoteId);
    if (change.action === 'create') {
      markServerMatch(change, resource, pendingCreate(state, resource.address), refresh, adopt);
      const why = unprovenAbsence(change, resource, refresh);
      if (why !== undefined) unproven.push({ address: change.address, type: change.type, reason: why });
    }
    changes.push(change);
  }
  // What is left in state is no longer in the manifest. Usually nothing is, and counting says so
  // without building a set of the desired addresses (addresses are unique: they are map keys).
  const deleting = pendingDeletes(state);
  if (matched < Object.keys(recorded).length || Object.keys(goneFromServer).length > 0) {
    for (const leftover of leftoverChanges(recorded, desired.resources, { prune: scope.prune, gone: goneFromServer, deleting })) changes.push(leftover);
  }
  markRenames(changes);
  markDetaches(changes, recorded);
  // Desired resources arrive in plan order already; a linear check usually saves the sort.
  if (!isOrdered(changes)) changes.sort(byTypeThenAddress);
  const unreadable = unproven.length === 0 ? (refresh?.unreadable ?? []) : [...(refresh?.unreadable ?? []), ...unproven];
  const planned = unreadable.length === 0 ? changes : withoutUnread(changes, unreadable, moves);
  const plan: Plan = {
    environment: desired.environment.name,
    appId: desired.environment.appId,
    region: desired.environment.region,
    refreshed: refresh !== undefined,
    drift: refresh?.drift ?? [],
    warnings: refresh?.warnings ?? [],
    prune: scope.prune,
    changes: planned,
    summary: summarize(planned),
    pending: pendingWarnings(state, planned),
  };
  if (unreadable.length > 0) plan.unreadable = [...unreadable].sort(byTypeThenAddress);
  if (moves.length > 0) plan.moves = moves.map((move) => ({ ...move, type: recorded[move.to]?.type ?? 'agent', remoteId: recorded[move.to]?.remoteId ?? '' }));
  if (scope.targets.length === 0) return plan;
  return limitToTargets(plan, selectTargets(desired, [...Object.keys(recorded), ...Object.keys(goneFromServer)], scope.targets));
}

/** A referrer's state entry as it will stand once the sources the plan replaces are replaced (core/address-references.ts). */
function asAfterReplacements(type: ResourceType, current: ResourceState | undefined, replaced: ReadonlyMap<string, string>): ResourceState | undefined {
  if (current === undefined || replaced.size === 0 || !ADDRESS_FIELDS.has(type)) return current;
  const spec = withReplacedSources(type, current.spec, replaced);
  return spec === undefined ? current : { ...current, spec };
}

/**
 * A delete of a source that agents hold (their refreshed state names it by address) says so: the
 * server detaches it from every agent (docs/spec/plan-and-apply.md#knowledge-attachments).
 */
function markDetaches(changes: readonly Change[], recorded: Readonly<Record<string, ResourceState>>): void {
  const deletes = changes.filter((change): change is DeleteChange => change.action === 'delete' && change.gone !== true);
  if (deletes.length === 0 || ADDRESS_FIELDS.size === 0) return;
  const holders = new Map<string, string[]>();
  for (const [address, entry] of Object.entries(recorded)) {
    for (const { field } of ADDRESS_FIELDS.get(entry.type) ?? []) {
      const list = entry.spec[field];
      if (!Array.isArray(list)) continue;
      for (const item of list) if (typeof item === 'string') holders.set(item, [...(holders.get(item) ?? []), address]);
    }
  }
  for (const change of deletes) {
    const from = holders.get(change.address);
    if (from !== undefined) change.detaches = [...new Set(from)].sort();
  }
}

/** The state as it is once the moves are made: each entry (and its pending mark) under its new address. */
function withMoves(state: State, moves: readonly Move[]): State {
  const resources = { ...state.resources };
  const pending = { ...state.pending };
  for (const { from, to } of moves) {
    const entry = resources[from];
    if (entry !== undefined) resources[to] = entry;
    delete resources[from];
    const mark = pending[from];
    if (mark !== undefined) pending[to] = mark;
    delete pending[from];
  }
  return { ...state, resources, pending };
}

/**
 * A create whose identity (an agent's name) is that of a resource leaving the manifest in the same
 * plan is a rename without a `moved:` entry: creating it would leave two agents of that name. It
 * becomes a conflict that names the old address, so apply refuses and the plan prints the fix.
 */
function markRenames(changes: Change[]): void {
  const leaving = new Map<string, { address: string; remoteId: string }>();
  for (const change of changes) {
    if ((change.action !== 'forget' && change.action !== 'delete') || change.gone === true) continue;
    const identity = kindOf(change.type).identityOf?.(change.before, change.key);
    if (identity !== undefined) leaving.set(`${change.type}\0${identity}`, { address: change.address, remoteId: change.remoteId });
  }
  if (leaving.size === 0) return;
  for (const change of changes) {
    if (change.action !== 'create' || change.adopt !== undefined) continue;
    const identity = kindOf(change.type).identityOf?.(change.after, change.key);
    const old = identity === undefined ? undefined : leaving.get(`${change.type}\0${identity}`);
    if (old !== undefined) change.conflict = { remoteId: old.remoteId, movedFrom: old.address };
  }
}

/** The changes without those of resources the refresh could not read: nothing is known of them. */
function withoutUnread(changes: readonly Change[], unreadable: readonly UnreadableResource[], moves: readonly Move[]): Change[] {
  const unread = new Set(unreadable.map((entry) => entry.address));
  // The refresh read the state before its moves: an unreadable entry is unknown at its new address too.
  for (const move of moves) if (unread.has(move.from)) unread.add(move.to);
  return changes.filter((change) => !unread.has(change.address));
}

/** Addresses whose DELETE was sent but not confirmed: any apply finishes them. */
function pendingDeletes(state: State | null): Set<string> {
  return new Set(Object.entries(state?.pending ?? {}).flatMap(([address, pending]) => (pending.action === 'delete' ? [address] : [])));
}

/** A pending mark of a create (not of a DELETE) at this address. */
function pendingCreate(state: State | null, address: string): PendingCreate | undefined {
  const pending = state?.pending[address];
  return pending?.action === undefined ? pending : undefined;
}

/**
 * A create whose identity the server already has, untracked, is either our own interrupted create
 * (the address is pending and exactly one candidate fits: adopt it) or somebody else's (conflict).
 */
function markServerMatch(change: CreateChange, resource: DesiredResource, pending: PendingCreate | undefined, refresh: PlanInput['refresh'], adopt: PlanInput['adopt']): void {
  const saved = adopt?.[change.address];
  if (saved !== undefined) {
    change.adopt = { remoteId: saved };
    return;
  }
  const kind = kindOf(resource.type);
  if (!refresh || !kind.identityOf) return;
  const same = refresh.untracked[resource.type]?.get(kind.identityOf(resource.spec, resource.key)) ?? [];
  if (same.length === 0) return;
  if (pending !== undefined) {
    const fits = same.filter((record) => couldBeCreatedSince(record, pending.since) && (kind.madeBy?.(resource.spec, record) ?? true));
    const remoteId = fits.length === 1 ? remoteIdOf(fits[0] as RemoteRecord, resource) : undefined;
    if (remoteId !== undefined) {
      change.adopt = { remoteId };
      return;
    }
  }
  // A record listed without its id cannot be adopted or named: the conflict then carries no id,
  // and the user supplies it (`agentsync import ADDRESS ID`). An id is never made up from a name.
  const ids = same.map((record) => remoteIdOf(record, resource));
  change.conflict = ids.every((id) => id !== undefined) ? { remoteId: ids.join(', ') } : {};
}

/**
 * Why a create cannot be planned: its kind's list was not read whole (a page failed, a cursor
 * looped), so the resource may be on a page that was not read, and creating it could make a second
 * one (docs/spec/server.md#absence-must-be-proven). Undefined when nothing stands in its way, or
 * when it is already a conflict or an adoption.
 */
function unprovenAbsence(change: CreateChange, resource: DesiredResource, refresh: PlanInput['refresh']): string | undefined {
  const incomplete = refresh?.incomplete?.[resource.type];
  const identityOf = kindOf(resource.type).identityOf;
  if (incomplete === undefined || identityOf === undefined || change.conflict !== undefined || change.adopt !== undefined) return undefined;
  return `the server's list of ${resource.type}s ${incomplete}, so it may already hold ${/^[aeiou]/.test(resource.type) ? 'an' : 'a'} ${resource.type} named ${JSON.stringify(identityOf(resource.spec, resource.key))}; it is not created until the list can be read whole`;
}

/** The record's remote id; only a kind that is addressed by its key (tools) may use the name as one. */
function remoteIdOf(record: RemoteRecord, resource: DesiredResource): string | undefined {
  if (record.remoteId !== undefined) return record.remoteId;
  return kindOf(resource.type).refresh?.matchBy === 'key' ? (record.identity ?? resource.key) : undefined;
}

function changeFor(resource: DesiredResource, current: ResourceState | undefined, digest: Digest): Change {
  const { type, address, key } = resource;
  // Specs in the plan share structure with desired and state (copy-on-write); all of it is read-only.
  const after = normalizeSpec(type, redactSpecShared(resource, digest));
  // A recorded resource of another type (a hand-edited or damaged state) has a remote id that names
  // something else, so it cannot be updated: plan a create, which replaces the record on apply.
  if (current === undefined || current.type !== type) {
    const defaulted = resource.defaulted?.length ? { defaulted: [...resource.defaulted] } : {};
    return { action: 'create', type, address, key, after, fields: shownFields(type, diffFields(undefined, after, resource.sensitive)), ...defaulted };
  }
  const before = normalizeSpec(type, current.spec);
  if (equal(before, after)) return { action: 'no-op', type, address, key, remoteId: current.remoteId };
  const changed = diffFields(before, after, resource.sensitive);
  const replacedBy = kindOf(type).replacedBy ?? [];
  // Decided on the spec's own paths: a field shown under another name (FieldFact.shownAs) still replaces.
  const replace = changed.some((field) => replacedBy.includes(field.path.split('.')[0] ?? ''));
  const fields = shownFields(type, changed);
  return { action: 'update', type, address, key, remoteId: current.remoteId, before, after, fields, ...(replace ? { replace: true } : {}) };
}

/** Field changes as people read them: a bookkeeping field shows as its kind says (FieldFact.shownAs). */
function shownFields(type: ResourceType, fields: FieldChange[]): FieldChange[] {
  const facts = kindOf(type).fields as Readonly<Record<string, FieldFact | undefined>>;
  return fields.flatMap((field) => {
    if (field.sensitive !== true && isAddressField(type, field.path)) return itemChanges(field);
    const shownAs = Object.hasOwn(facts, field.path) ? facts[field.path]?.shownAs : undefined;
    return shownAs === undefined || field.sensitive === true ? field : shownAs(field.before, field.after);
  });
}

/** The state's pending marks, except creates the plan already adopts: their change says what happens. */
function pendingWarnings(state: State | null, changes: readonly Change[]): PendingWarning[] {
  const adopted = new Set(changes.flatMap((change) => (change.action === 'create' && change.adopt !== undefined ? [change.address] : [])));
  const marks = Object.entries(state?.pending ?? {}).filter(([address, pending]) => pending.action !== undefined || !adopted.has(address));
  const warnings = marks.map(([address, pending]): PendingWarning => ({
    address,
    type: pending.type,
    since: pending.since,
    action: pending.action ?? 'create',
  }));
  return warnings.sort(byTypeThenAddress);
}

function isOrdered(changes: readonly Change[]): boolean {
  for (let i = 1; i < changes.length; i++) if (byTypeThenAddress(changes[i - 1] as Change, changes[i] as Change) > 0) return false;
  return true;
}

function byTypeThenAddress(a: { type: ResourceType; address: string }, b: { type: ResourceType; address: string }): number {
  return TYPE_RANK[a.type] - TYPE_RANK[b.type] || (a.address < b.address ? -1 : a.address > b.address ? 1 : 0);
}
