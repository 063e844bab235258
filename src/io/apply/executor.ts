// Carries out a plan: the I/O twin of core/diff.ts. Tools first (agents reference them), websites
// alongside, agents once every tool change is done, then `--prune`'s deletes (execute-delete.ts:
// agents before tools), `notify` last. Up to `concurrency` calls run at once. Each success is
// journaled the moment it returns, without holding up the next call: its write may share an fsync
// with others (group commit), it is reported only once durable, and nothing that depends on it (an
// agent on its tools) starts before that.
// After the first failure no new call starts, the ones in flight finish, and the result says what
// was done, what failed and what was never attempted.
import { canonicalJson } from '../../core/canonical.js';
import type { Desired, DesiredResource } from '../../core/desired.js';
import { isUserError } from '../../core/errors.js';
import { jsonEqual } from '../../core/json-equal.js';
import { changedFieldsOf } from '../../core/kinds/fields.js';
import { PartlyDone, replacementAddressOf, supersededAddress, type CallOutcome, type ReplacementSteps, type UnrepeatableStep } from '../../core/kinds/kind.js';
import { kindFor, kindOf, newRunMemory, type ResourceType, type RunMemory } from '../../core/kinds/index.js';
import type { State } from '../../core/state.js';
import type { Change, CreateChange, DeleteChange, ForgetChange, Plan, UpdateChange } from '../../core/plan.js';
import type { StateSession } from '../state/store.js';
import type { ApiClient } from '../api/client.js';
import type { RetryInfo } from '../api/send-request.js';
import { failureOf } from './apply-failure.js';
import type { ApplyCounts, ApplyEvent, ApplyResult, DoneItem, FailedItem, NotAttemptedItem, NotifyOutcome } from '../../core/apply-types.js';
import { createPendingAdopter, type PendingAdopter } from './execute-adopt.js';
import { executeDeletes } from './execute-delete.js';
import { notifyBody, notifyMuid, notifyText } from './execute-notify.js';
import { PendingMarksAhead, type MarkTarget } from './execute-marks.js';
import { dependenciesFirst, emptyQueues, runScheduled, type Trailing } from './schedule.js';
import { trackedWire } from '../api/wire.js';
import { appendAll } from '../../core/arrays.js';

type CallableChange = CreateChange | UpdateChange;

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

interface Task {
  change: CallableChange;
  resource: DesiredResource;
}

