// The lock on one PostgreSQL state: a session-level advisory lock, so the server releases it when
// the holding connection ends, however its process ended. The holder writes who it is into
// agentsync_locks, so a refused run can name it (host, pid, start time).
import { hostname } from 'node:os';
import { UserError } from '../../../core/errors.js';
import type { PgConnection } from './connection.js';
import { sessionFailure, sqlState } from './errors.js';
import { advisoryKey, FIND_HOLDER, lockOids, RECORD_HOLDER, RELEASE, TRY_LOCK, WAIT_LOCK } from './sql.js';

const ATTEMPTS = 5;

export async function acquirePgLock(conn: PgConnection, key: string, location: string, timeoutMs: number): Promise<void> {
  const lockKey = advisoryKey(key);
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    if (await tryOnce(conn, lockKey, timeoutMs)) {
      await conn.query(RECORD_HOLDER, [key, process.pid, hostname(), new Date().toISOString()]);
      return;
    }
    const holder = await findHolder(conn, key);
    if (holder !== null) throw lockedError(location, holder, timeoutMs);
    // Released between our attempt and the look-up: try again.
  }
  throw lockedError(location, { kind: 'unknown' }, timeoutMs);
}

export async function releasePgLock(conn: PgConnection, key: string): Promise<void> {
  await conn.query(RELEASE, [key, advisoryKey(key)]);
}

async function tryOnce(conn: PgConnection, lockKey: string, timeoutMs: number): Promise<boolean> {
  if (timeoutMs <= 0) return (await conn.query<{ locked: boolean }>(TRY_LOCK, [lockKey])).rows[0]?.locked === true;
  // The server waits (and wakes us the moment the holder ends); lock_timeout bounds the wait.
  await conn.query(`SET lock_timeout = ${Math.ceil(timeoutMs)}`);
  try {
    await conn.queryRaw(WAIT_LOCK, [lockKey]);
    return true;
  } catch (err) {
    if (sqlState(err) === '55P03') return false; // lock_not_available: the timeout passed
    throw sessionFailure(err, conn.url);
  } finally {
    if (conn.failure === null) await conn.query('SET lock_timeout = 0');
  }
}

type Holder = { kind: 'known'; pid: number; host: string; since: string } | { kind: 'unknown'; backendPid?: number };

/** The current holder; null when nobody holds the lock any more. */
async function findHolder(conn: PgConnection, key: string): Promise<Holder | null> {
  const [classid, objid] = lockOids(key);
  // The holder writes its row right after taking the lock; give a fresh holder a moment to do so.
  for (let i = 0; i < 10; i++) {
    const rows = (await conn.query<{ backend_pid: number; pid: number | null; host: string | null; since: Date | null }>(FIND_HOLDER, [classid, objid, key])).rows;
    const row = rows[0];
    if (row === undefined) return null;
    if (row.pid !== null && row.host !== null && row.since !== null) return { kind: 'known', pid: row.pid, host: row.host, since: row.since.toISOString() };
    if (i === 9) return { kind: 'unknown', backendPid: row.backend_pid };
    await new Promise((resolve) => setTimeout(resolve, 30));
  }
  return { kind: 'unknown' };
}

function lockedError(location: string, holder: Holder, timeoutMs: number): UserError {
  const waited = timeoutMs > 0 ? ` (waited ${formatSeconds(timeoutMs)})` : '';
  const hint = timeoutMs > 0 ? 'Wait for it to finish, or give a longer --lock-timeout.' : 'Wait for it to finish, or pass --lock-timeout <seconds> to wait for it.';
  const release = 'The lock is released as soon as that process ends, however it ends.';
  if (holder.kind === 'unknown') {
    const session = holder.backendPid === undefined ? 'another session' : `PostgreSQL session ${holder.backendPid}`;
    return new UserError('state_locked', `state ${location} is locked by ${session}, which did not say who it is${waited}. ${hint} ${release}`, { state: location });
  }
  const { pid, host, since } = holder;
  return new UserError('state_locked', `state locked by pid ${pid} on ${host} since ${since}; another agentsync run is using ${location}${waited}. ${hint} ${release}`, {
    state: location,
    pid,
    host,
    since,
  });
}

function formatSeconds(ms: number): string {
  const s = ms / 1000;
  return `${Number.isInteger(s) ? s : s.toFixed(1)} s`;
}
