// One create or update of an apply, in its steps: decide whether an interrupted earlier create is
// adopted, mark the create pending, send the kind's call (reporting its retries), and record what
// it left: its result, deferred, when it succeeded; what it made, and whether it may have made
// something, when it failed. executor.ts schedules these and writes their outcomes in its ledger.
import type { DesiredResource } from '../../core/desired.js';
import { isUserError } from '../../core/errors.js';
import { jsonEqual } from '../../core/json-equal.js';
import { changedFieldsOf } from '../../core/kinds/fields.js';
import { PartlyDone, supersededAddress, type CallContext, type CallOutcome, type Kind, type ReferenceIds, type ReplacementSteps, type UnrepeatableStep } from '../../core/kinds/kind.js';
import { kindFor, kindOf, type ResourceType, type RunMemory } from '../../core/kinds/index.js';
import type { CreateChange, Plan, UpdateChange } from '../../core/plan.js';
import type { ApplyEvent, DoneItem, FailedItem } from '../../core/apply-types.js';
import type { StateSession } from '../state/store.js';
import type { ApiClient } from '../api/client.js';
import type { RetryInfo } from '../api/send-request.js';
import { trackedWire, type TrackedWire } from '../api/wire.js';
import { failureOf } from './apply-failure.js';
import type { PendingAdopter } from './execute-adopt.js';
import type { PendingMarksAhead } from './execute-marks.js';

export type CallableChange = CreateChange | UpdateChange;

export interface Task {
  change: CallableChange;
  resource: DesiredResource;
}

/** A success carries the journal write of its result, still under way. */
export type TaskOutcome = { ok: true; item: DoneItem; recording: Promise<void> } | { ok: false; item: FailedItem };

export interface CallRunContext {
  plan: Plan;
  session: StateSession;
  client: ApiClient;
  /** Aborted when calls still in flight must be abandoned (the stop's grace period ran out). */
  cancel?: AbortSignal;
  now: () => Date;
  emit: (event: ApplyEvent) => void;
  adopter: PendingAdopter;
  memory: RunMemory;
  marks: PendingMarksAhead;
  /** Remote ids of a kind the state held when the run began: never adopted by another address. */
  taken: (type: ResourceType) => ReadonlySet<string>;
  /** Other resources' ids, now and as planned, for kinds whose fields name them by address. */
  references: ReferenceIds;
}

/** One call on its way: what it is, and what its steps have left behind so far. */
interface Call {
  change: CallableChange;
  resource: DesiredResource;
  kind: Kind<DesiredResource['spec']>;
  base: Pick<DoneItem, 'address' | 'type' | 'action'>;
  /** The first call the kind will send, named until it sends one. */
  planned: string;
  /** The remote id updated instead of creating (an interrupted earlier create, found). */
  adoptId: string | undefined;
  /** This run journals a pending mark before the create leaves. */
  marksPending: boolean;
  started: number;
  retries: number;
  /** A kind's unrepeatable step marked itself pending. */
  marked: boolean;
  /** The old resource a replacement superseded, while its delete is not done. */
  superseded?: { address: string; remoteId: string };
}

export async function runOne(task: Task, run: CallRunContext): Promise<TaskOutcome> {
  const adoption = await adoptOrRefuse(task, run);
  if ('refused' in adoption) return adoption.refused;
  const call = await startCall(task, adoption.adoptId, run);
  const wire = wireFor(call, run);
  const ctx: CallContext = {
    wire,
    memory: run.memory,
    unrepeatable: unrepeatableStep(call, run),
    replacement: replacementSteps(call, run),
    references: run.references,
    ...(task.change.action === 'update' ? { before: task.change.before } : {}),
    ...(task.resource.localFile === undefined ? {} : { localFile: task.resource.localFile }),
  };
  try {
    const outcome = await sendCall(call, ctx);
    return succeeded(call, outcome, wire, run);
  } catch (caught) {
    return await failed(call, caught, wire, run);
  }
}