export async function executePlan(input: ExecuteInput): Promise<ApplyResult> {
  const { plan, desired, session } = input;
  const emit = input.onEvent ?? (() => {});
  const now = input.now ?? (() => new Date());
  const startSerial = session.state.serial;
  const lineage = session.state.lineage;
  const byAddress = new Map(desired.resources.map((r) => [r.address, r]));

  const done: DoneItem[] = [];
  const failed: FailedItem[] = [];
  const forgets: ForgetChange[] = [];
  const deletes: DeleteChange[] = [];
  const queues = emptyQueues<Task>();
  const tasks: Task[] = [];
  for (const change of plan.changes) {
    if (change.action === 'no-op') continue;
    if (change.action === 'forget') forgets.push(change);
    else if (change.action === 'delete') deletes.push(change);
    else {
      const resource = byAddress.get(change.address);
      if (!resource) throw new Error(`plan names ${change.address}, which the manifest does not define`);
      queues[change.type].push({ change, resource });
      tasks.push({ change, resource });
    }
  }
  const total = forgets.length + tasks.length + deletes.length;
  const concurrency = Math.max(1, input.concurrency);
  const marks = new PendingMarksAhead(session, marksAheadFor(queues), Math.max(2 * concurrency, MIN_MARKS_AHEAD), now);

  // Renames (`moved:`) come first and need no call: the state entry takes its new address, so the
  // changes planned for that address find it there.
  for (const move of plan.moves ?? []) await session.record({ op: 'moved', from: move.from, to: move.to });

  // Forgets need no call: the resource stays on the server and only leaves the state.
  for (const change of forgets) {
    emit({ kind: 'start', address: change.address, type: change.type, action: 'forget' });
    await session.record({ op: 'forgotten', address: change.address });
    const item: DoneItem = { address: change.address, type: change.type, action: 'forget', remoteId: change.remoteId, ms: 0, retries: 0, ...(change.gone === true ? { gone: true } : {}) };
    done.push(item);
    emit({ kind: 'done', ...item });
  }

  let stopped = false;
  const adopter = createPendingAdopter(input.client, session.state);
  const memory: RunMemory = newRunMemory();
  const taken = takenIdsOf(session.state);
  // Results are journaled while the next call is already on its way: waiting for each fsync would
  // cost every call one. A success counts (and is printed) once its entry is durable.
  const recordings: Promise<void>[] = [];
  const failedAddresses = new Set<string>();
  const blocked: NotAttemptedItem[] = [];
  // A journal that cannot be written (a full disk) stops the run; what was made on the server but
  // not recorded is reported, never lost in an error line.
  const unrecorded: DoneItem[] = [];
  let recordFailure: string | undefined;
  const journalFailed = (err: unknown): void => {
    stopped = true;
    if (!isUserError(err)) throw err;
    recordFailure ??= err.message;
  };
  const runTask = async (task: Task): Promise<Trailing | void> => {
    const needed = (kindFor(task.resource).needs?.(task.resource.spec) ?? []).find((address) => failedAddresses.has(address));
    if (needed !== undefined) {
      const { change } = task;
      blocked.push({ address: change.address, type: change.type, action: change.action, reason: `it needs ${needed}, whose call failed` });
      failedAddresses.add(change.address);
      return;
    }
    let outcome: TaskOutcome;
    try {
      outcome = await runOne(task, { ...input, now, emit, adopter, memory, marks, taken });
    } catch (err) {
      // Not an API answer (a journal write failed, say): stop starting work; a bug still throws.
      journalFailed(err);
      return;
    }
    if (!outcome.ok) {
      // One failed call stops only what needs it (docs/spec/plan-and-apply.md#results-and-partial-failures); unrelated work goes on.
      failed.push(outcome.item);
      failedAddresses.add(outcome.item.address);
      return;
    }
    const { item } = outcome;
    const recorded = outcome.recording.then(
      () => {
        done.push(item);
        emit({ kind: 'done', ...item });
      },
      (err: unknown) => {
        unrecorded.push(item);
        journalFailed(err);
      },
    );
    recordings.push(recorded);
    return { after: recorded };
  };
  await runScheduled(queues, concurrency, () => stopped || input.stop?.aborted === true, dependenciesFirst, runTask);
  const interrupted = input.stop?.aborted === true;
  // Every success is on disk before the result is reported (a failed write rejects here).
  await Promise.all(recordings);
  // With a broken journal there is nothing to clear into: the marks stay, which is safe.
  if (recordFailure === undefined) await marks.clearUnsent();
  // Deletes come last: an agent the plan updates may stop using a tool only now being deleted. So
  // a kind others depend on is not deleted when a change of a dependant kind failed.
  const failedTypes = new Set([...failed, ...blocked].map((item) => item.type));
  // A superseded resource keeps serving while its replacement's change failed in this run.
  const deletable = deletes.filter((change) => ![...failedTypes].some((type) => kindOf(type).dependsOn.includes(change.type)) && !failedAddresses.has(replacementAddressOf(change.address) ?? ''));
  if (deletable.length > 0 && !stopped) {
    const deleted = await executeDeletes(deletable, { ...input, now, emit, stopped: () => stopped, stop: () => (stopped = true) });
    appendAll(done, deleted.done);
    appendAll(failed, deleted.failed);
  }

  const attempted = new Set([...done, ...failed, ...blocked, ...unrecorded].map((i) => i.address));
  const notAttempted: NotAttemptedItem[] = [
    ...blocked,
    ...[...tasks.map((t) => t.change), ...deletes]
      .filter((change) => !attempted.has(change.address))
      .map((change) => ({ address: change.address, type: change.type, action: change.action, reason: notAttemptedReason(change, interrupted, deletable.includes(change as DeleteChange)) })),
  ];
  const counts = countDone(done);
  const unreadable = plan.unreadable ?? [];
  const ok = failed.length === 0 && notAttempted.length === 0 && recordFailure === undefined && unreadable.length === 0;
  const notify: NotifyOutcome = interrupted && input.desired.notify ? { status: 'skipped', reason: 'interrupted' } : await sendNotify(input, { ok, counts, done, lineage, startSerial });
  const moved = (plan.moves ?? []).map(({ from, to }) => ({ from, to }));
  return {
    environment: plan.environment,
    prune: plan.prune,
    ok,
    counts,
    done,
    failed,
    notAttempted,
    notify,
    total,
    ...(interrupted ? { interrupted } : {}),
    ...(moved.length > 0 ? { moved } : {}),
    ...(unreadable.length > 0 ? { unreadable: unreadable.map((entry) => ({ ...entry })) } : {}),
    ...(recordFailure === undefined ? {} : { unrecorded: { items: unrecorded, reason: recordFailure } }),
  };
}

