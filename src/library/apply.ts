// apply() and applySavedPlan(): the apply use case (app/apply.ts) as the CLI runs it, minus the
// terminal: no question unless `confirm` is given, progress through `onEvent`, a refusal or a
// failure as a typed exception.
import type { ApplyEvent, ApplyResult } from '../core/apply-types.js';
import { UserError, type ErrorCode } from '../core/errors.js';
import { hasChanges, type Plan } from '../core/plan.js';
import type { State } from '../core/state.js';
import { applyPlan } from '../app/apply.js';
import { applyVerdict } from '../app/apply-verdict.js';
import { computePlan, type ComputedPlan } from '../app/compute-plan.js';
import { lentConnection, ownConnection } from '../app/connection.js';
import type { LoadedEnvironment } from '../app/load.js';
import { prepareSavedApply, readSavedPlan } from '../app/apply-saved.js';
import type { ApiClient } from '../io/api/index.js';
import { createClient, cwdOf, envOf, inCall, loadWithStore, type ClientOptions, type LoadOptions, type StateOptions, type VarOptions } from './call.js';
import { scopeOf, type ScopeOptions } from './plan.js';
import { planTarget as maskedTarget } from '../core/plan-target.js';

export interface ApplyOptions extends LoadOptions, ClientOptions, StateOptions, VarOptions, ScopeOptions {
  /** Read the server and call it through this client instead of one made from the API key. It is not closed. */
  client?: ApiClient;
  /** Wait this long for a state lock held by another run. Default 0: refuse at once. */
  lockTimeoutMs?: number;
  /**
   * Sees the plan computed under the state lock, before any call; return false to stop
   * (a `UserError` with code `refused`). Leave it out to apply without asking.
   */
  confirm?: (plan: Plan) => boolean | Promise<boolean>;
  /**
   * Apply a plan that deletes more than half of the resources the state manages (at least 3) on
   * the server. Without it such a plan is refused (a `UserError` with code `refused`), whatever
   * `confirm` says: it is what a wrong manifest looks like (docs/spec/plan-and-apply.md#mass-deletion).
   */
  allowMassDelete?: boolean;
  /** Progress: each change as it starts, retries, is done or fails. */
  onEvent?: (event: ApplyEvent) => void;
}

export interface ApplyOutcome {
  file: string;
  desired: LoadedEnvironment['desired'];
  warnings: LoadedEnvironment['warnings'];
  plan: Plan;
  hasChanges: boolean;
  result: ApplyResult;
}

/** A change failed (`apply_failed`), or everything applied but the notify message failed (`api_error`). What succeeded is in `result` and in the state. */
export class ApplyFailedError extends UserError {
  constructor(
    code: Extract<ErrorCode, 'apply_failed' | 'api_error'>,
    message: string,
    readonly result: ApplyResult,
  ) {
    super(code, message);
  }
}

/**
 * `agentsync apply --auto-approve` (or with `confirm`): plan under the state lock, then execute it,
 * through the same use case as the CLI. With `prune`, a plan that deletes most of what the state
 * manages is refused unless `allowMassDelete` is given.
 */
export function apply(options: ApplyOptions = {}): Promise<ApplyOutcome> {
  return inCall(options, async () => {
    const loaded = await loadWithStore(options);
    const scope = scopeOf(options);
    return applyLoaded(loaded, options, async (state, reader) => computePlan(loaded.desired, state, { client: reader, scope }));
  });
}

export interface ApplySavedPlanOptions extends Omit<ApplyOptions, keyof ScopeOptions> {
  /** The file `savePlan({ out })` or `agentsync plan --out FILE` wrote. Its `vars` and `varFile` must be those it was made with. */
  planFile: string;
}

/**
 * `agentsync apply PLANFILE`: carries out exactly the plan the file shows, or refuses
 * (`plan_stale` when the manifest or the state changed since, `plan_invalid` when the file does not
 * match what it would do, `conflict` when it holds a plan apply refuses). The server is not read
 * again: the file's refresh stands, as in Terraform.
 */
export function applySavedPlan(options: ApplySavedPlanOptions): Promise<ApplyOutcome> {
  return inCall(options, async () => {
    const saved = await readSavedPlan(options.planFile, cwdOf(options));
    const environment = options.environment ?? saved.environment;
    const loaded = await loadWithStore({ ...options, ...(environment === undefined ? {} : { environment }) });
    const replay = await prepareSavedApply(loaded, saved, {
      maskedBaseUrl: maskedTarget(loaded.desired.environment, envOf(options)).baseUrl,
      ...(loaded.varOverrides ? { varOverrides: loaded.varOverrides } : {}),
      // A caller without types may still pass them; they would be ignored, so they are refused.
      scope: scopeOf(options as ScopeOptions),
      scopeRefusal: `prune and target belong to the plan: save it with them (\`savePlan({ prune, target, out })\`), then apply ${options.planFile} without them`,
    });
    return applyLoaded(loaded, { ...options, ...(replay.salt ? { salt: replay.salt } : {}) }, async (state) => replay.plan(state));
  });
}

async function applyLoaded(
  loaded: LoadedEnvironment & { file: string },
  options: ApplyOptions & { salt?: string },
  plan: (state: State, reader: ApiClient) => Promise<ComputedPlan>,
): Promise<ApplyOutcome> {
  // The key is checked before the lock is taken, so a missing key refuses without touching the state.
  const given = options.client;
  const client = given ?? createClient(loaded.desired.environment, options);
  let connected = false;
  try {
    const outcome = await applyPlan({
      desired: loaded.desired,
      store: loaded.store,
      target: loaded.target,
      lockTimeoutMs: options.lockTimeoutMs ?? 0,
      ...(options.salt ? { salt: options.salt } : {}),
      connect: async () => {
        connected = true;
        return given ? lentConnection(given) : ownConnection(Promise.resolve(client));
      },
      plan: async (state, reader) => {
        const computed = await plan(state, reader);
        computed.plan.target = maskedTarget(loaded.desired.environment, envOf(options));
        return computed;
      },
      concurrency: options.concurrency ?? 10,
      allowMassDelete: options.allowMassDelete === true,
      massDeleteFlag: 'allowMassDelete: true',
      ...(options.confirm ? { approve: options.confirm } : {}),
      ...(options.onEvent ? { startExecution: () => ({ onEvent: options.onEvent }) } : {}),
    });
    if (outcome.kind === 'cancelled') throw new UserError('refused', 'apply cancelled; nothing was changed');
    const planned = { file: loaded.file, desired: loaded.desired, warnings: loaded.warnings, plan: outcome.plan, hasChanges: hasChanges(outcome.plan) };
    const verdict = applyVerdict(outcome.result);
    if (verdict !== undefined) throw new ApplyFailedError(verdict.code, verdict.message, outcome.result);
    return { ...planned, result: outcome.result };
  } finally {
    // Once connected, the use case lets go of the client; before that (the lock was refused), this does.
    if (!connected && !given) await client.close();
  }
}
