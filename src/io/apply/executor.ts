// Carries out a plan: the I/O twin of core/diff.ts, in phases. Renames and forgets first (no
// call), then the creates and updates: tools first (agents reference them), websites alongside,
// agents once every tool change is done (execute-call.ts sends each one); then `--prune`'s deletes
// (execute-delete.ts: agents before tools); then the summary, and `notify` last. Up to
// `concurrency` calls run at once. Each success is journaled the moment it returns, without
// holding up the next call: its write may share an fsync with others (group commit), it is
// reported only once durable, and nothing that depends on it (an agent on its tools) starts
// before that.
// After the first failure no new call starts, the ones in flight finish, and the result says what
// was done, what failed and what was never attempted. What happened is written in one ledger
// (ledger.ts) that every phase reports to and the summary reads.
import type { Desired } from '../../core/desired.js';
import { referenceIds } from '../../core/address-references.js';
import { replacementAddressOf } from '../../core/kinds/kind.js';
import { kindFor, kindOf, newRunMemory, type ResourceType } from '../../core/kinds/index.js';
import type { State } from '../../core/state.js';
import type { DeleteChange, ForgetChange, Plan } from '../../core/plan.js';
import type { StateSession } from '../state/store.js';
import type { ApiClient } from '../api/client.js';
import type { ApplyCounts, ApplyEvent, ApplyResult, DoneItem, NotAttemptedItem, NotifyOutcome } from '../../core/apply-types.js';
import { createPendingAdopter } from './execute-adopt.js';
import { runOne, type CallableChange, type CallRunContext, type Task, type TaskOutcome } from './execute-call.js';
import { executeDeletes } from './execute-delete.js';
import { sendNotify } from './execute-notify.js';
import { PendingMarksAhead, type MarkTarget } from './execute-marks.js';
import { ApplyLedger } from './ledger.js';
import { dependenciesFirst, emptyQueues, runScheduled, type Queues, type Trailing } from './schedule.js';

/** Even a serial apply marks creates ahead in batches (16 per fsync); a killed run leaves at most this many marks unsent. */
const MIN_MARKS_AHEAD = 32;

export interface ExecuteInput {
  plan: Plan;
  /** The unredacted resources: bodies are built from these, never from the (redacted) plan. */
  desired: Desired;
  session: StateSession;
  client: ApiClient;
  concurrency: number;
  onEvent?: (event: ApplyEvent) => void;
  /** Wall clock for `appliedAt` and `since`; injectable for tests. */
  now?: () => Date;
  /** Aborted when the run is asked to stop (SIGINT/SIGTERM): no new call starts, and notify is not sent. */
  stop?: AbortSignal;
  /** Aborted when calls still in flight must be abandoned (the stop's grace period ran out). */
  cancel?: AbortSignal;
}

/** The plan's changes, sorted into the phases that carry them out. */
interface Work {
  forgets: ForgetChange[];
  /** Creates and updates, one queue per kind, in the order the scheduler takes them. */
  queues: Queues<Task>;
  tasks: Task[];
  deletes: DeleteChange[];
}

export async function executePlan(input: ExecuteInput): Promise<ApplyResult> {
  const { plan, session } = input;
  const run: PhaseContext = { ...input, emit: input.onEvent ?? (() => {}), now: input.now ?? (() => new Date()) };
  const startedAt = { serial: session.state.serial, lineage: session.state.lineage };
  const work = sortChanges(plan, input.desired);
  const ledger = new ApplyLedger(run.emit);
  await applyMovesAndForgets(plan, work.forgets, run, ledger);
  const callsInterrupted = await runCalls(work.queues, run, ledger);
  const { deletable, interrupted: deletesInterrupted } = await runDeletes(work.deletes, run, ledger);
  const interrupted = callsInterrupted || deletesInterrupted;
  const summary = summarise(plan, work, ledger, { interrupted, deletable });
  const notify = await sendNotify(input, { ...summary, interrupted, done: ledger.done, ...startedAt });
  return resultOf(plan, work, ledger, summary, notify, interrupted);
}

interface PhaseContext extends ExecuteInput {
  now: () => Date;
  emit: (event: ApplyEvent) => void;
}