/** The create's adoption, decided; or, when the server could not be read to decide it, the failure. */
async function adoptOrRefuse({ change, resource }: Task, run: CallRunContext): Promise<{ adoptId: string | undefined } | { refused: TaskOutcome }> {
  try {
    return { adoptId: await adoptionFor(change, resource, run) };
  } catch (err) {
    if (!isUserError(err)) throw err;
    // The server could not be read to rule out a duplicate: nothing is sent, the pending mark stays.
    const base = { address: change.address, type: change.type, action: change.action } as const;
    const item: FailedItem = {
      ...base,
      failure: { call: `GET ${kindFor(resource).refresh?.listPath ?? ''}`, status: 0, code: 'LOOKUP_FAILED', message: err.message, attempts: 1, maybeCreated: true },
    };
    run.emit({ kind: 'failed', ...item });
    return { refused: { ok: false, item } };
  }
}

/**
 * The remote id to update instead of creating: decided by a refreshed plan, or, for a plan that
 * did not read the server, looked up for a pending create that is not safe to send again.
 */
async function adoptionFor(change: CallableChange, resource: DesiredResource, run: CallRunContext): Promise<string | undefined> {
  if (change.action !== 'create') return undefined;
  if (change.adopt) return change.adopt.remoteId;
  const pending = run.session.state.pending[change.address];
  // A pending DELETE's mark says nothing about a create: there is nothing to adopt.
  const pendingSince = pending?.action === undefined ? pending?.since : undefined;
  if (run.plan.refreshed || pendingSince === undefined || kindOf(resource.type).createIsRepeatable) return undefined;
  return run.adopter.find(resource, pendingSince);
}

/** Reports the call's start and makes sure its pending mark, if it needs one, is durable first. */
async function startCall({ change, resource }: Task, adoptId: string | undefined, run: CallRunContext): Promise<Call> {
  const kind = kindFor(resource);
  const base = { address: change.address, type: change.type, action: change.action } as const;
  // Creates of kinds the server can be searched for are marked pending first, so that a create
  // whose answer is lost is recognised (adopted, not duplicated or called a conflict) next time.
  const marksPending = change.action === 'create' && adoptId === undefined && kind.identityOf !== undefined;
  const planned =
    adoptId !== undefined
      ? kind.describe('update', resource.spec, resource.key, adoptId)
      : kind.describe(change.action, resource.spec, resource.key, change.action === 'update' ? change.remoteId : undefined);
  run.emit({ kind: 'start', ...base, call: planned });
  if (run.marks.covers(change.address)) await run.marks.ready(change.address);
  else if (marksPending) await run.session.record({ op: 'pending', address: change.address, type: change.type, since: run.now().toISOString() });
  return { change, resource, kind, base, planned, adoptId, marksPending, started: performance.now(), retries: 0, marked: false };
}

/** The wire the kind's calls go out on: it reports each retry, and remembers the last call sent. */
function wireFor(call: Call, run: CallRunContext): TrackedWire {
  const onRetry = (info: RetryInfo): void => {
    call.retries = info.retry;
    run.emit({ kind: 'retry', ...call.base, call: info.call, retry: info.retry, delayMs: info.delayMs, reason: `${info.error.status || info.error.code}` });
  };
  return trackedWire(run.client, { onRetry, ...(run.cancel ? { signal: run.cancel } : {}) }, call.planned);
}

/** The time of an earlier run's pending create mark at this address (not of a DELETE's), if any. */
function pendingCreateSince(run: CallRunContext, address: string): { pendingSince?: string } {
  const pending = run.session.state.pending[address];
  return pending !== undefined && pending.action === undefined ? { pendingSince: pending.since } : {};
}

/** A kind's own unrepeatable call (a scrape) marks itself pending through this, just before it leaves. */
function unrepeatableStep(call: Call, run: CallRunContext): UnrepeatableStep {
  const { change } = call;
  return {
    ...pendingCreateSince(run, change.address),
    taken: run.taken(change.type),
    mark: async () => {
      await run.session.record({ op: 'pending', address: change.address, type: change.type, since: run.now().toISOString() });
      call.marked = true;
    },
  };
}

