// The apply use case, the one function that runs an apply: lock the state, connect, plan under the
// lock, show and approve, record what the refresh learned, execute, write the state, unlock. The
// CLI (one environment and many) and the programmatic API all call it and differ only in what
// they plug into its seams: how the plan is shown, how it is approved, how progress is drawn and
// how the run is stopped. So an apply from the library leaves exactly the state the CLI would.
import type { ApplyEvent, ApplyResult } from '../core/apply-types.js';
import { conflictRefusal } from '../core/conflict-refusal.js';
import type { Desired } from '../core/desired.js';
import { isUserError } from '../core/errors.js';
import { isMassDeletion, massDeletionRefusal, massRemovalOf } from '../core/mass-removal.js';
import { hasChanges, type Plan } from '../core/plan.js';
import type { State } from '../core/state.js';
import type { ApiClient } from '../io/api/client.js';
import { executePlan } from '../io/apply/executor.js';
import type { StateSession, StateStore, StateTarget } from '../io/state/index.js';
import type { ComputedPlan } from './compute-plan.js';
import type { Connection } from './connection.js';

/** What a run is asked to do. Everything that can refuse without a lock (the key, a stale plan file) is checked by the caller first. */
export interface ApplyRequest {
  desired: Desired;
  store: StateStore;
  target: StateTarget;
  lockTimeoutMs: number;
  /** The salt for a state that does not exist yet: a saved plan's, so its digests still match. */
  salt?: string;
  /** Opens the API client once the lock is held. */
  connect: () => Promise<Connection>;
  /** Plans under the lock: refresh and plan, or a saved plan replayed. */
  plan: (state: State, client: ApiClient) => Promise<ComputedPlan>;
  /** Calls in flight at most. */
  concurrency: number;
  /** Shows the plan, before its conflicts are refused (so the refusal has its context). */
  onPlanned?: (plan: Plan) => void;
  /**
   * A plan that deletes most of what the state manages on the server (core/mass-removal.ts) is
   * refused unless this is true: a flag, or a question that named the count.
   */
  allowMassDelete: boolean;
  /** How the caller allows it, for the refusal: `--allow-mass-delete`, or the library's option. */
  massDeleteFlag: string;
  /** Asked once the plan has changes and no conflict; false cancels. Absent: approved. */
  approve?: (plan: Plan) => boolean | Promise<boolean>;
  /** Runs each phase: the many-environments runner takes one of its `--parallel` places here. */
  phase?: <T>(name: 'plan' | 'execute', task: () => Promise<T>) => Promise<T>;
  /** Called as execution starts (after approval): the CLI's graceful-stop phase and progress. */
  startExecution?: (plan: Plan) => ExecutionWatch;
  /** Ask the executor to stop taking new tasks (first Ctrl-C), or to abandon calls in flight (second). */
  stop?: AbortSignal;
  cancel?: AbortSignal;
}

export interface ExecutionWatch {
  onEvent?: (event: ApplyEvent) => void;
  finish?: () => void;
}

export type ApplyOutcome = { kind: 'no-changes'; plan: Plan; result: ApplyResult } | { kind: 'cancelled'; plan: Plan } | { kind: 'applied'; plan: Plan; result: ApplyResult };

export async function applyPlan(request: ApplyRequest): Promise<ApplyOutcome> {
  const phase = request.phase ?? ((_name, task) => task());
  let session: StateSession | undefined;
  let connection: Connection | undefined;
  let failure: unknown;
  let stateFailed = false;
  try {
    const computed = await phase('plan', async () => {
      session = await request.store.open(request.target, { lockTimeoutMs: request.lockTimeoutMs, ...(request.salt ? { salt: request.salt } : {}) });
      connection = await request.connect();
      return request.plan(session.state, connection.client);
    });
    const { plan } = computed;
    const held = session!;
    request.onPlanned?.(plan);
    // docs/spec/server.md#no-silent-duplicates: nothing is sent while a create would make a second copy of something on the server.
    const refusal = conflictRefusal(plan);
    if (refusal !== undefined) throw refusal;
    const mass = massRemovalOf(plan);
    if (!request.allowMassDelete && isMassDeletion(mass)) throw massDeletionRefusal(mass, plan.environment, request.massDeleteFlag);
    // A resource that could not be read is not "no changes": the run goes on, so its result says so.
    if (!hasChanges(plan) && !plan.unreadable?.length) {
      await recordRefresh(held, computed);
      return { kind: 'no-changes', plan, result: nothingToDo(plan) };
    }
    if (request.approve && !(await request.approve(plan))) return { kind: 'cancelled', plan };
    const client = connection!.client;
    const result = await phase('execute', async () => {
      const watch = request.startExecution?.(plan) ?? {};
      await recordRefresh(held, computed);
      try {
        return await executePlan({
          plan,
          desired: request.desired,
          session: held,
          client,
          concurrency: request.concurrency,
          ...(watch.onEvent ? { onEvent: watch.onEvent } : {}),
          ...(request.stop ? { stop: request.stop } : {}),
          ...(request.cancel ? { cancel: request.cancel } : {}),
        });
      } finally {
        watch.finish?.();
      }
    });
    if (!result.unrecorded) {
      const stateNotWritten = await commitForSummary(held);
      if (stateNotWritten !== undefined) result.stateNotWritten = stateNotWritten;
    }
    // The result already says the state could not be written; closing will fail the same way.
    if (result.unrecorded || result.stateNotWritten !== undefined) stateFailed = true;
    return { kind: 'applied', plan, result };
  } catch (err) {
    failure = err;
    throw err;
  } finally {
    await connection?.release();
    // The lock is released either way. When the run already failed (a full disk, say), the
    // state's last write failing again is that same failure, and must not hide its summary.
    await session?.close().catch((err: unknown) => {
      if (failure === undefined && !stateFailed) throw err;
    });
  }
}

/**
 * What the refresh learned about resources the plan leaves alone (they drifted, but to what the
 * manifest asks for) is kept, as Terraform keeps its refreshed state: otherwise the same drift
 * would be reported on every run. Changed and re-created resources get their record from the call.
 */
async function recordRefresh(session: StateSession, computed: ComputedPlan): Promise<void> {
  for (const change of computed.plan.changes) {
    if (change.action !== 'no-op') continue;
    const refreshed = computed.overlay[change.address];
    if (refreshed) await session.record({ op: 'applied', address: change.address, type: refreshed.type, remoteId: refreshed.remoteId, spec: refreshed.spec, appliedAt: refreshed.appliedAt });
  }
}

/** Writes the journal's results into the state now, so the summary can say whether that worked. */
async function commitForSummary(session: StateSession): Promise<string | undefined> {
  try {
    await session.commit();
    return undefined;
  } catch (err) {
    if (!isUserError(err)) throw err;
    return err.message;
  }
}

/** The result of an apply with nothing to do: the same shape as any other, so callers need no special case. */
function nothingToDo(plan: Pick<Plan, 'environment' | 'prune'>): ApplyResult {
  return {
    environment: plan.environment,
    ok: true,
    prune: plan.prune,
    counts: { created: 0, updated: 0, deleted: 0, forgotten: 0 },
    done: [],
    failed: [],
    notAttempted: [],
    notify: { status: 'skipped', reason: 'nothing-changed' },
    total: 0,
  };
}