function sortChanges(plan: Plan, desired: Desired): Work {
  const byAddress = new Map(desired.resources.map((r) => [r.address, r]));
  const work: Work & { queues: Record<ResourceType, Task[]> } = { forgets: [], queues: emptyQueues<Task>(), tasks: [], deletes: [] };
  for (const change of plan.changes) {
    if (change.action === 'no-op') continue;
    if (change.action === 'forget') work.forgets.push(change);
    else if (change.action === 'delete') work.deletes.push(change);
    else {
      const resource = byAddress.get(change.address);
      if (!resource) throw new Error(`plan names ${change.address}, which the manifest does not define`);
      work.queues[change.type].push({ change, resource });
      work.tasks.push({ change, resource });
    }
  }
  return work;
}

async function applyMovesAndForgets(plan: Plan, forgets: readonly ForgetChange[], run: PhaseContext, ledger: ApplyLedger): Promise<void> {
  // Renames (`moved:`) come first and need no call: the state entry takes its new address, so the
  // changes planned for that address find it there.
  for (const move of plan.moves ?? []) await run.session.record({ op: 'moved', from: move.from, to: move.to });

  // Forgets need no call: the resource stays on the server and only leaves the state.
  for (const change of forgets) {
    run.emit({ kind: 'start', address: change.address, type: change.type, action: 'forget' });
    await run.session.record({ op: 'forgotten', address: change.address });
    ledger.recordDone({ address: change.address, type: change.type, action: 'forget', remoteId: change.remoteId, ms: 0, retries: 0, ...(change.gone === true ? { gone: true } : {}) });
  }
}

/** The creates and updates, scheduled; resolves to whether the run was asked to stop meanwhile. */
async function runCalls(queues: Queues<Task>, input: PhaseContext, ledger: ApplyLedger): Promise<boolean> {
  const { session } = input;
  const concurrency = Math.max(1, input.concurrency);
  const marks = new PendingMarksAhead(session, marksAheadFor(queues), Math.max(2 * concurrency, MIN_MARKS_AHEAD), input.now);
  // Made after the moves and forgets: what the state holds now is what an adoption may not take.
  const run: CallRunContext = {
    ...input,
    adopter: createPendingAdopter(input.client, session.state),
    memory: newRunMemory(),
    marks,
    taken: takenIdsOf(session.state),
    references: referenceIds(session.state),
  };
  await runScheduled(
    queues,
    concurrency,
    () => ledger.stopped || input.stop?.aborted === true,
    dependenciesFirst,
    (task) => runTask(task, run, ledger),
  );
  const interrupted = input.stop?.aborted === true;
  await ledger.durable();
  // With a broken journal there is nothing to clear into: the marks stay, which is safe.
  if (ledger.recordFailure === undefined) await marks.clearUnsent();
  return interrupted;
}

async function runTask(task: Task, run: CallRunContext, ledger: ApplyLedger): Promise<Trailing | void> {
  const needed = ledger.failedAmong(kindFor(task.resource).needs?.(task.resource.spec) ?? []);
  if (needed !== undefined) {
    ledger.block(task.change, needed);
    return;
  }
  let outcome: TaskOutcome;
  try {
    outcome = await runOne(task, run);
  } catch (err) {
    // Not an API answer (a journal write failed, say): stop starting work; a bug still throws.
    ledger.journalFailed(err);
    return;
  }
  if (!outcome.ok) {
    // One failed call stops only what needs it (docs/spec/plan-and-apply.md#results-and-partial-failures); unrelated work goes on.
    ledger.recordFailed(outcome.item);
    return;
  }
  return { after: ledger.recordWhenDurable(outcome.item, outcome.recording) };
}

/**
 * The `--prune` deletes that may run, run. Resolves to those (the others are reported as not
 * attempted), and to whether a stop cut the phase short.
 */
async function runDeletes(deletes: readonly DeleteChange[], input: PhaseContext, ledger: ApplyLedger): Promise<{ deletable: ReadonlySet<DeleteChange>; interrupted: boolean }> {
  // Deletes come last: an agent the plan updates may stop using a tool only now being deleted. So
  // a kind others depend on is not deleted when a change of a dependant kind failed.
  const failedTypes = ledger.failedTypes();
  // A superseded resource keeps serving while its replacement's change failed in this run.
  const deletable = deletes.filter((change) => ![...failedTypes].some((type) => kindOf(type).dependsOn.includes(change.type)) && !ledger.hasFailed(replacementAddressOf(change.address) ?? ''));
  // A stop (SIGINT, SIGTERM) holds back the deletes too: no call starts after it (docs/spec/plan-and-apply.md#stopping-an-apply).
  const stopped = (): boolean => ledger.stopped || input.stop?.aborted === true;
  if (deletable.length === 0 || stopped()) return { deletable: new Set(deletable), interrupted: false };
  ledger.recordDeletes(await executeDeletes(deletable, { ...input, stopped, stop: () => ledger.stop() }));
  return { deletable: new Set(deletable), interrupted: input.stop?.aborted === true };
}

