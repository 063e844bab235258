// The lock that stops two runs from writing one state. It is a file created exclusively, holding
// who took it; a lock whose process died on this host is taken over, any other is respected.
// The lock is written whole under a temporary name and then hard-linked to the lock's name (which
// fails if a lock exists), so taking it stays exclusive and a lock is never empty or half-written,
// even on a full disk. An empty or torn lock is therefore debris from a crash (or from an older
// agentsync that ran out of space), and is taken over.
import { randomUUID } from 'node:crypto';
import { constants, readFileSync, unlinkSync } from 'node:fs';
import { link, open, readFile, rename, unlink } from 'node:fs/promises';
import { hostname } from 'node:os';
import { UserError } from '../../core/errors.js';
import { createFileAtomically } from '../files/atomic-file.js';
import { fileError } from '../files/file-errors.js';
import { sizeText } from '../files/bounded-bytes.js';
import { hasCode, ignoreCode, STATE_FILE_MODE } from './atomic-write.js';
import type { StateWarning } from './store.js';

export interface LockInfo {
  pid: number;
  host: string;
  /** ISO time the lock was taken. */
  since: string;
  /** Distinguishes our lock from a later one by the same pid. */
  token: string;
}

export interface HeldLock {
  readonly info: LockInfo;
  /** Removes the lock if it is still ours. Idempotent. */
  release(): Promise<void>;
}

const ATTEMPTS = 5;

export async function acquireLock(lockPath: string, statePath: string, onWarning: (w: StateWarning) => void): Promise<HeldLock> {
  const info: LockInfo = { pid: process.pid, host: hostname(), since: new Date().toISOString(), token: randomUUID() };
  const text = JSON.stringify(info) + '\n';
  let holder: Holder = { kind: 'gone' };
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    // Losing the lock on a power cut only makes it debris, so it is not fsynced.
    if (await createFileAtomically(lockPath, text, { mode: STATE_FILE_MODE, sync: false })) return heldLock(lockPath, info);
    holder = await readHolder(lockPath);
    if (holder.kind === 'gone') continue; // released between our attempt and the read
    if (holder.kind === 'debris') {
      if (await removeIfUnchanged(lockPath, holder.raw, info.token)) {
        onWarning({
          code: 'stale_lock_taken_over',
          message: `took over the lock on ${statePath}: ${lockPath} was ${holder.raw.trim() === '' ? 'empty' : 'cut short'}, left by a run that crashed or ran out of disk space`,
        });
      }
      continue;
    }
    if (holder.kind === 'held' && isDeadHere(holder.info)) {
      if (await removeIfUnchanged(lockPath, holder.raw, info.token)) {
        const { pid, host, since } = holder.info;
        onWarning({
          code: 'stale_lock_taken_over',
          message: `took over the lock on ${statePath} left by pid ${pid} on ${host} since ${since}; that process is no longer running`,
        });
      }
      continue;
    }
    break;
  }
  throw lockedError(lockPath, statePath, holder);
}

type Holder = { kind: 'gone' } | { kind: 'debris'; raw: string } | { kind: 'held'; info: LockInfo; raw: string };

/**
 * Who holds the lock. An older agentsync created the lock empty and wrote it a moment later, so
 * an empty or partial lock is re-read for 200 ms before it is judged debris.
 */
async function readHolder(lockPath: string): Promise<Holder> {
  let raw = '';
  for (let i = 0; i < 5; i++) {
    const read = await readLockFile(lockPath);
    if (read === null) return { kind: 'gone' };
    raw = read;
    const info = parseLockInfo(raw);
    if (info) return { kind: 'held', info, raw };
    await new Promise((resolve) => setTimeout(resolve, 40));
  }
  return { kind: 'debris', raw };
}

/** A lock holds one line of JSON (pid, host, start time, token): anything far larger is not one. */
const MAX_LOCK_BYTES = 64 * 1024;

