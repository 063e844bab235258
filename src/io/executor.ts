// Carries out a plan: the I/O twin of core/diff.ts. Tools first (agents reference them), websites
// alongside, agents once every tool change is done, `notify` last. Up to `concurrency` calls run at
// once; each success is journaled the moment it returns, so nothing that succeeded is ever lost.
// After the first failure no new call starts, the ones in flight finish, and the result says what
// was done, what failed and what was never attempted.
import { canonicalJson } from '../core/canonical.js';
import type { Desired, DesiredResource } from '../core/desired.js';
import type { Change, ForgetChange, Plan } from '../core/plan.js';
import type { StateSession } from './state/store.js';
import { isApiError } from './api/api-error.js';
import type { ApiClient } from './api/client.js';
import type { RetryInfo } from './api/send-request.js';
import type { ApplyCounts, ApplyEvent, ApplyFailure, ApplyResult, DoneItem, FailedItem, NotAttemptedItem, NotifyOutcome } from './apply-types.js';
import { createPendingAdopter, type PendingAdopter } from './execute-adopt.js';
import { agentPatchBody, callFor, describeCall, type CallableChange } from './execute-change.js';
import { notifyBody, notifyMuid, notifyText } from './execute-notify.js';

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
  const tools: Task[] = [];
  const agents: Task[] = [];
  const websites: Task[] = [];
  for (const change of plan.changes) {
    if (change.action === 'no-op') continue;
    if (change.action === 'forget') {
      forgets.push(change);
      continue;
    }
    const resource = byAddress.get(change.address);
    if (!resource) throw new Error(`plan names ${change.address}, which the manifest does not define`);
    ({ tool: tools, agent: agents, website: websites })[change.type].push({ change, resource });
  }
  const total = forgets.length + tools.length + agents.length + websites.length;

  // Forgets need no call: the resource stays on the server and only leaves the state.
  for (const change of forgets) {
    emit({ kind: 'start', address: change.address, type: change.type, action: 'forget' });
    await session.record({ op: 'forgotten', address: change.address });
    const item: DoneItem = { address: change.address, type: change.type, action: 'forget', remoteId: change.remoteId, ms: 0, retries: 0 };
    done.push(item);
    emit({ kind: 'done', ...item });
  }

  let stopped = false;
  const adopter = createPendingAdopter(input.client, session.state);
  // Results of idempotent calls are journaled while the next call is already on its way: waiting
  // for each fsync would halve throughput, and a repeated PUT/PATCH after a crash is harmless.
  const recordings: Promise<void>[] = [];
  const inBackground = (recording: Promise<void>): void => {
    recordings.push(recording);
    recording.catch(() => (stopped = true));
  };
  const runTask = async (task: Task): Promise<void> => {
    let outcome: TaskOutcome;
    try {
      outcome = await runOne(task, { ...input, now, emit, adopter, inBackground });
    } catch (err) {
      // Not an API answer (a journal write failed, say): stop starting work and surface it.
      stopped = true;
      throw err;
    }
    if (outcome.ok) done.push(outcome.item);
    else {
      failed.push(outcome.item);
      stopped = true;
    }
  };
  await runScheduled({ tools, websites, agents }, Math.max(1, input.concurrency), () => stopped, runTask);
  // Every success is on disk before the result is reported (a failed write rejects here).
  await Promise.all(recordings);

  const attempted = new Set([...done, ...failed].map((i) => i.address));
  const notAttempted: NotAttemptedItem[] = [...tools, ...agents, ...websites]
    .filter((t) => !attempted.has(t.change.address))
    .map((t) => ({ address: t.change.address, type: t.change.type, action: t.change.action, reason: 'the apply stopped after a failure' }));
  const counts = countDone(done);
  const ok = failed.length === 0 && notAttempted.length === 0;
  const notify = await sendNotify(input, { ok, counts, done, lineage, startSerial });
  return { environment: plan.environment, ok, counts, done, failed, notAttempted, notify, total };
}

type TaskOutcome = { ok: true; item: DoneItem } | { ok: false; item: FailedItem };

interface RunContext extends ExecuteInput {
  now: () => Date;
  emit: (event: ApplyEvent) => void;
  adopter: PendingAdopter;
  inBackground: (recording: Promise<void>) => void;
}

