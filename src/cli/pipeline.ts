// manifest + state (+ the server) → plan: the stages every planning command shares (plan, apply,
// import, send).
import type { Desired } from '../core/desired.js';
import type { Diagnostic } from '../core/diagnostics.js';
import { memoizeDigest, planChanges } from '../core/diff.js';
import type { Plan } from '../core/plan.js';
import { applyOverlay, refreshState, type RefreshOverlay } from '../core/refresh.js';
import type { State } from '../core/state.js';
import type { ApiClient } from '../io/api/client.js';
import { loadDesired } from '../io/load-manifest.js';
import { digestDesired, type PlanBasis } from '../io/plan-file.js';
import { readServer } from '../io/read-server.js';
import { createDigester, newSalt } from '../io/state/digest.js';
import { chooseStateLocation, createStateStore, type StateStore, type StateTarget } from '../io/state/index.js';
import type { ManifestOptions } from './options.js';
import { printStateWarning } from './render-plan.js';

export interface LoadedManifest {
  desired: Desired;
  warnings: Diagnostic[];
  store: StateStore;
  target: StateTarget;
  /** The manifest file's text: a saved plan's digest of it tells a manifest change from a variable's. */
  text: string;
}

export async function loadManifestAndStore(opts: ManifestOptions): Promise<LoadedManifest> {
  const { desired, warnings, text } = await loadDesired({ file: opts.file, environment: opts.env, env: process.env, mode: 'plan' });
  const { name: environment, appId, region } = desired.environment;
  const { location, key, source } = chooseStateLocation({
    flag: opts.state,
    envUrl: process.env.AGENTSYNC_STATE_URL,
    manifest: desired.state,
    manifestFile: opts.file,
    environment,
  });
  const store = createStateStore(location, { key, source, onWarning: printStateWarning });
  return { desired, warnings, store, target: { environment, appId, region }, text };
}

export interface ComputedPlan {
  plan: Plan;
  /** The salt the plan's digests used: the state's, or a fresh one for the state to come. */
  salt: string;
  /** The state entries the refresh changed; a saved plan carries them so apply sees the same state. */
  overlay: RefreshOverlay;
}

export interface PlanSource {
  /** Reads the server first (CONTRACT §8.2); absent with --offline. */
  client?: ApiClient;
  /** For a state that does not exist yet. */
  saltForNewState?: string;
}

/** Plans against a state (or none), after reading the server when a client is given. */
export async function computePlan(desired: Desired, state: State | null, source: PlanSource = {}): Promise<ComputedPlan> {
  const salt = state?.salt ?? source.saltForNewState ?? newSalt();
  const digest = memoizeDigest(createDigester(salt));
  if (!source.client) return { plan: planChanges({ desired, state, digest }), salt, overlay: {} };
  const snapshot = await readServer(source.client);
  const sensitive = new Map(desired.resources.map((r) => [r.address, r.sensitive]));
  const refreshed = refreshState({ state, snapshot, digest, sensitiveOf: (address) => sensitive.get(address) ?? [] });
  return { plan: planChanges({ desired, state: refreshed.state, digest, refresh: refreshed }), salt, overlay: refreshed.overlay };
}

/** What a saved plan remembers of its refresh, so that applying it needs no second one. */
export interface SavedRefresh {
  refreshed: boolean;
  overlay: RefreshOverlay;
  adopt: Record<string, string>;
}

export function savedRefreshOf(computed: ComputedPlan): SavedRefresh {
  const adopt: Record<string, string> = {};
  for (const change of computed.plan.changes) if (change.action === 'create' && change.adopt) adopt[change.address] = change.adopt.remoteId;
  return { refreshed: computed.plan.refreshed, overlay: computed.overlay, adopt };
}

/** The plan a saved plan file stands for: the same manifest and state, seen through its refresh. */
export function replanSaved(desired: Desired, state: State, saved: SavedRefresh): ComputedPlan {
  const digest = memoizeDigest(createDigester(state.salt));
  const plan = planChanges({ desired, state: applyOverlay(state, saved.overlay), digest, adopt: saved.adopt });
  plan.refreshed = saved.refreshed;
  return { plan, salt: state.salt, overlay: saved.overlay };
}

/**
 * What a saved plan must still match: the state's lineage/serial and a digest of the resolved
 * manifest. Only saving or checking a plan needs it, so plain plans and applies skip the hashing.
 * Without a state the basis carries the salt, so apply can create the state with that same salt.
 */
export function planBasisOf(desired: Desired, state: State | null, salt: string): { basis: PlanBasis; manifestDigest: string } {
  const basis: PlanBasis = state ? { lineage: state.lineage, serial: state.serial } : { lineage: null, serial: 0, salt };
  return { basis, manifestDigest: digestDesired(desired, memoizeDigest(createDigester(salt))) };
}
