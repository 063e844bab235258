// What an apply has done so far, written down by its phases as things happen (executor.ts): the
// lists its result reports, the addresses whose change failed (what needs them is not sent), and
// whether the run must stop starting work. Each method says what happened; the phases never touch
// the lists themselves.
import { isUserError } from '../../core/errors.js';
import type { ApplyEvent, DoneItem, FailedItem, NotAttemptedItem } from '../../core/apply-types.js';
import type { CreateChange, UpdateChange } from '../../core/plan.js';
import type { DeleteResults } from './execute-delete.js';
import { appendAll } from '../../core/arrays.js';

export class ApplyLedger {
  readonly done: DoneItem[] = [];
  readonly failed: FailedItem[] = [];
  /** Changes not sent because something they need failed in this run. */
  readonly blocked: NotAttemptedItem[] = [];
  // A journal that cannot be written (a full disk) stops the run; what was made on the server but
  // not recorded is reported, never lost in an error line.
  readonly unrecorded: DoneItem[] = [];
  private failedJournal: string | undefined;
  private halted = false;
  private readonly failedAddresses = new Set<string>();
  // Results are journaled while the next call is already on its way: waiting for each fsync would
  // cost every call one. A success counts (and is printed) once its entry is durable.
  private readonly recordings: Promise<void>[] = [];

  constructor(private readonly emit: (event: ApplyEvent) => void) {}

  /** True once no new call may start: something failed that stops the run. */
  get stopped(): boolean {
    return this.halted;
  }

  /** Why the journal could not be written; undefined while it could. */
  get recordFailure(): string | undefined {
    return this.failedJournal;
  }

  stop(): void {
    this.halted = true;
  }

  /** A change that is done and durable: it counts, and is reported. */
  recordDone(item: DoneItem): void {
    this.done.push(item);
    this.emit({ kind: 'done', ...item });
  }

  /** A change whose call failed: what needs it is not sent. */
  recordFailed(item: FailedItem): void {
    this.failed.push(item);
    this.failedAddresses.add(item.address);
  }

  /** A change not sent because `needed` failed; what needs it in turn is not sent either. */
  block(change: CreateChange | UpdateChange, needed: string): void {
    this.blocked.push({ address: change.address, type: change.type, action: change.action, reason: `it needs ${needed}, whose call failed` });
    this.failedAddresses.add(change.address);
  }

  /** The first of `addresses` whose change failed (or was blocked) in this run. */
  failedAmong(addresses: readonly string[]): string | undefined {
    return addresses.find((address) => this.failedAddresses.has(address));
  }

  hasFailed(address: string): boolean {
    return this.failedAddresses.has(address);
  }

  /** The kinds of every change that failed or was blocked. */
  failedTypes(): Set<DoneItem['type']> {
    return new Set([...this.failed, ...this.blocked].map((item) => item.type));
  }

  /** Not an API answer (a journal write failed, say): stop starting work; a bug still throws. */
  journalFailed(err: unknown): void {
    this.halted = true;
    if (!isUserError(err)) throw err;
    this.failedJournal ??= err.message;
  }

  /**
   * A call that succeeded, whose journal write is still under way: it is done once the write is
   * durable, and unrecorded if the write fails. The returned promise settles then.
   */
  recordWhenDurable(item: DoneItem, recording: Promise<void>): Promise<void> {
    const recorded = recording.then(
      () => this.recordDone(item),
      (err: unknown) => {
        this.unrecorded.push(item);
        this.journalFailed(err);
      },
    );
    this.recordings.push(recorded);
    return recorded;
  }

  /** Every success is on disk before the result is reported (a failed write rejects here). */
  async durable(): Promise<void> {
    await Promise.all(this.recordings);
  }

  /** The results of the delete phase, which reports its own progress. */
  recordDeletes(results: DeleteResults): void {
    appendAll(this.done, results.done);
    appendAll(this.failed, results.failed);
  }

  /** Addresses of every change that was sent, failed, blocked, or made but not recorded. */
  attempted(): Set<string> {
    return new Set([...this.done, ...this.failed, ...this.blocked, ...this.unrecorded].map((i) => i.address));
  }
}
