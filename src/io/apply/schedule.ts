// The executor's worker pool: one queue per kind, taken in apply order, up to `limit` tasks at
// once. Which kind may start is the caller's rule: creates and updates wait for the kinds they
// depend on (an agent may name any tool); deletes wait for the kinds that depend on them (an agent
// goes before the tools it used). Once `stopped()` is true no new task starts.
// A task frees its worker when its call is answered, but counts as unfinished for the kinds that
// wait on it until its `after` (the journal write of its result) settles: a dependant is never
// sent before what it depends on is durable.
import { kindOf, RESOURCE_TYPES, type ResourceType } from '../../core/kinds/index.js';

export type Queues<T> = Readonly<Record<ResourceType, readonly T[]>>;
/** Tasks of each kind not yet finished, for a MayStart rule to look at. */
export type Unfinished = Readonly<Record<ResourceType, number>>;
export type MayStart = (type: ResourceType, unfinished: Unfinished) => boolean;

/** Creates and updates: a kind starts once every kind it depends on is done. */
export const dependenciesFirst: MayStart = (type, unfinished) => !kindOf(type).dependsOn.some((dependency) => unfinished[dependency] > 0);

/** Deletes: a kind starts once every kind that depends on it is done. */
export const dependentsFirst: MayStart = (type, unfinished) => !RESOURCE_TYPES.some((other) => unfinished[other] > 0 && kindOf(other).dependsOn.includes(type));

/** What a task may hand back: work that goes on after its worker is free (its result's journal write). */
export interface Trailing {
  after: Promise<unknown>;
}

export function emptyQueues<T>(): Record<ResourceType, T[]> {
  return Object.fromEntries(RESOURCE_TYPES.map((type) => [type, [] as T[]])) as Record<ResourceType, T[]>;
}

export async function runScheduled<T>(queues: Queues<T>, limit: number, stopped: () => boolean, mayStart: MayStart, run: (task: T) => Promise<Trailing | void>): Promise<void> {
  const next = Object.fromEntries(RESOURCE_TYPES.map((type) => [type, 0])) as Record<ResourceType, number>;
  const unfinished = Object.fromEntries(RESOURCE_TYPES.map((type) => [type, queues[type].length])) as Record<ResourceType, number>;
  let waiters: Array<() => void> = [];
  const wakeAll = (): void => {
    const woken = waiters;
    waiters = [];
    for (const wake of woken) wake();
  };
  const take = (): { task: T; type: ResourceType } | 'wait' | undefined => {
    let blocked = false;
    for (const type of RESOURCE_TYPES) {
      if (next[type] >= queues[type].length) continue;
      if (!mayStart(type, unfinished)) {
        blocked = true;
        continue;
      }
      return { task: queues[type][next[type]++] as T, type };
    }
    return blocked ? 'wait' : undefined;
  };
  const worker = async (): Promise<void> => {
    while (!stopped()) {
      const taken = take();
      if (taken === undefined) return;
      if (taken === 'wait') {
        await new Promise<void>((resolve) => waiters.push(resolve));
        continue;
      }
      const finish = (): void => {
        unfinished[taken.type]--;
        wakeAll();
      };
      let trailing: Trailing | void = undefined;
      try {
        trailing = await run(taken.task);
      } finally {
        if (trailing) trailing.after.then(finish, finish);
        else finish();
      }
    }
  };
  const total = RESOURCE_TYPES.reduce((sum, type) => sum + queues[type].length, 0);
  // allSettled: a fatal error must not return while other calls are still in flight.
  const settled = await Promise.allSettled(Array.from({ length: Math.min(limit, total) }, worker));
  const fatal = settled.find((s): s is PromiseRejectedResult => s.status === 'rejected');
  if (fatal) throw fatal.reason;
}
