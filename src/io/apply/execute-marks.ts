// Pending marks written ahead of the creates that need them. A create of a kind the server can be
// searched for is marked pending, durably, before its call leaves (so that a create whose answer
// is lost is adopted next time, not called a conflict). Marking each one just before its call puts
// an fsync on every call's path; marking the next few creates in one batch while the current ones
// are on the wire takes it off, and costs one fsync per batch. Only creates that are harmless to
// send again are marked ahead: for them a mark left by a killed run whose call never left means a
// plain create next time. Marks of creates that never start are cleared when the run ends.
import type { ResourceType } from '../../core/kinds/index.js';
import type { StateSession } from '../state/store.js';

export interface MarkTarget {
  address: string;
  type: ResourceType;
}

export class PendingMarksAhead {
  private readonly index = new Map<string, number>();
  private readonly marks = new Map<string, Promise<void>>();
  /** Marks requested so far: targets[0 .. requested). */
  private requested = 0;
  private readonly sent = new Set<string>();

  constructor(
    private readonly session: StateSession,
    /** In the order the scheduler takes them. */
    private readonly targets: readonly MarkTarget[],
    /** How many marks are kept requested beyond the create being sent (about two rounds of calls). */
    private readonly lookahead: number,
    private readonly now: () => Date,
  ) {
    targets.forEach((target, i) => this.index.set(target.address, i));
  }

  covers(address: string): boolean {
    return this.index.has(address);
  }

  /** Resolves once this address's mark is durable; requests the next batch first when it runs low. */
  ready(address: string): Promise<void> {
    const at = this.index.get(address);
    if (at === undefined) throw new Error(`${address} has no pending mark planned`);
    // Half the lookahead as hysteresis: batches of about lookahead/2 marks, each one write.
    if (this.requested <= at + Math.floor(this.lookahead / 2)) this.requestThrough(Math.min(this.targets.length, at + this.lookahead + 1));
    this.sent.add(address);
    return this.marks.get(address) as Promise<void>;
  }

  /** Clears the marks of creates that were never sent (the run stopped first); waits for every mark. */
  async clearUnsent(): Promise<void> {
    const unsent = this.targets.slice(0, this.requested).filter((t) => !this.sent.has(t.address));
    await Promise.all([...this.marks.values()]);
    await Promise.all(unsent.map((t) => this.session.record({ op: 'pending-cleared', address: t.address })));
  }

  private requestThrough(end: number): void {
    const since = this.now().toISOString();
    for (; this.requested < end; this.requested++) {
      const { address, type } = this.targets[this.requested] as MarkTarget;
      const mark = this.session.record({ op: 'pending', address, type, since });
      // Whoever needs it awaits it; a failed write stops the run there (and in clearUnsent).
      mark.catch(() => undefined);
      this.marks.set(address, mark);
    }
  }
}