async function runOne(task: Task, input: RunContext): Promise<TaskOutcome> {
  const { change, resource } = task;
  const { now, emit, adopter } = input;
  const base = { address: change.address, type: change.type, action: change.action } as const;
  const pendingSince = change.action === 'create' && resource.type === 'agent' ? input.session.state.pending[change.address]?.since : undefined;
  const adoptUid = pendingSince !== undefined && resource.type === 'agent' ? await adopter.find(resource.spec.name, pendingSince) : undefined;
  let call = adoptUid !== undefined ? `PATCH /ai-agents/agents/${encodeURIComponent(adoptUid)}` : describeCall(change, resource);
  const isPost = change.action === 'create' && change.type !== 'tool' && adoptUid === undefined;
  emit({ kind: 'start', ...base, call });
  if (isPost) await input.session.record({ op: 'pending', address: change.address, type: change.type, since: now().toISOString() });
  const started = performance.now();
  let retries = 0;
  try {
    const options = {
      onRetry: (info: RetryInfo) => {
        retries = info.retry;
        emit({ kind: 'retry', ...base, call, retry: info.retry, delayMs: info.delayMs, reason: `${info.error.status || info.error.code}` });
      },
    };
    const result =
      adoptUid !== undefined && resource.type === 'agent'
        ? { remoteId: (await input.client.updateAgent(adoptUid, agentPatchBody(resource.spec, {}), options)).uid || adoptUid, call }
        : await callFor(change, resource, input.client, options);
    call = result.call;
    const recording = input.session.record({ op: 'applied', address: change.address, type: change.type, remoteId: result.remoteId, spec: change.after, appliedAt: now().toISOString() });
    // A create's result is awaited: losing it would leave a pending entry and a possible duplicate.
    if (isPost) await recording;
    else input.inBackground(recording);
    const item: DoneItem = { ...base, remoteId: result.remoteId, call, ms: Math.round(performance.now() - started), retries, ...(adoptUid ? { adopted: true } : {}) };
    emit({ kind: 'done', ...item });
    return { ok: true, item };
  } catch (err) {
    const failure = failureOf(err, call);
    // A create the server provably never saw, or answered with a client error, created nothing.
    const createdNothing = isPost && !failure.maybeCreated;
    if (isPost && createdNothing) await input.session.record({ op: 'pending-cleared', address: change.address });
    const item: FailedItem = { ...base, failure: { ...failure, maybeCreated: isPost && failure.maybeCreated } };
    emit({ kind: 'failed', ...item });
    return { ok: false, item };
  }
}

function failureOf(err: unknown, call: string): ApplyFailure {
  if (isApiError(err)) {
    const answeredNo = err.status >= 400 && err.status < 500;
    return { call, status: err.status, code: err.code, message: err.serverMessage, attempts: err.attempts, maybeCreated: !(err.notSent || answeredNo) };
  }
  // Anything else (a journal write that failed, a bug) is not an API answer: let it surface.
  throw err;
}

interface Queues {
  tools: readonly Task[];
  websites: readonly Task[];
  agents: readonly Task[];
}

/**
 * A worker pool over three queues. Tools go first; an agent may start only once every tool change
 * has finished (it may reference any of them); websites depend on nothing and fill the gaps.
 * Once `stopped()` is true no new task starts.
 */
async function runScheduled(queues: Queues, limit: number, stopped: () => boolean, run: (task: Task) => Promise<void>): Promise<void> {
  const next = { tools: 0, websites: 0, agents: 0 };
  let toolsUnfinished = queues.tools.length;
  let waiters: Array<() => void> = [];
  const wakeAll = (): void => {
    const woken = waiters;
    waiters = [];
    for (const wake of woken) wake();
  };
  const take = (): Task | 'wait' | undefined => {
    if (next.tools < queues.tools.length) return queues.tools[next.tools++];
    if (toolsUnfinished === 0 && next.agents < queues.agents.length) return queues.agents[next.agents++];
    if (next.websites < queues.websites.length) return queues.websites[next.websites++];
    return next.agents < queues.agents.length ? 'wait' : undefined;
  };
  const worker = async (): Promise<void> => {
    while (!stopped()) {
      const task = take();
      if (task === undefined) return;
      if (task === 'wait') {
        await new Promise<void>((resolve) => waiters.push(resolve));
        continue;
      }
      try {
        await run(task);
      } finally {
        if (task.change.type === 'tool') toolsUnfinished--;
        wakeAll();
      }
    }
  };
  const total = queues.tools.length + queues.websites.length + queues.agents.length;
  // allSettled: a fatal error must not return while other calls are still in flight.
  const settled = await Promise.allSettled(Array.from({ length: Math.min(limit, total) }, worker));
  const fatal = settled.find((s): s is PromiseRejectedResult => s.status === 'rejected');
  if (fatal) throw fatal.reason;
}

function countDone(done: readonly DoneItem[]): ApplyCounts {
  const counts: ApplyCounts = { created: 0, updated: 0, forgotten: 0 };
  for (const item of done) {
    if (item.action === 'create') counts.created++;
    else if (item.action === 'update') counts.updated++;
    else counts.forgotten++;
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
