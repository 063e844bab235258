// The diff: (desired, state) → Plan. Pure and linear: one Map lookup per resource, no nested scans.
// Both sides pass through the same redaction and normalization, so only a difference in what would
// be sent can show as a change; key order, written-out defaults and set order never do.
import equal from 'fast-deep-equal';
import type { Desired, DesiredResource, ResourceType } from './desired.js';
import { diffFields } from './field-diff.js';
import { normalizeSpec } from './normalize.js';
import { summarize, type Change, type ForgetChange, type PendingWarning, type Plan } from './plan.js';
import { redactSpecShared, type Digest } from './redact.js';
import type { ResourceState, State } from './state.js';

export interface PlanInput {
  desired: Desired;
  /** null when no state file exists yet: everything is a create. */
  state: State | null;
  /** The state's keyed digester, for sensitive values on the desired side. */
  digest: Digest;
}

const TYPE_RANK: Record<ResourceType, number> = { tool: 0, agent: 1, website: 2 };

export function planChanges({ desired, state, digest: digestOnce }: PlanInput): Plan {
  const digest = memoize(digestOnce);
  const recorded = state?.resources ?? {};
  const changes: Change[] = [];
  let matched = 0;
  for (const resource of desired.resources) {
    const current = Object.hasOwn(recorded, resource.address) ? recorded[resource.address] : undefined;
    if (current !== undefined) matched++;
    changes.push(changeFor(resource, current, digest));
  }
  // What is left in state is no longer in the manifest. Usually nothing is, and counting says so
  // without building a set of the desired addresses (addresses are unique: they are map keys).
  if (matched < Object.keys(recorded).length) for (const forget of forgetChanges(recorded, desired.resources)) changes.push(forget);
  // Desired resources arrive in plan order already; a linear check usually saves the sort.
  if (!isOrdered(changes)) changes.sort(byTypeThenAddress);
  return {
    environment: desired.environment.name,
    appId: desired.environment.appId,
    region: desired.environment.region,
    changes,
    summary: summarize(changes),
    pending: pendingWarnings(state),
  };
}

function forgetChanges(recorded: Readonly<Record<string, ResourceState>>, resources: readonly DesiredResource[]): ForgetChange[] {
  const wanted = new Set(resources.map((r) => r.address));
  const forgets: ForgetChange[] = [];
  for (const [address, current] of Object.entries(recorded)) {
    if (wanted.has(address)) continue;
    forgets.push({ action: 'forget', type: current.type, address, key: keyOf(address), remoteId: current.remoteId, before: normalizeSpec(current.type, current.spec) });
  }
  return forgets;
}

function changeFor(resource: DesiredResource, current: ResourceState | undefined, digest: Digest): Change {
  const { type, address, key } = resource;
  // Specs in the plan share structure with desired and state (copy-on-write); all of it is read-only.
  const after = normalizeSpec(type, redactSpecShared(resource, digest));
  // A recorded resource of another type (a hand-edited or damaged state) has a remote id that names
  // something else, so it cannot be updated: plan a create, which replaces the record on apply.
  if (current === undefined || current.type !== type) {
    return { action: 'create', type, address, key, after, fields: diffFields(undefined, after, resource.sensitive) };
  }
  const before = normalizeSpec(type, current.spec);
  if (equal(before, after)) return { action: 'no-op', type, address, key, remoteId: current.remoteId };
  return {
    action: 'update',
    type,
    address,
    key,
    remoteId: current.remoteId,
    before,
    after,
    fields: diffFields(before, after, resource.sensitive),
  };
}

/** An HMAC costs ~10µs; one secret reused by many resources (a shared header) is digested once. */
function memoize(digest: Digest): Digest {
  const seen = new Map<string, string>();
  return (canonical) => {
    let result = seen.get(canonical);
    if (result === undefined) seen.set(canonical, (result = digest(canonical)));
    return result;
  };
}

function pendingWarnings(state: State | null): PendingWarning[] {
  const warnings = Object.entries(state?.pending ?? {}).map(([address, pending]): PendingWarning => ({
    address,
    type: pending.type,
    since: pending.since,
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

/** The manifest key of an address: everything after the type prefix. */
function keyOf(address: string): string {
  const dot = address.indexOf('.');
  return dot === -1 ? address : address.slice(dot + 1);
}
