// manifest + state → plan: the stages every planning command shares (plan, apply, send).
import type { Desired } from '../core/desired.js';
import type { Diagnostic } from '../core/diagnostics.js';
import { planChanges } from '../core/diff.js';
import type { Plan } from '../core/plan.js';
import type { State } from '../core/state.js';
import { loadDesired } from '../io/load-manifest.js';
import { digestDesired, type PlanBasis } from '../io/plan-file.js';
import { createDigester, newSalt } from '../io/state/digest.js';
import { createFileStateStore, defaultStatePath, type StateStore, type StateTarget } from '../io/state/index.js';
import type { ManifestOptions } from './options.js';
import { hideInOutput } from './output-filter.js';
import { printStateWarning } from './render-plan.js';

export interface LoadedManifest {
  desired: Desired;
  warnings: Diagnostic[];
  store: StateStore;
  target: StateTarget;
}

export async function loadManifestAndStore(opts: ManifestOptions): Promise<LoadedManifest> {
  const { desired, warnings } = await loadDesired({ file: opts.file, environment: opts.env, env: process.env, mode: 'plan', onSensitiveValues: hideInOutput });
  const statePath = opts.state ?? defaultStatePath(opts.file, desired.environment.name);
  const { name: environment, appId, region } = desired.environment;
  return { desired, warnings, store: createFileStateStore(statePath, { onWarning: printStateWarning }), target: { environment, appId, region } };
}

export interface ComputedPlan {
  plan: Plan;
  /** The salt the plan's digests used: the state's, or a fresh one for the state to come. */
  salt: string;
}

/** Plans against a state (or none). Without a state the digests use a fresh salt. */
export function computePlan(desired: Desired, state: State | null, saltForNewState: string = newSalt()): ComputedPlan {
  const salt = state?.salt ?? saltForNewState;
  return { plan: planChanges({ desired, state, digest: createDigester(salt) }), salt };
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
