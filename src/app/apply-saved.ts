// The apply-saved use case (`agentsync apply FILE`, the library's applySavedPlan): the file read,
// the environment it names when none was chosen, its staleness checked before the lock, and the
// plan it stands for replayed under the lock (app/saved-plan.ts). The caller passes the result to
// applyPlan (app/apply.ts) with its own hooks.
import { UserError } from '../core/errors.js';
import type { PlanScope } from '../core/plan-scope.js';
import type { State } from '../core/state.js';
import type { VarOverrides } from '../core/var-overrides.js';
import { readPlanFile, type PlanFile } from '../io/files/plan-file.js';
import type { ComputedPlan } from './compute-plan.js';
import type { LoadedEnvironment } from './load.js';
import { assertSavedPlanCurrent, planFromSavedFile } from './saved-plan.js';

export interface SavedPlan {
  path: string;
  file: PlanFile;
  /** The environment the plan was made for, used when the caller names none. */
  environment?: string;
}

export async function readSavedPlan(path: string, cwd?: string): Promise<SavedPlan> {
  const file = await readPlanFile(path, cwd);
  return { path, file, ...(typeof file.environment === 'string' ? { environment: file.environment } : {}) };
}

/** What applyPlan needs to replay a saved plan: the salt of its state to come, and its plan under the lock. */
export interface SavedApply {
  salt?: string;
  plan: (state: State) => ComputedPlan;
}

export interface SavedApplyRequest {
  /** The plan's target as plans name it (core/plan-target.ts). */
  maskedBaseUrl: string;
  /** `--var` / `--var-file`: the plan records a digest of them, so they must be the same as when it was made. */
  varOverrides?: VarOverrides;
  /** A scope asked for now; a saved plan carries its own, so any is refused, not ignored. */
  scope?: PlanScope;
  /** How the caller names prune and target, for that refusal. */
  scopeRefusal?: string;
}

/** Refuses, before the lock, a file made from another manifest, state, target or variables. */
export async function prepareSavedApply(loaded: LoadedEnvironment, saved: SavedPlan, request: SavedApplyRequest): Promise<SavedApply> {
  if (request.scope && (request.scope.prune || request.scope.targets.length > 0)) {
    throw new UserError('usage', request.scopeRefusal ?? `prune and target belong to the plan: save it with them, then apply ${saved.path} without them`);
  }
  await assertSavedPlanCurrent(loaded, saved.file, saved.path, request.maskedBaseUrl, request.varOverrides);
  const salt = saved.file.savedPlan.basis.salt;
  return { ...(salt ? { salt } : {}), plan: (state) => planFromSavedFile(loaded, state, saved.file, saved.path) };
}
