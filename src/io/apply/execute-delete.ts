// The `--prune` half of an apply: DELETE what the state holds and the manifest no longer does,
// dependents first (an agent before the tools it used). Crash-safe like a create: a pending mark
// is journaled before each DELETE leaves, and the entry is dropped from the state only once the
// server said it is gone (a 404 says so too). A DELETE whose answer was lost is simply sent again
// by the next run: deleting is idempotent.
import { kindOf, newRunMemory } from '../../core/kinds/index.js';
import type { DeleteChange } from '../../core/plan.js';
import type { ApiClient } from '../api/client.js';
import type { RetryInfo } from '../api/send-request.js';
import { failureOf } from './apply-failure.js';
import type { ApplyEvent, DoneItem, FailedItem } from '../../core/apply-types.js';
import { dependentsFirst, emptyQueues, runScheduled } from './schedule.js';
import type { StateSession } from '../state/store.js';
import { trackedWire } from '../api/wire.js';

export interface DeleteContext {
  session: StateSession;
  client: ApiClient;
  concurrency: number;
  now: () => Date;
  emit: (event: ApplyEvent) => void;
  /** Shared with the rest of the apply: once anything failed, no new DELETE starts. */
  stopped: () => boolean;
  stop: () => void;
}

export interface DeleteResults {
  done: DoneItem[];
  failed: FailedItem[];
}

export async function executeDeletes(changes: readonly DeleteChange[], ctx: DeleteContext): Promise<DeleteResults> {
  const results: DeleteResults = { done: [], failed: [] };
  const queues = emptyQueues<DeleteChange>();
  for (const change of changes) queues[change.type].push(change);
  await runScheduled(queues, Math.max(1, ctx.concurrency), ctx.stopped, dependentsFirst, async (change) => {
    const outcome = await deleteOne(change, ctx);
    if ('failure' in outcome) {
      results.failed.push(outcome);
      ctx.stop();
    } else results.done.push(outcome);
  });
  return results;
}

async function deleteOne(change: DeleteChange, ctx: DeleteContext): Promise<DoneItem | FailedItem> {
  const base = { address: change.address, type: change.type, action: 'delete' } as const;
  const removal = kindOf(change.type).remove;
  if (change.gone || removal === undefined) {
    // The refresh saw it gone already (a plan never deletes a kind without `remove`): only the state changes.
    ctx.emit({ kind: 'start', ...base });
    await ctx.session.record({ op: 'forgotten', address: change.address });
    const item: DoneItem = { ...base, remoteId: change.remoteId, ms: 0, retries: 0, gone: true };
    ctx.emit({ kind: 'done', ...item });
    return item;
  }
  const planned = removal.describe(change.remoteId, change.key);
  ctx.emit({ kind: 'start', ...base, call: planned });
  await ctx.session.record({ op: 'pending', address: change.address, type: change.type, since: ctx.now().toISOString(), action: 'delete' });
  const started = performance.now();
  let retries = 0;
  const onRetry = (info: RetryInfo): void => {
    retries = info.retry;
    ctx.emit({ kind: 'retry', ...base, call: info.call, retry: info.retry, delayMs: info.delayMs, reason: `${info.error.status || info.error.code}` });
  };
  const wire = trackedWire(ctx.client, { onRetry }, planned);
  try {
    const outcome = await removal.send({ wire, memory: newRunMemory() }, change.remoteId, change.key);
    await ctx.session.record({ op: 'forgotten', address: change.address });
    const item: DoneItem = { ...base, remoteId: change.remoteId, call: wire.lastCall, ms: Math.round(performance.now() - started), retries, ...(outcome === 'gone' ? { gone: true } : {}) };
    ctx.emit({ kind: 'done', ...item });
    return item;
  } catch (err) {
    const failure = failureOf(err, wire.lastCall);
    // A DELETE the server provably never saw, or refused, deleted nothing: the mark goes. Otherwise
    // it stays, so the next plan says the delete may have happened; sending it again is harmless.
    if (!failure.maybeCreated) await ctx.session.record({ op: 'pending-cleared', address: change.address });
    const item: FailedItem = { ...base, failure: { ...failure, maybeCreated: false } };
    ctx.emit({ kind: 'failed', ...item });
    return item;
  }
}
