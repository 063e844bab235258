// The PostgreSQL state store: one row per state key in agentsync_states, the journal as rows in
// agentsync_journal, and a session-level advisory lock per key. Loaded only when a postgres:// URL
// is used, so the file backend never pays for the driver.
import { emptyState, type State } from '../../../core/state.js';
import { assertCopyAllowed } from '../copy-guard.js';
import { newLineage, newSalt } from '../digest.js';
import { serializeState } from '../serialize.js';
import type { CopyOptions, OpenOptions, StateBackend, StateStoreOptions, StateTarget, StateWarning } from '../store.js';
import { PgConnection } from './connection.js';
import { connectFailure } from './errors.js';
import { loadRows } from './load.js';
import { acquirePgLock, releasePgLock } from './lock.js';
import { PgStateSession } from './session.js';
import { CREATE_TABLES, TABLES_EXIST, WRITE_STATE } from './sql.js';
import type { PgUrl } from './url.js';
import { countOf } from '../../../core/plural.js';

export function createPgStateStore(url: PgUrl, key: string, location: string, options: StateStoreOptions = {}): StateBackend {
  const warn = options.onWarning ?? ((_w: StateWarning) => undefined);

  /** Connects, creates the tables if needed and takes the lock; the caller ends the connection. */
  async function lockedConnection(lockTimeoutMs: number): Promise<PgConnection> {
    const conn = await PgConnection.open(url);
    try {
      await ensureTables(conn);
      await acquirePgLock(conn, key, location, lockTimeoutMs);
      return conn;
    } catch (err) {
      await conn.end();
      throw err;
    }
  }

  return {
    location,

    async read(target) {
      const conn = await PgConnection.open(url);
      try {
        return (await loadRows(conn, key, location, target)).folded;
      } finally {
        await conn.end();
      }
    },

    async open(target: StateTarget, opts: OpenOptions = {}) {
      const conn = await lockedConnection(opts.lockTimeoutMs ?? 0);
      try {
        const loaded = await loadRows(conn, key, location, target);
        const start = loaded.folded ?? emptyState({ ...pickTarget(target), lineage: newLineage(), salt: opts.salt ?? newSalt() });
        const session = new PgStateSession(conn, key, loaded.stored, start, loaded.entries.length > 0);
        if (loaded.entries.length > 0) {
          warn({ code: 'journal_recovered', message: `recovered ${countOf(loaded.entries.length, 'result')} recorded by an earlier run that did not finish (${location})` });
          await session.commit();
        }
        return session;
      } catch (err) {
        await conn.end();
        throw err;
      }
    },

    async copyFrom(state: State, opts: CopyOptions = {}) {
      const conn = await lockedConnection(opts.lockTimeoutMs ?? 0);
      try {
        assertCopyAllowed((await loadRows(conn, key, location, {})).folded, location, opts.force === true);
        await conn.query(WRITE_STATE, [key, state.lineage, state.serial, serializeState(state)]);
        await releasePgLock(conn, key);
      } finally {
        await conn.end();
      }
    },
  };
}

async function ensureTables(conn: PgConnection): Promise<void> {
  const ready = (await conn.query<{ ready: boolean }>(TABLES_EXIST)).rows[0]?.ready === true;
  if (ready) return;
  try {
    await conn.queryRaw(CREATE_TABLES);
  } catch (err) {
    await conn.query('ROLLBACK').catch(() => undefined);
    throw connectFailure(err, conn.url);
  }
}

function pickTarget(target: StateTarget): StateTarget {
  return { environment: target.environment, appId: target.appId, region: target.region };
}
