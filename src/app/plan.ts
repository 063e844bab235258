// The plan use case: read the state (no lock: a plan changes nothing), read the server unless
// offline, and plan. The CLI (one environment and many) and the programmatic API call it; saving,
// rendering and exit codes stay with the caller.
import type { Desired } from '../core/desired.js';
import type { PlanScope } from '../core/plan-scope.js';
import type { State } from '../core/state.js';
import type { StateStore, StateTarget } from '../io/state/index.js';
import { computePlan, type ComputedPlan } from './compute-plan.js';
import type { Connection } from './connection.js';

export interface PlanRequest {
  desired: Desired;
  store: StateStore;
  target: StateTarget;
  /** Opens the client that reads the server; absent for an offline plan (the state alone). */
  connect?: () => Promise<Connection>;
  /** `--prune` and `--target`. */
  scope?: PlanScope;
}

export interface PlannedEnvironment extends ComputedPlan {
  /** The state the plan was made from (null when there is none yet): a saved plan's basis. */
  state: State | null;
}

export async function planEnvironment(request: PlanRequest): Promise<PlannedEnvironment> {
  const state = await request.store.read(request.target);
  const connection = await request.connect?.();
  try {
    const computed = await computePlan(request.desired, state, { ...(connection ? { client: connection.client } : {}), ...(request.scope ? { scope: request.scope } : {}) });
    return { ...computed, state };
  } finally {
    await connection?.release();
  }
}
