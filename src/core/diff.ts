// The diff: (desired, state) → Plan. Pure and linear: one Map lookup per resource, no nested scans.
// Both sides pass through the same redaction and normalization, so only a difference in what would
// be sent can show as a change; key order, written-out defaults and set order never do.
import equal from 'fast-deep-equal';
import type { Desired, DesiredResource, ResourceType } from './desired.js';
import { diffFields } from './field-diff.js';
import { normalizeSpec, normalizeSpecInPlace } from './normalize.js';
import { summarize, type Change, type PendingWarning, type Plan } from './plan.js';
import { redactSpec, type Digest } from './redact.js';
import type { ResourceState, State } from './state.js';

export interface PlanInput {
  desired: Desired;
  /** null when no state file exists yet: everything is a create. */
  state: State | null;
  /** The state's keyed digester, for sensitive values on the desired side. */
  digest: Digest;
}

const TYPE_RANK: Record<ResourceType, number> = { tool: 0, agent: 1, website: 2 };

export function planChanges({ desired, state, digest }: PlanInput): Plan {
  const recorded = new Map<string, ResourceState>(Object.entries(state?.resources ?? {}));
  const changes: Change[] = [];
  for (const resource of desired.resources) {
    const current = recorded.get(resource.address);
    recorded.delete(resource.address);
    changes.push(changeFor(resource, current, digest));
  }
  // What is left in state is no longer in the manifest.
  for (const [address, current] of recorded) {
    changes.push({
      action: 'forget',
      type: current.type,
      address,
      key: keyOf(address),
      remoteId: current.remoteId,
      before: normalizeSpec(current.type, current.spec),
    });
  }
  changes.sort(byTypeThenAddress);
  return {
    environment: desired.environment.name,
    appId: desired.environment.appId,
    region: desired.environment.region,
    changes,
    summary: summarize(changes),
    pending: pendingWarnings(state),
  };
}

function changeFor(resource: DesiredResource, current: ResourceState | undefined, digest: Digest): Change {
  const { type, address, key } = resource;
  const after = normalizeSpecInPlace(type, redactSpec(resource, digest));
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

function pendingWarnings(state: State | null): PendingWarning[] {
  const warnings = Object.entries(state?.pending ?? {}).map(([address, pending]): PendingWarning => ({
    address,
    type: pending.type,
    since: pending.since,
  }));
  return warnings.sort(byTypeThenAddress);
}

function byTypeThenAddress(a: { type: ResourceType; address: string }, b: { type: ResourceType; address: string }): number {
  return TYPE_RANK[a.type] - TYPE_RANK[b.type] || (a.address < b.address ? -1 : a.address > b.address ? 1 : 0);
}

/** The manifest key of an address: everything after the type prefix. */
function keyOf(address: string): string {
  const dot = address.indexOf('.');
  return dot === -1 ? address : address.slice(dot + 1);
}