interface Summary {
  ok: boolean;
  counts: ApplyCounts;
  notAttempted: NotAttemptedItem[];
}

function summarise(plan: Plan, work: Work, ledger: ApplyLedger, how: { interrupted: boolean; deletable: ReadonlySet<DeleteChange> }): Summary {
  const attempted = ledger.attempted();
  const notAttempted: NotAttemptedItem[] = [
    ...ledger.blocked,
    ...[...work.tasks.map((t) => t.change), ...work.deletes]
      .filter((change) => !attempted.has(change.address))
      .map((change) => ({ address: change.address, type: change.type, action: change.action, reason: notAttemptedReason(change, how.interrupted, how.deletable.has(change as DeleteChange)) })),
  ];
  const ok = ledger.failed.length === 0 && notAttempted.length === 0 && ledger.recordFailure === undefined && (plan.unreadable ?? []).length === 0;
  return { ok, counts: countDone(ledger.done), notAttempted };
}

function resultOf(plan: Plan, work: Work, ledger: ApplyLedger, summary: Summary, notify: NotifyOutcome, interrupted: boolean): ApplyResult {
  const moved = (plan.moves ?? []).map(({ from, to }) => ({ from, to }));
  const unreadable = plan.unreadable ?? [];
  return {
    environment: plan.environment,
    prune: plan.prune,
    ok: summary.ok,
    counts: summary.counts,
    done: ledger.done,
    failed: ledger.failed,
    notAttempted: summary.notAttempted,
    notify,
    total: work.forgets.length + work.tasks.length + work.deletes.length,
    ...(interrupted ? { interrupted } : {}),
    ...(moved.length > 0 ? { moved } : {}),
    ...(unreadable.length > 0 ? { unreadable: unreadable.map((entry) => ({ ...entry })) } : {}),
    ...(ledger.recordFailure === undefined ? {} : { unrecorded: { items: ledger.unrecorded, reason: ledger.recordFailure } }),
  };
}

function notAttemptedReason(change: CallableChange | DeleteChange, interrupted: boolean, deletable: boolean): string {
  if (interrupted) return 'the apply was interrupted';
  if (change.action === 'delete' && !deletable) {
    return replacementAddressOf(change.address) === undefined ? 'a change of something that may still use it failed' : 'the change of what replaces it failed; it keeps serving until that is done';
  }
  return 'the apply stopped after a failure';
}

/** Each kind's remote ids in the state, computed once per kind on first use. */
function takenIdsOf(state: State): (type: ResourceType) => ReadonlySet<string> {
  const byType = new Map<ResourceType, Set<string>>();
  return (type) => {
    let ids = byType.get(type);
    if (ids === undefined) {
      ids = new Set(Object.values(state.resources).flatMap((entry) => (entry.type === type ? [entry.remoteId] : [])));
      byType.set(type, ids);
    }
    return ids;
  };
}

/** Creates marked pending ahead of their call (execute-marks.ts): repeatable ones of kinds the server can be searched for. */
function marksAheadFor(queues: Queues<Task>): MarkTarget[] {
  return Object.values(queues)
    .flat()
    .filter(({ change, resource }) => {
      const kind = kindFor(resource);
      return change.action === 'create' && change.adopt === undefined && kind.createIsRepeatable && kind.identityOf !== undefined;
    })
    .map(({ change }) => ({ address: change.address, type: change.type }));
}

function countDone(done: readonly DoneItem[]): ApplyCounts {
  const counts: ApplyCounts = { created: 0, updated: 0, deleted: 0, forgotten: 0 };
  const counter = { create: 'created', update: 'updated', delete: 'deleted', forget: 'forgotten' } as const;
  for (const item of done) {
    // An adopted create made nothing: it took over what an interrupted earlier apply had made.
    if (item.action === 'create' && item.adopted === true) counts.adopted = (counts.adopted ?? 0) + 1;
    else if (item.replaced === true) counts.replaced = (counts.replaced ?? 0) + 1;
    else counts[counter[item.action]]++;
  }
  return counts;
}
