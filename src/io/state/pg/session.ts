// An open PostgreSQL state: the lock is held by this session's connection. record() resolves only
// once its journal row is committed; records that arrive while an INSERT is on its way share the
// next one, so a parallel apply costs one round trip per batch, not one per result.
import { foldEntry, type JournalEntry, type State } from '../../../core/state.js';
import { sameContent, serializeState } from '../serialize.js';
import type { StateSession } from '../store.js';
import type { PgConnection } from './connection.js';
import { releasePgLock } from './lock.js';
import { APPEND, DROP_JOURNAL, WRITE_STATE } from './sql.js';

interface Queued {
  line: string;
  done: () => void;
  fail: (err: unknown) => void;
}

export class PgStateSession implements StateSession {
  private current: State;
  private queue: Queued[] = [];
  private flushing: Promise<void> | null = null;
  /** Records run concurrently with each other, never with a commit. */
  private readonly inflight = new Set<Promise<void>>();
  private exclusive: Promise<void> | null = null;
  private baseWrite: Promise<void> | null = null;
  private closing: Promise<void> | null = null;
  private closed = false;

  constructor(
    private readonly conn: PgConnection,
    private readonly key: string,
    /** What the state row holds now; null until it exists. */
    private stored: State | null,
    start: State,
    /** Journal rows exist for this key (left over, or appended since the last commit). */
    private journalRows: boolean,
  ) {
    this.current = start === stored ? structuredClone(start) : start;
  }

  get state(): State {
    return this.current;
  }

  async record(entry: JournalEntry): Promise<void> {
    this.assertOpen();
    while (this.exclusive) await this.exclusive.catch(() => undefined);
    const recording = this.appendAndFold(entry);
    this.inflight.add(recording);
    try {
      await recording;
    } finally {
      this.inflight.delete(recording);
    }
  }

  async commit(): Promise<void> {
    this.assertOpen();
    await this.commitExclusively();
  }

  close(): Promise<void> {
    this.closing ??= (async () => {
      try {
        await this.commitExclusively();
        await releasePgLock(this.conn, this.key);
      } finally {
        this.closed = true;
        await this.conn.end(); // ends the session, which frees the lock even if the release failed
      }
    })();
    return this.closing;
  }

  private async commitExclusively(): Promise<void> {
    while (this.exclusive) await this.exclusive.catch(() => undefined);
    const committing = (async () => {
      await Promise.allSettled([...this.inflight]);
      await this.writeFolded(false);
    })();
    this.exclusive = committing;
    try {
      await committing;
    } finally {
      if (this.exclusive === committing) this.exclusive = null;
    }
  }

  private async appendAndFold(entry: JournalEntry): Promise<void> {
    // Journal rows are meaningless without the lineage and salt they belong to, so a new state's
    // row is written once, empty, before its first entry.
    this.baseWrite ??= this.stored === null ? this.writeFolded(true) : Promise.resolve();
    await this.baseWrite;
    this.journalRows = true;
    await this.append(JSON.stringify(entry));
    foldEntry(this.current, entry);
  }

  private append(line: string): Promise<void> {
    return new Promise((done, fail) => {
      this.queue.push({ line, done, fail });
      this.flushing ??= this.flushLoop();
    });
  }

  private async flushLoop(): Promise<void> {
    try {
      while (this.queue.length > 0) {
        const batch = this.queue;
        this.queue = [];
        try {
          await this.conn.query(APPEND, [this.key, batch.map((b) => b.line)]);
          batch.forEach((b) => b.done());
        } catch (err) {
          batch.forEach((b) => b.fail(err));
        }
      }
    } finally {
      this.flushing = null;
    }
  }

  /** `createEmpty`: write a state that does not exist yet even if nothing was recorded. */
  private async writeFolded(createEmpty: boolean): Promise<void> {
    const previous = this.stored;
    const changed = previous === null ? createEmpty || !isEmpty(this.current) : !sameContent(this.current, previous);
    if (changed) {
      const next = { ...this.current, serial: previous === null ? this.current.serial : previous.serial + 1 };
      await this.conn.query(WRITE_STATE, [this.key, next.lineage, next.serial, serializeState(next)]);
      this.current.serial = next.serial;
      this.stored = structuredClone(this.current);
    } else if (this.journalRows) {
      await this.conn.query(DROP_JOURNAL, [this.key]);
    }
    this.journalRows = false;
  }

  private assertOpen(): void {
    if (this.closed || this.closing) throw new Error('the state session is closed');
  }
}

function isEmpty(state: State): boolean {
  return Object.keys(state.resources).length === 0 && Object.keys(state.pending).length === 0;
}