function notAttemptedReason(change: CallableChange | DeleteChange, interrupted: boolean, deletable: boolean): string {
  if (interrupted) return 'the apply was interrupted';
  if (change.action === 'delete' && !deletable) {
    return replacementAddressOf(change.address) === undefined ? 'a change of something that may still use it failed' : 'the change of what replaces it failed; it keeps serving until that is done';
  }
  return 'the apply stopped after a failure';
}

/** A success carries the journal write of its result, still under way. */
type TaskOutcome = { ok: true; item: DoneItem; recording: Promise<void> } | { ok: false; item: FailedItem };

interface RunContext extends ExecuteInput {
  now: () => Date;
  emit: (event: ApplyEvent) => void;
  adopter: PendingAdopter;
  memory: RunMemory;
  marks: PendingMarksAhead;
  /** Remote ids of a kind the state held when the run began: never adopted by another address. */
  taken: (type: ResourceType) => ReadonlySet<string>;
}

/** The time of an earlier run's pending create mark at this address (not of a DELETE's), if any. */
function pendingCreateSince(input: RunContext, address: string): { pendingSince?: string } {
  const pending = input.session.state.pending[address];
  return pending !== undefined && pending.action === undefined ? { pendingSince: pending.since } : {};
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
function marksAheadFor(queues: Readonly<Record<string, readonly Task[]>>): MarkTarget[] {
  return Object.values(queues)
    .flat()
    .filter(({ change, resource }) => {
      const kind = kindFor(resource);
      return change.action === 'create' && change.adopt === undefined && kind.createIsRepeatable && kind.identityOf !== undefined;
    })
    .map(({ change }) => ({ address: change.address, type: change.type }));
}

async function runOne(task: Task, input: RunContext): Promise<TaskOutcome> {
  const { change, resource } = task;
  const { now, emit } = input;
  const kind = kindFor(resource);
  const base = { address: change.address, type: change.type, action: change.action } as const;
  let adoptId: string | undefined;
  try {
    adoptId = await adoptionFor(change, resource, input);
  } catch (err) {
    if (!isUserError(err)) throw err;
    // The server could not be read to rule out a duplicate: nothing is sent, the pending mark stays.
    const item: FailedItem = { ...base, failure: { call: `GET ${kind.refresh?.listPath ?? ''}`, status: 0, code: 'LOOKUP_FAILED', message: err.message, attempts: 1, maybeCreated: true } };
    emit({ kind: 'failed', ...item });
    return { ok: false, item };
  }
  // Creates of kinds the server can be searched for are marked pending first, so that a create
  // whose answer is lost is recognised (adopted, not duplicated or called a conflict) next time.
  const marksPending = change.action === 'create' && adoptId === undefined && kind.identityOf !== undefined;
  const planned =
    adoptId !== undefined
      ? kind.describe('update', resource.spec, resource.key, adoptId)
      : kind.describe(change.action, resource.spec, resource.key, change.action === 'update' ? change.remoteId : undefined);
  emit({ kind: 'start', ...base, call: planned });
  if (input.marks.covers(change.address)) await input.marks.ready(change.address);
  else if (marksPending) await input.session.record({ op: 'pending', address: change.address, type: change.type, since: now().toISOString() });
  const started = performance.now();
  let retries = 0;
  const wire = trackedWire(
    input.client,
    {
      onRetry: (info: RetryInfo) => {
        retries = info.retry;
        emit({ kind: 'retry', ...base, call: info.call, retry: info.retry, delayMs: info.delayMs, reason: `${info.error.status || info.error.code}` });
      },
      ...(input.cancel ? { signal: input.cancel } : {}),
    },
    planned,
  );
  // A kind's own unrepeatable call (a scrape) marks itself pending through this, just before it leaves.
  let marked = false;
  const unrepeatable: UnrepeatableStep = {
    ...pendingCreateSince(input, change.address),
    taken: input.taken(change.type),
    mark: async () => {
      await input.session.record({ op: 'pending', address: change.address, type: change.type, since: now().toISOString() });
      marked = true;
    },
  };
  let superseded: { address: string; remoteId: string } | undefined;
  const replacement: ReplacementSteps = {
    replace: async (newId, recorded, oldId) => {
      const at = now().toISOString();
      const old = input.session.state.resources[change.address];
      const address = supersededAddress(change.address, oldId);
      // The old one first: a crash between the two records leaves both websites known, never one lost.
      await input.session.record({ op: 'applied', address, type: change.type, remoteId: oldId, spec: old?.spec ?? change.after, appliedAt: old?.appliedAt ?? at });
      await input.session.record({ op: 'pending', address, type: change.type, since: at, action: 'delete' });
      await input.session.record({ op: 'applied', address: change.address, type: change.type, remoteId: newId, spec: { ...change.after, ...recorded }, appliedAt: at });
      superseded = { address, remoteId: oldId };
    },
    superseded: async () => {
      if (superseded === undefined) return;
      await input.session.record({ op: 'forgotten', address: superseded.address });
      superseded = undefined;
    },
  };
  const ctx = { wire, memory: input.memory, unrepeatable, replacement };
  try {
    const outcome =
      adoptId !== undefined
        ? await kind.update(ctx, resource.spec, resource.key, adoptId)
        : change.action === 'create'
          ? await kind.create(ctx, resource.spec, resource.key)
          : await kind.update(ctx, resource.spec, resource.key, change.remoteId, changedFieldsOf(kind.fields, change.before, change.after, jsonEqual));
    // Deferred: nobody waits for it now. A crash before it is durable leaves the create pending
    // (adopted next time) or the update to be sent again (harmless); it is not reported before.
    const recording = input.session.record({
      op: 'applied',
      address: change.address,
      type: change.type,
      remoteId: outcome.remoteId,
      spec: outcome.recorded ? { ...change.after, ...outcome.recorded } : change.after,
      appliedAt: now().toISOString(),
    });
    const adopted = adoptId !== undefined || outcome.adopted === true;
    const item: DoneItem = {
      ...base,
      remoteId: outcome.remoteId,
      call: wire.lastCall,
      ms: Math.round(performance.now() - started),
      retries,
      ...(adopted ? { adopted } : {}),
      ...stepsDone(change, outcome),
    };
    return { ok: true, item, recording };
  } catch (caught) {
    let err = caught;
    let made: string | undefined;
    if (caught instanceof PartlyDone) {
      // Something was made before the failure: record it, so the next run updates rather than duplicates.
      await input.session.record({
        op: 'applied',
        address: change.address,
        type: change.type,
        remoteId: caught.remoteId,
        spec: { ...change.after, ...caught.recorded },
        appliedAt: now().toISOString(),
      });
      err = caught.cause;
      made = caught.remoteId;
    }
    const failure = failureOf(err, wire.lastCall);
    const mayDuplicate = change.action === 'create' && adoptId === undefined && !kind.createIsRepeatable && marksPending;
    // Once something was recorded (`made`), the mark is gone with it. Otherwise a call the server
    // provably never saw, or answered with a client error, created nothing: this run's mark goes.
    const unconfirmed = made === undefined && (mayDuplicate || marked) && failure.maybeCreated;
    if (made === undefined && (marksPending || marked) && !failure.maybeCreated) await input.session.record({ op: 'pending-cleared', address: change.address });
    const item: FailedItem = {
      ...base,
      failure: { ...failure, maybeCreated: unconfirmed },
      ...(made === undefined ? {} : { madeRemoteId: made }),
      ...(superseded === undefined ? {} : { superseded }),
    };
    emit({ kind: 'failed', ...item });
    return { ok: false, item };
  }
}

/**
 * The remote id to update instead of creating: decided by a refreshed plan, or, for a plan that
 * did not read the server, looked up for a pending create that is not safe to send again.
 */
async function adoptionFor(change: CallableChange, resource: DesiredResource, input: RunContext): Promise<string | undefined> {
  if (change.action !== 'create') return undefined;
  if (change.adopt) return change.adopt.remoteId;
  const pending = input.session.state.pending[change.address];
  // A pending DELETE's mark says nothing about a create: there is nothing to adopt.
  const pendingSince = pending?.action === undefined ? pending?.since : undefined;
  if (input.plan.refreshed || pendingSince === undefined || kindOf(resource.type).createIsRepeatable) return undefined;
  return input.adopter.find(resource, pendingSince);
}

/** A replacement says so, and a change made in steps says which (docs/spec/plan-and-apply.md#progress-and-summary). */
function stepsDone(change: CallableChange, outcome: CallOutcome): Pick<DoneItem, 'replaced' | 'steps'> {
  return { ...(change.action === 'update' && change.replace === true ? { replaced: true } : {}), ...(outcome.steps?.length ? { steps: [...outcome.steps] } : {}) };
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

interface NotifyContext {
  ok: boolean;
  counts: ApplyCounts;
  done: readonly DoneItem[];
  lineage: string;
  startSerial: number;
}

/** Sent only after a complete apply that changed something; a failure here undoes nothing. */
async function sendNotify(input: ExecuteInput, ctx: NotifyContext): Promise<NotifyOutcome> {
  const config = input.desired.notify;
  if (!config) return { status: 'skipped', reason: 'not-configured' };
  if (!ctx.ok) return { status: 'skipped', reason: 'apply-failed' };
  if (ctx.done.length === 0) return { status: 'skipped', reason: 'nothing-changed' };
  const muid = notifyMuid(ctx.lineage, ctx.startSerial, planFingerprint(input.plan.changes));
  const body = notifyBody(config, notifyText(input.plan.environment, ctx.counts, ctx.done), muid);
  try {
    const message = await input.client.sendMessage(body, config.onBehalfOf ? { onBehalfOf: config.onBehalfOf } : {});
    return { status: 'sent', messageId: message.id, muid };
  } catch (err) {
    return { status: 'failed', muid, failure: failureOf(err, 'POST /messages') };
  }
}

function planFingerprint(changes: readonly Change[]): string {
  return canonicalJson(changes.filter((c) => c.action !== 'no-op').map((c) => [c.action, c.address, 'after' in c ? c.after : null]));
}
