// An open PostgreSQL state: the lock is held by this session's connection. record() resolves only
// once its journal row is committed; records that arrive while an INSERT is on its way share the
// next one, so a parallel apply costs one round trip per batch, not one per result.
import type { JournalEntry, State } from '../../../core/state.js';
import { JournaledSession } from '../journaled-session.js';
import { serializeState } from '../serialize.js';
import type { PgConnection } from './connection.js';
import { releasePgLock } from './lock.js';
import { APPEND, DROP_JOURNAL, WRITE_STATE } from './sql.js';

interface Queued {
  line: string;
  done: () => void;
  fail: (err: unknown) => void;
}

export class PgStateSession extends JournaledSession {
  private queue: Queued[] = [];
  private flushing: Promise<void> | null = null;

  constructor(
    private readonly conn: PgConnection,
    private readonly key: string,
    stored: State | null,
    start: State,
    journalRows: boolean,
  ) {
    super(stored, start, journalRows);
  }

  protected appendDurably(entry: JournalEntry): Promise<void> {
    return new Promise((done, fail) => {
      this.queue.push({ line: JSON.stringify(entry), done, fail });
      this.flushing ??= this.flushLoop();
    });
  }

  /** One statement writes the state row and deletes the journal rows it absorbed. */
  protected async persist(state: State): Promise<void> {
    await this.conn.query(WRITE_STATE, [this.key, state.lineage, state.serial, serializeState(state)]);
    this.hasJournal = false;
  }

  protected async dropJournal(): Promise<void> {
    await this.conn.query(DROP_JOURNAL, [this.key]);
  }

  protected async release(): Promise<void> {
    try {
      await releasePgLock(this.conn, this.key);
    } finally {
      await this.conn.end(); // ends the session, which frees the lock even if the release failed
    }
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
}