/** The lock's text, null when there is none; a symlink, folder or FIFO there is refused, and so is a huge file. */
async function readLockFile(lockPath: string): Promise<string | null> {
  let handle;
  try {
    handle = await open(lockPath, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
    const info = await handle.stat();
    if (!info.isFile()) throw notALock(lockPath);
    if (info.size > MAX_LOCK_BYTES) {
      throw new UserError('state_locked', `lock ${lockPath} is ${sizeText(info.size)}, far more than a lock agentsync writes; if no agentsync run is using this state, remove it and try again`, {
        lock: lockPath,
      });
    }
    return await handle.readFile('utf8');
  } catch (err) {
    if (hasCode(err, 'ENOENT')) return null;
    if (hasCode(err, 'ELOOP', 'EISDIR')) throw notALock(lockPath);
    throw fileError(err, lockPath, 'read');
  } finally {
    await handle?.close();
  }
}

function notALock(lockPath: string): UserError {
  return new UserError('state_locked', `lock ${lockPath} is not a regular file (a symbolic link, folder or device); if no agentsync run is using this state, remove it and try again`, {
    lock: lockPath,
  });
}

function parseLockInfo(raw: string): LockInfo | null {
  try {
    const v = JSON.parse(raw) as Partial<LockInfo>;
    const ok = Number.isInteger(v.pid) && typeof v.host === 'string' && typeof v.since === 'string' && typeof v.token === 'string';
    return ok ? (v as LockInfo) : null;
  } catch {
    return null;
  }
}

function isDeadHere(holder: LockInfo): boolean {
  if (holder.host !== hostname()) return false; // we cannot see processes on other hosts
  try {
    process.kill(holder.pid, 0);
    return false;
  } catch (err) {
    return hasCode(err, 'ESRCH'); // EPERM: alive, owned by someone else
  }
}

/**
 * Removes a stale lock without racing another process that is taking it over too: move it aside
 * (atomic), and only delete what was moved if it is still the stale lock we judged. If someone
 * had already replaced it with a live lock, put that one back.
 */
async function removeIfUnchanged(lockPath: string, staleRaw: string, ourToken: string): Promise<boolean> {
  const aside = `${lockPath}.stale-${ourToken}`;
  try {
    await rename(lockPath, aside);
  } catch (err) {
    if (hasCode(err, 'ENOENT')) return false;
    throw err;
  }
  const moved = await readFile(aside, 'utf8');
  if (moved !== staleRaw) await link(aside, lockPath).catch(ignoreCode('EEXIST'));
  await unlink(aside);
  return moved === staleRaw;
}

/**
 * The locks this process holds, each lock file with its token. A run that ends through
 * process.exit() still releases them; a killed one leaves stale locks. One exit listener serves
 * them all: one per lock would pass Node's limit of ten at `--parallel 12` (or twelve library
 * applies at once) and print a MaxListenersExceededWarning.
 */
const heldHere = new Map<string, string>(); // token → lock file
let exitHookInstalled = false;

function releaseAllAtExit(): void {
  for (const [token, lockPath] of heldHere) releaseSync(lockPath, token);
}

function heldLock(lockPath: string, info: LockInfo): HeldLock {
  let released = false;
  heldHere.set(info.token, lockPath);
  if (!exitHookInstalled) {
    exitHookInstalled = true;
    process.once('exit', releaseAllAtExit);
  }
  return {
    info,
    async release() {
      if (released) return;
      released = true;
      heldHere.delete(info.token);
      const current = await readFile(lockPath, 'utf8').catch((err: unknown) => (hasCode(err, 'ENOENT') ? null : Promise.reject(err)));
      if (current !== null && parseLockInfo(current)?.token === info.token) await unlink(lockPath).catch(ignoreCode('ENOENT'));
    },
  };
}

function releaseSync(lockPath: string, token: string): void {
  try {
    if (parseLockInfo(readFileSync(lockPath, 'utf8'))?.token === token) unlinkSync(lockPath);
  } catch {
    // exiting anyway; a lock left behind is taken over by the next run on this host
  }
}

function lockedError(lockPath: string, statePath: string, holder: Holder): UserError {
  if (holder.kind !== 'held') {
    return new UserError(
      'state_locked',
      `state ${statePath} is locked, but the lock file ${lockPath} kept changing while agentsync tried to take it over. If no agentsync process is using this state, delete ${lockPath} and try again.`,
      { lock: lockPath },
    );
  }
  const { pid, host, since } = holder.info;
  return new UserError(
    'state_locked',
    `state locked by pid ${pid} on ${host} since ${since}; another agentsync run is using ${statePath}. ` + `Wait for it to finish; if that process is gone, delete ${lockPath} and try again.`,
    { lock: lockPath, pid, host, since },
  );
}