/** A replacement's steps, each journaled as it happens. */
function replacementSteps(call: Call, run: CallRunContext): ReplacementSteps {
  const { change } = call;
  return {
    replace: async (newId, recorded, oldId) => {
      const at = run.now().toISOString();
      const old = run.session.state.resources[change.address];
      const address = supersededAddress(change.address, oldId);
      // The old one first: a crash between the two records leaves both websites known, never one lost.
      await run.session.record({ op: 'applied', address, type: change.type, remoteId: oldId, spec: old?.spec ?? change.after, appliedAt: old?.appliedAt ?? at });
      await run.session.record({ op: 'pending', address, type: change.type, since: at, action: 'delete' });
      await run.session.record({ op: 'applied', address: change.address, type: change.type, remoteId: newId, spec: { ...change.after, ...recorded }, appliedAt: at });
      call.superseded = { address, remoteId: oldId };
    },
    superseded: async () => {
      if (call.superseded === undefined) return;
      await run.session.record({ op: 'forgotten', address: call.superseded.address });
      call.superseded = undefined;
    },
  };
}

/** The kind's create, or its update (of what was adopted, or of the fields that changed). */
function sendCall({ change, resource, kind, adoptId }: Call, ctx: CallContext): Promise<CallOutcome> {
  if (adoptId !== undefined) return kind.update(ctx, resource.spec, resource.key, adoptId);
  if (change.action === 'create') return kind.create(ctx, resource.spec, resource.key);
  return kind.update(ctx, resource.spec, resource.key, change.remoteId, changedFieldsOf(kind.fields, change.before, change.after, jsonEqual));
}

function succeeded(call: Call, outcome: CallOutcome, wire: TrackedWire, run: CallRunContext): TaskOutcome {
  const { change } = call;
  // Deferred: nobody waits for it now. A crash before it is durable leaves the create pending
  // (adopted next time) or the update to be sent again (harmless); it is not reported before.
  const recording = run.session.record({
    op: 'applied',
    address: change.address,
    type: change.type,
    remoteId: outcome.remoteId,
    spec: outcome.recorded ? { ...change.after, ...outcome.recorded } : change.after,
    appliedAt: run.now().toISOString(),
  });
  const adopted = call.adoptId !== undefined || outcome.adopted === true;
  const item: DoneItem = {
    ...call.base,
    remoteId: outcome.remoteId,
    call: wire.lastCall,
    ms: Math.round(performance.now() - call.started),
    retries: call.retries,
    ...(adopted ? { adopted } : {}),
    ...stepsDone(change, outcome),
  };
  return { ok: true, item, recording };
}

/** A replacement says so, and a change made in steps says which (docs/spec/plan-and-apply.md#progress-and-summary). */
function stepsDone(change: CallableChange, outcome: CallOutcome): Pick<DoneItem, 'replaced' | 'steps'> {
  return { ...(change.action === 'update' && change.replace === true ? { replaced: true } : {}), ...(outcome.steps?.length ? { steps: [...outcome.steps] } : {}) };
}

async function failed(call: Call, caught: unknown, wire: TrackedWire, run: CallRunContext): Promise<TaskOutcome> {
  const { change } = call;
  const made = caught instanceof PartlyDone ? await recordPartlyDone(change, caught, run) : undefined;
  const failure = failureOf(caught instanceof PartlyDone ? caught.cause : caught, wire.lastCall);
  const mayDuplicate = change.action === 'create' && call.adoptId === undefined && !call.kind.createIsRepeatable && call.marksPending;
  // Once something was recorded (`made`), the mark is gone with it. Otherwise a call the server
  // provably never saw, or answered with a client error, created nothing: this run's mark goes.
  const unconfirmed = made === undefined && (mayDuplicate || call.marked) && failure.maybeCreated;
  if (made === undefined && (call.marksPending || call.marked) && !failure.maybeCreated) await run.session.record({ op: 'pending-cleared', address: change.address });
  const item: FailedItem = {
    ...call.base,
    failure: { ...failure, maybeCreated: unconfirmed },
    ...(made === undefined ? {} : { madeRemoteId: made }),
    ...(call.superseded === undefined ? {} : { superseded: call.superseded }),
  };
  run.emit({ kind: 'failed', ...item });
  return { ok: false, item };
}

/** Something was made before the failure: record it, so the next run updates rather than duplicates. Returns its id. */
async function recordPartlyDone(change: CallableChange, partly: PartlyDone, run: CallRunContext): Promise<string> {
  await run.session.record({
    op: 'applied',
    address: change.address,
    type: change.type,
    remoteId: partly.remoteId,
    spec: { ...change.after, ...partly.recorded },
    appliedAt: run.now().toISOString(),
  });
  return partly.remoteId;
}
