// What a plan covers beyond "the manifest against the state": `--prune` (resources left out of the
// manifest are deleted instead of forgotten) and `--target` (only some addresses, plus what they
// need). Pure; core/diff.ts applies both.
import type { JsonObject } from './api-types.js';
import type { DesiredResource, Desired, ResourceType } from './desired.js';
import { UserError } from './errors.js';
import { keyOfAddress, kindOf, parseAddress } from './kinds/index.js';
import { normalizeSpec } from './normalize.js';
import { summarize, type Change, type DeleteChange, type ForgetChange, type Plan } from './plan.js';
import type { RefreshOverlay } from './refresh.js';
import type { ResourceState, State } from './state.js';
import { didYouMean } from './suggest.js';

export interface PlanScope {
  prune: boolean;
  /** Addresses given with --target; empty means the whole manifest. */
  targets: readonly string[];
}

export const NO_SCOPE: PlanScope = { prune: false, targets: [] };

export interface Leftovers {
  /** `--prune`: every leftover is deleted (a kind the API cannot delete is forgotten with a note). */
  prune: boolean;
  /** Entries the refresh found deleted on the server: dropped without a call (forgotten, or a gone delete with --prune). */
  gone: Readonly<Record<string, ResourceState>>;
  /**
   * Entries whose DELETE was started (a pending delete mark: an interrupted --prune, a website a
   * re-crawl replaced). Any apply finishes it: forgetting would leave them on the server, untracked.
   */
  deleting: ReadonlySet<string>;
}

/** State entries that are no longer in the manifest: each is forgotten, or deleted (see Leftovers). */
export function leftoverChanges(recorded: Readonly<Record<string, ResourceState>>, resources: readonly DesiredResource[], options: Leftovers): (DeleteChange | ForgetChange)[] {
  const wanted = new Set(resources.map((r) => r.address));
  const changes: (DeleteChange | ForgetChange)[] = [];
  const leftover = (address: string, current: ResourceState, alreadyGone: boolean): void => {
    if (wanted.has(address)) return;
    const base = { type: current.type, address, key: keyOfAddress(address), remoteId: current.remoteId, before: normalizeSpec(current.type, current.spec) };
    if (!options.prune && !options.deleting.has(address)) changes.push({ action: 'forget', ...base, ...(alreadyGone ? { gone: true } : {}) });
    else if (!canRemove(current.type, current.spec)) changes.push({ action: 'forget', ...base, undeletable: true });
    else changes.push({ action: 'delete', ...base, ...(alreadyGone ? { gone: true } : {}) });
  };
  for (const [address, current] of Object.entries(recorded)) leftover(address, current, false);
  for (const [address, current] of Object.entries(options.gone)) {
    // Gone from the manifest and from the server: every apply drops it, or plans would repeat it for ever.
    if (!Object.hasOwn(recorded, address)) leftover(address, current, true);
  }
  return changes;
}

/** The entries of `state` that the refresh overlay drops (deleted on the server). */
export function goneFromServer(state: State | null, overlay: RefreshOverlay): Record<string, ResourceState> {
  const gone: Record<string, ResourceState> = {};
  if (!state) return gone;
  for (const [address, entry] of Object.entries(overlay)) {
    const current = state.resources[address];
    if (entry === null && current !== undefined) gone[address] = current;
  }
  return gone;
}

/**
 * The addresses a --target list selects: each target, and every manifest address a selected
 * resource needs (an agent's tools and actions), transitively. A target must be in the manifest or
 * in the state (a state-only address is a forget or a delete); anything else is a usage error.
 */
export function selectTargets(desired: Desired, recorded: readonly string[], targets: readonly string[]): Set<string> {
  const byAddress = new Map(desired.resources.map((r) => [r.address, r]));
  const known = new Set(recorded);
  for (const address of targets) {
    if (parseAddress(address) === undefined) {
      throw new UserError('usage', `--target "${address}" is not an address; addresses look like tool.<name>, agent.<key> or website.<key>`, { address });
    }
    if (!byAddress.has(address) && !known.has(address)) {
      const candidates = [...byAddress.keys(), ...known];
      throw new UserError('usage', `--target ${address}: the manifest and the state have no resource with that address${didYouMean(address, candidates)}`, { address });
    }
  }
  const selected = new Set<string>();
  const queue = [...targets];
  for (let address = queue.pop(); address !== undefined; address = queue.pop()) {
    if (selected.has(address)) continue;
    selected.add(address);
    const resource = byAddress.get(address);
    if (!resource) continue;
    const needs = kindOf(resource.type).needs?.(resource.spec) ?? [];
    for (const needed of needs) if (byAddress.has(needed) && !selected.has(needed)) queue.push(needed);
  }
  return selected;
}

/** The plan with only the selected addresses, and a warning that says so (Terraform's -target warning). */
export function limitToTargets(plan: Plan, selected: ReadonlySet<string>): Plan {
  const changes = plan.changes.filter((c: Change) => selected.has(c.address));
  const listed = [...selected].sort().join(', ');
  const warning = `the plan is limited to --target: ${listed}. Everything else in the manifest and the state is left as it is; run a plan without --target to see it.`;
  return {
    ...plan,
    changes,
    drift: plan.drift.filter((d) => selected.has(d.address)),
    pending: plan.pending.filter((p) => selected.has(p.address)),
    ...(plan.unreadable ? { unreadable: plan.unreadable.filter((u) => selected.has(u.address)) } : {}),
    warnings: [...plan.warnings, warning],
    summary: summarize(changes),
  };
}

/** Whether --prune can delete this entry on the server (a kind may delete only some of its entries). */
function canRemove(type: ResourceType, spec: JsonObject): boolean {
  const removal = kindOf(type).remove;
  return removal !== undefined && (removal.applies?.(spec) ?? true);
}
