// The PostgreSQL layout: one row per state (the same JSON as a state file), the journal as rows
// appended since the last commit, and who holds each state's advisory lock. Every statement the
// backend runs is here, so the layout can be read in one place.
import { createHash } from 'node:crypto';

/**
 * Created on first use. The transaction-scoped advisory lock makes concurrent first uses safe:
 * CREATE TABLE IF NOT EXISTS alone can still fail when two sessions create the same table at once.
 */
export const CREATE_TABLES = `
BEGIN;
SELECT pg_advisory_xact_lock(${advisoryKey('agentsync:create-tables')});
CREATE TABLE IF NOT EXISTS agentsync_states (
  key        text PRIMARY KEY,
  lineage    text NOT NULL,
  serial     bigint NOT NULL,
  body       text NOT NULL,
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE TABLE IF NOT EXISTS agentsync_journal (
  key   text NOT NULL,
  seq   bigserial NOT NULL,
  entry text NOT NULL,
  PRIMARY KEY (key, seq)
);
CREATE TABLE IF NOT EXISTS agentsync_locks (
  key         text PRIMARY KEY,
  pid         integer NOT NULL,
  host        text NOT NULL,
  since       timestamptz NOT NULL,
  backend_pid integer NOT NULL
);
COMMIT;`;

export const TABLES_EXIST = `
SELECT to_regclass('agentsync_states') IS NOT NULL
   AND to_regclass('agentsync_journal') IS NOT NULL
   AND to_regclass('agentsync_locks') IS NOT NULL AS ready`;

/** The state row and its journal, read in one statement so both come from one snapshot. */
export const LOAD = `
SELECT (SELECT body FROM agentsync_states WHERE key = $1) AS body,
       (SELECT coalesce(array_agg(entry ORDER BY seq), '{}') FROM agentsync_journal WHERE key = $1) AS entries`;

/** Appends a batch of journal lines in order: one round trip and one commit for the whole batch. */
export const APPEND = `
INSERT INTO agentsync_journal (key, entry)
SELECT $1, line FROM unnest($2::text[]) WITH ORDINALITY AS batch(line, n) ORDER BY n`;

/** Writes the folded state and drops the journal it absorbed, atomically (one statement). */
export const WRITE_STATE = `
WITH absorbed AS (DELETE FROM agentsync_journal WHERE key = $1)
INSERT INTO agentsync_states (key, lineage, serial, body) VALUES ($1, $2, $3, $4)
ON CONFLICT (key) DO UPDATE SET lineage = EXCLUDED.lineage, serial = EXCLUDED.serial, body = EXCLUDED.body, updated_at = now()`;

export const DROP_JOURNAL = `DELETE FROM agentsync_journal WHERE key = $1`;

export const TRY_LOCK = `SELECT pg_try_advisory_lock($1::bigint) AS locked`;
export const WAIT_LOCK = `SELECT pg_advisory_lock($1::bigint)`;

export const RECORD_HOLDER = `
INSERT INTO agentsync_locks (key, pid, host, since, backend_pid) VALUES ($1, $2, $3, $4, pg_backend_pid())
ON CONFLICT (key) DO UPDATE SET pid = EXCLUDED.pid, host = EXCLUDED.host, since = EXCLUDED.since, backend_pid = EXCLUDED.backend_pid`;

export const RELEASE = `
WITH gone AS (DELETE FROM agentsync_locks WHERE key = $1 AND backend_pid = pg_backend_pid())
SELECT pg_advisory_unlock($2::bigint)`;

/**
 * The session holding an advisory lock (pg_locks splits the bigint into two oids), and what it
 * wrote about itself. A holder row from a session that died is ignored: its backend pid differs.
 */
export const FIND_HOLDER = `
SELECT l.pid AS backend_pid, h.pid, h.host, h.since
FROM pg_locks l
LEFT JOIN agentsync_locks h ON h.key = $3 AND h.backend_pid = l.pid
WHERE l.locktype = 'advisory' AND l.granted AND l.objsubid = 1
  AND l.classid = $1::bigint::oid AND l.objid = $2::bigint::oid
  AND l.database = (SELECT oid FROM pg_database WHERE datname = current_database())`;

/** A stable signed 64-bit advisory lock key for a state key (as a decimal string for the driver). */
export function advisoryKey(key: string): string {
  return createHash('sha256').update(`agentsync-state\0${key}`).digest().readBigInt64BE(0).toString();
}

/** The two unsigned 32-bit halves under which pg_locks shows a bigint advisory lock. */
export function lockOids(key: string): [string, string] {
  const unsigned = BigInt.asUintN(64, BigInt(advisoryKey(key)));
  return [(unsigned >> 32n).toString(), (unsigned & 0xffffffffn).toString()];
}
