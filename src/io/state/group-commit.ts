// Group commit: lines pushed while a write is in flight share the next write, so a parallel apply
// pays one fsync (file journal) or one INSERT (PostgreSQL) per batch, not one per result. Each
// push resolves only once the write that carried its own line is durable. Lines pushed in one turn
// of the event loop always share a write.
//
// There is no waiting window for company: a write starts at the end of the turn its first line was
// pushed in. An 8 ms window once let results a few milliseconds apart share one write; it changed
// P2 and P6 by less than 5% (BENCHMARKS.md, "Machinery kept or removed"), so it went.

interface Waiting {
  line: string;
  done: () => void;
  fail: (err: unknown) => void;
}

export interface GroupCommitOptions {
  /** Makes one batch durable. */
  write: (lines: string[]) => Promise<void>;
  /**
   * After a failed write: the error every waiting push rejects with, and whether later pushes must
   * fail too (a file that may end in a torn line must not be appended to again).
   */
  onFailure?: (err: unknown) => { error: unknown; stop: boolean };
}

export class GroupCommit {
  private queue: Waiting[] = [];
  private flushing: Promise<void> | null = null;
  private broken: { error: unknown } | null = null;
  /** A flush is due at the end of this turn but has not started. */
  private due = false;

  constructor(private readonly options: GroupCommitOptions) {}

  push(line: string): Promise<void> {
    if (this.broken !== null) return Promise.reject(this.broken.error);
    return new Promise((done, fail) => {
      this.queue.push({ line, done, fail });
      this.schedule();
    });
  }

  /** Waits for every pushed line to be durable (or to have failed). */
  async drain(): Promise<void> {
    while (this.due || this.flushing) {
      if (this.flushing) await this.flushing;
      else await new Promise<void>((resolve) => setImmediate(resolve));
    }
  }

  /** A write in flight picks the queue up when it ends; otherwise one starts at the end of this turn. */
  private schedule(): void {
    if (this.flushing || this.due) return;
    this.due = true;
    setImmediate(() => {
      this.due = false;
      this.flushing ??= this.flushLoop();
    });
  }

  private async flushLoop(): Promise<void> {
    try {
      while (this.queue.length > 0) {
        const batch = this.queue;
        this.queue = [];
        try {
          await this.options.write(batch.map((b) => b.line));
          batch.forEach((b) => b.done());
        } catch (err) {
          const { error, stop } = this.options.onFailure?.(err) ?? { error: err, stop: false };
          if (!stop) {
            batch.forEach((b) => b.fail(error));
            continue;
          }
          this.broken = { error };
          [...batch, ...this.queue].forEach((b) => b.fail(error));
          this.queue = [];
        }
      }
    } finally {
      this.flushing = null;
    }
  }
}
