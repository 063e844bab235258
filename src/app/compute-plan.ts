// The planning use case every command shares: desired + state (+ the server) → a plan; a saved
// plan's refresh replayed; the basis a saved plan must still match. The first piece of the
// application layer (issue 21): the CLI and the programmatic API (src/index.ts) both call it, and
// it imports nothing from cli/.
import type { Desired } from '../core/desired.js';
import { planChanges } from '../core/diff.js';
import type { Plan } from '../core/plan.js';
import { goneFromServer, NO_SCOPE, selectTargets, type PlanScope } from '../core/plan-scope.js';
import { sensitiveCanonicals } from '../core/redact.js';
import { applyOverlay, refreshState, type RefreshOverlay, type UntrackedIndex } from '../core/refresh.js';
import type { State } from '../core/state.js';
import type { ApiClient } from '../io/api/client.js';
import { digestDesired, type PlanBasis } from '../io/files/plan-file.js';
import { readKinds } from '../io/api/read-server.js';
import { resolveObserved } from '../core/observed.js';
import { createDigester, digestAhead, newSalt } from '../io/state/digest.js';

export interface ComputedPlan {
  plan: Plan;
  /** The salt the plan's digests used: the state's, or a fresh one for the state to come. */
  salt: string;
  /** The state entries the refresh changed; a saved plan carries them so apply sees the same state. */
  overlay: RefreshOverlay;
  scope: PlanScope;
  /** What each kind read resource by resource recorded in the desired specs, by address, for a saved plan (core/observed.ts). */
  matched: Record<string, string>;
  /** The server records no state entry tracks, when the server was read (`diff` compares them across environments). */
  untracked?: UntrackedIndex;
}

export interface PlanSource {
  /** Reads the server first (docs/spec/server.md#refresh); absent with --offline. */
  client?: ApiClient;
  /** For a state that does not exist yet. */
  saltForNewState?: string;
  /** `--prune` and `--target`. */
  scope?: PlanScope;
}

/** Plans against a state (or none), after reading the server when a client is given. */
export async function computePlan(desired: Desired, state: State | null, source: PlanSource = {}): Promise<ComputedPlan> {
  const salt = state?.salt ?? source.saltForNewState ?? newSalt();
  await digestAhead(salt, sensitiveCanonicals(desired.resources));
  const digest = createDigester(salt);
  const scope = source.scope ?? NO_SCOPE;
  // An unknown --target is refused before anything is read from the server.
  if (scope.targets.length > 0) selectTargets(desired, Object.keys(state?.resources ?? {}), scope.targets);
  if (!source.client) {
    const offline = resolveObserved(desired, state);
    return { plan: planChanges({ desired: offline.desired, state, digest, scope }), salt, overlay: {}, scope, matched: offline.recorded };
  }
  // Every kind, the way it is read (docs/spec/server.md#refresh), all at once.
  const read = await readKinds(source.client, state, new Set(desired.resources.map((r) => r.type)));
  const sensitive = new Map(desired.resources.map((r) => [r.address, r.sensitive]));
  const refreshed = refreshState({ state, snapshot: read.snapshot, digest, sensitiveOf: (address) => sensitive.get(address) ?? [] });
  const gone = goneFromServer(state, refreshed.overlay);
  const observed = resolveObserved(desired, refreshed.state, read.seen);
  const refresh = { ...refreshed, warnings: [...refreshed.warnings, ...observed.warnings] };
  const plan = planChanges({ desired: observed.desired, state: refreshed.state, digest, refresh, scope, goneFromServer: gone });
  if (Object.keys(observed.reports).length > 0) plan.reports = observed.reports;
  return { plan, salt, overlay: refreshed.overlay, scope, matched: observed.recorded, untracked: refreshed.untracked };
}

/** What a saved plan remembers of its refresh, so that applying it needs no second one. */
export interface SavedRefresh {
  refreshed: boolean;
  overlay: RefreshOverlay;
  adopt: Record<string, string>;
  /** Absent in plans made before --prune and --target existed: neither. */
  scope?: PlanScope;
  /** What the kinds read resource by resource recorded, as the plan saw it; absent in older plans. */
  matched?: Record<string, string>;
}

export function savedRefreshOf(computed: ComputedPlan): SavedRefresh {
  const adopt: Record<string, string> = {};
  for (const change of computed.plan.changes) if (change.action === 'create' && change.adopt) adopt[change.address] = change.adopt.remoteId;
  const { prune, targets } = computed.scope;
  return { refreshed: computed.plan.refreshed, overlay: computed.overlay, adopt, scope: { prune, targets: [...targets] }, matched: computed.matched };
}

/** The plan a saved plan file stands for: the same manifest and state, seen through its refresh. */
export function replanSaved(desired: Desired, state: State, saved: SavedRefresh): ComputedPlan {
  const digest = createDigester(state.salt);
  const scope = saved.scope ?? NO_SCOPE;
  const gone = goneFromServer(state, saved.overlay);
  const seen = applyOverlay(state, saved.overlay);
  const observed = resolveObserved(desired, seen, undefined, saved.matched);
  const plan = planChanges({ desired: observed.desired, state: seen, digest, adopt: saved.adopt, scope, goneFromServer: gone });
  plan.refreshed = saved.refreshed;
  return { plan, salt: state.salt, overlay: saved.overlay, scope, matched: observed.recorded };
}

/**
 * What a saved plan must still match: the state's lineage/serial and a digest of the resolved
 * manifest. Only saving or checking a plan needs it, so plain plans and applies skip the hashing.
 * Without a state the basis carries the salt, so apply can create the state with that same salt.
 */
export function planBasisOf(desired: Desired, state: State | null, salt: string): { basis: PlanBasis; manifestDigest: string } {
  const basis: PlanBasis = state ? { lineage: state.lineage, serial: state.serial } : { lineage: null, serial: 0, salt };
  return { basis, manifestDigest: digestDesired(desired, createDigester(salt)) };
}
