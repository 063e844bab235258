// manifest + state → plan: the stages every planning command shares (plan, apply, send).
import type { Desired } from '../core/desired.js';
import type { Diagnostic } from '../core/diagnostics.js';
import { planChanges } from '../core/diff.js';
import type { Plan } from '../core/plan.js';
import type { State } from '../core/state.js';
import { loadDesired } from '../io/load-manifest.js';
import { digestDesired, type PlanBasis } from '../io/plan-file.js';
import { createDigester, newSalt, type Digester } from '../io/state/digest.js';
import { createFileStateStore, defaultStatePath, type StateStore, type StateTarget } from '../io/state/index.js';
import type { ManifestOptions } from './options.js';
import { printStateWarning } from './render-plan.js';

export interface LoadedManifest {
  desired: Desired;
  warnings: Diagnostic[];
  store: StateStore;
  target: StateTarget;
}

export async function loadManifestAndStore(opts: ManifestOptions): Promise<LoadedManifest> {
  const { desired, warnings } = await loadDesired({ file: opts.file, environment: opts.env, env: process.env, mode: 'plan' });
  const statePath = opts.state ?? defaultStatePath(opts.file, desired.environment.name);
  const { name: environment, appId, region } = desired.environment;
  return { desired, warnings, store: createFileStateStore(statePath, { onWarning: printStateWarning }), target: { environment, appId, region } };
}

export interface ComputedPlan {
  plan: Plan;
  digest: Digester;
  basis: PlanBasis;
  manifestDigest: string;
}

/**
 * Plans against a state (or none). Without a state the digests use a fresh salt, which the basis
 * carries so that a saved plan can later create the state with that same salt.
 */
export function computePlan(desired: Desired, state: State | null, saltForNewState: string = newSalt()): ComputedPlan {
  const salt = state?.salt ?? saltForNewState;
  const digest = createDigester(salt);
  const plan = planChanges({ desired, state, digest });
  const basis: PlanBasis = state ? { lineage: state.lineage, serial: state.serial } : { lineage: null, serial: 0, salt };
  return { plan, digest, basis, manifestDigest: digestDesired(desired, digest) };
}
