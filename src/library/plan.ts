// plan() and savePlan(): `agentsync plan` and `agentsync plan --out FILE` as functions, through the
// same use cases as the CLI (app/plan.ts, app/save-plan.ts).
import { UserError } from '../core/errors.js';
import { massRemovalOf, type MassRemoval } from '../core/mass-removal.js';
import { conflictsOf, hasChanges, type Plan } from '../core/plan.js';
import type { PlanScope } from '../core/plan-scope.js';
import { planTarget } from '../core/plan-target.js';
import { lentConnection } from '../app/connection.js';
import { planEnvironment, type PlannedEnvironment } from '../app/plan.js';
import { planFileOf, preparePlanOut, refuseOutOverRunInputs, writeSavedPlan } from '../app/save-plan.js';
import type { ApiClient } from '../io/api/index.js';
import { conflictReason } from '../core/conflict-refusal.js';
import { createClient, cwdOf, envOf, inCall, loadWithStore, manifestOf, type ClientOptions, type LoadOptions, type StateOptions, type VarOptions } from './call.js';
import type { Desired } from '../core/desired.js';
import type { Diagnostic } from '../core/diagnostics.js';
import type { LoadedEnvironment } from '../app/load.js';
import type { VarOverrides } from '../core/var-overrides.js';

export interface Loaded {
  file: string;
  /** The resolved manifest for one environment: what plan compares and apply sends. */
  desired: Desired;
  warnings: Diagnostic[];
}

/** `--prune` and `--target`: what a plan (and so an apply) covers beyond "the manifest against the state". */
export interface ScopeOptions {
  /** Delete from the server what the state holds and the manifest no longer does (agents first, then tools), instead of forgetting it. */
  prune?: boolean;
  /** Plan only these addresses (`tool.<name>`, `agent.<key>`, `website.<key>`) and the tools and actions they need. */
  target?: string | readonly string[];
}

export interface PlanOptions extends LoadOptions, ClientOptions, StateOptions, VarOptions, ScopeOptions {
  /**
   * Read the server before planning (the default), so drift and conflicts show. `false` is
   * `plan --offline`: the state alone, no API key, no network.
   */
  refresh?: boolean;
  /** Read the server through this client instead of one made from the API key. It is not closed. */
  client?: ApiClient;
}

export interface PlanResult extends Loaded {
  plan: Plan;
  /** True when applying would create, update or forget something. */
  hasChanges: boolean;
  /**
   * The plan removes more than half of the resources the state manages (at least 3): what a wrong
   * manifest looks like. `apply` refuses such deletions without `allowMassDelete`. Absent otherwise.
   */
  massRemoval?: MassRemoval;
}

/** The scope a call asks for: each target once. */
export function scopeOf(options: ScopeOptions): PlanScope {
  const targets = typeof options.target === 'string' ? [options.target] : (options.target ?? []);
  return { prune: options.prune === true, targets: [...new Set(targets)] };
}

/** `agentsync plan`: manifest + state (+ the server) → plan. Takes no lock and changes nothing. */
export function plan(options: PlanOptions = {}): Promise<PlanResult> {
  return inCall(options, async () => {
    const { result } = await planLoaded(options);
    return result;
  });
}

export interface SavePlanOptions extends PlanOptions {
  /** The plan file to write (relative to `cwd`), for `applySavedPlan({ planFile })` or `agentsync apply FILE`. */
  out: string;
}

export interface SavedPlanResult extends PlanResult {
  /** The file written, as given. */
  planFile: string;
}

/**
 * `agentsync plan --out FILE`: plans, then saves the plan for `applySavedPlan` (or `agentsync apply
 * FILE`). Refused before anything is read: a target that is not a regular file or a new name, or
 * one that is the manifest, the state or a file beside it (`file_error`). A plan apply would refuse
 * is not saved (`conflict`); a plan that could not read everything is saved, and says so in
 * `plan.unreadable`.
 */
export function savePlan(options: SavePlanOptions): Promise<SavedPlanResult> {
  return inCall(options, async () => {
    const cwd = cwdOf(options);
    const { loaded, planned, result } = await planLoaded(options, async (store) => {
      const out = await preparePlanOut(options.out, cwd);
      if (out.toStdout) throw new UserError('usage', `savePlan writes a file and prints nothing: give a file name as out (got "${options.out}")`);
      await refuseOutOverRunInputs(options.out, { manifest: manifestOf(options), ...(options.varFile === undefined ? {} : { varFile: options.varFile }), stateLocation: store, cwd });
    });
    const conflicts = conflictsOf(result.plan);
    if (conflicts.length > 0) throw new UserError('conflict', `the plan was not saved to ${options.out}: ${conflictReason(conflicts)}`, { file: options.out });
    const planFile = planFileOf(loaded, planned, {
      maskedBaseUrl: planned.plan.target.baseUrl,
      ...(loaded.varOverrides ? { varOverrides: loaded.varOverrides } : {}),
      createdAt: new Date().toISOString(),
    });
    await writeSavedPlan({ path: options.out, toStdout: false }, planFile, cwd);
    return { ...result, planFile: options.out };
  });
}

interface PlannedCall {
  loaded: LoadedEnvironment & { varOverrides?: VarOverrides };
  planned: PlannedEnvironment & { plan: Required<Pick<Plan, 'target'>> };
  result: PlanResult;
}

/** Loads, runs `beforeRead` (a check that refuses before the server is read), and plans. */
async function planLoaded(options: PlanOptions, beforeRead?: (stateLocation: string) => Promise<void>): Promise<PlannedCall> {
  const loaded = await loadWithStore(options);
  const { file, desired, warnings, store, target } = loaded;
  await beforeRead?.(store.location);
  const refresh = options.refresh !== false;
  // As the CLI: the key is checked before the state is read, so a missing one is the error shown.
  const ownClient = refresh && !options.client ? createClient(desired.environment, { ...options, concurrency: options.concurrency ?? 2 }) : undefined;
  try {
    const client = options.client ?? ownClient;
    const computed = await planEnvironment({ desired, store, target, scope: scopeOf(options), ...(refresh && client ? { connect: async () => lentConnection(client) } : {}) });
    const planned = { ...computed, plan: { ...computed.plan, target: planTarget(desired.environment, envOf(options)) } };
    const mass = massRemovalOf(planned.plan);
    const result: PlanResult = { file, desired, warnings, plan: planned.plan, hasChanges: hasChanges(planned.plan), ...(mass ? { massRemoval: mass } : {}) };
    return { loaded, planned, result };
  } finally {
    await ownClient?.close();
  }
}
