// An open PostgreSQL state: the lock is held by this session's connection. record() resolves only
// once its journal row is committed; records that arrive while an INSERT is on its way share the
// next one, so a parallel apply costs one round trip per batch, not one per result.
import type { JournalEntry, State } from '../../../core/state.js';
import { JournaledSession } from '../journaled-session.js';
import { GroupCommit } from '../group-commit.js';
import { serializeState } from '../serialize.js';
import type { PgConnection } from './connection.js';
import { releasePgLock } from './lock.js';
import { APPEND, DROP_JOURNAL, WRITE_STATE } from './sql.js';

export class PgStateSession extends JournaledSession {
  // A failed INSERT fails its own batch only: nothing is torn, and the connection decides the rest.
  private readonly commits = new GroupCommit({ write: async (lines) => void (await this.conn.query(APPEND, [this.key, lines])) });

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
    return this.commits.push(JSON.stringify(entry));
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
}
