// Writing files so that a crash, a full disk or a hostile folder never leaves a half-written file
// under the real name, never writes through a symlink someone planted, and never leaves a
// temporary file behind. Every write goes to a new file with a random name beside the target,
// created with O_EXCL|O_NOFOLLOW (so an existing file or link at that name is never opened), is
// fsynced, and only then renamed or linked into place. A temporary file still on disk when the
// process exits (a signal's exit, an uncaught error) is removed by an exit hook.
import { randomBytes } from 'node:crypto';
import { constants, unlinkSync } from 'node:fs';
import { link, open, rename, unlink } from 'node:fs/promises';
import path from 'node:path';
import { hasCode } from './error-code.js';
import { fileError } from './file-errors.js';

const CREATE_NEW = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW;

/** A fresh name beside `target`; 64 random bits, so two writers never pick the same one. */
export function tempNameFor(target: string): string {
  return `${target}.tmp-${randomBytes(8).toString('hex')}`;
}

/** Temporary files this process created and has not yet renamed away or removed. */
const unsettled = new Set<string>();
let exitHookInstalled = false;

/** Marks `temp` as ours until settleTemp: whatever way the process exits, it is removed. */
export function trackTemp(temp: string): void {
  unsettled.add(temp);
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.once('exit', () => {
    for (const name of unsettled) {
      try {
        unlinkSync(name);
      } catch {
        // Never created, or already gone.
      }
    }
  });
}

/** `temp` was renamed into place or removed: no longer ours to clean up. */
export function settleTemp(temp: string): void {
  unsettled.delete(temp);
}

/** Removes `temp` (if it is there) and forgets it. */
export async function discardTemp(temp: string): Promise<void> {
  await unlink(temp).catch(() => undefined);
  settleTemp(temp);
}

/** Matches the names tempNameFor gives for `base` (a file name without its folder). */
export function isTempNameOf(base: string, name: string): boolean {
  return name.startsWith(`${base}.tmp-`) && /^[0-9a-f]{16}$/.test(name.slice(base.length + 5));
}

export interface WriteOptions {
  /** Mode of the new file (the umask still applies, so 0o666 means "the user's default"). */
  mode: number;
  /** fsync the file before it is put in place (default true). */
  sync?: boolean;
  /** Set `mode` exactly, ignoring the umask (to keep an existing file's mode). */
  exactMode?: boolean;
}

/** Writes `text` to a new temporary file beside `target` and returns its name; removes it on failure. */
export async function writeTemp(target: string, text: string, options: WriteOptions): Promise<string> {
  const temp = tempNameFor(target);
  // Tracked before it exists: the exit hook may run while open() is still in flight.
  trackTemp(temp);
  let handle;
  try {
    handle = await open(temp, CREATE_NEW, options.mode);
    if (options.exactMode) await handle.chmod(options.mode);
    await handle.writeFile(text, 'utf8');
    if (options.sync !== false) await handle.sync();
    await handle.close();
    return temp;
  } catch (err) {
    await handle?.close().catch(() => undefined);
    if (handle) await discardTemp(temp);
    else settleTemp(temp);
    throw fileError(err, target, 'write');
  }
}

/** Replaces `target` (or creates it) atomically: temp file, fsync, rename, fsync of the folder. */
export async function replaceFileAtomically(target: string, text: string, options: WriteOptions): Promise<void> {
  const temp = await writeTemp(target, text, options);
  try {
    await rename(temp, target);
    settleTemp(temp);
  } catch (err) {
    await discardTemp(temp);
    throw fileError(err, target, 'write');
  }
  await fsyncDir(path.dirname(target));
}

/**
 * Creates `target` with `text` only if nothing (not even a dangling symlink) has that name, and
 * never as a partial file: the complete temporary file is hard-linked to the name, which fails if
 * the name exists. Returns false when it existed.
 */
export async function createFileAtomically(target: string, text: string, options: WriteOptions): Promise<boolean> {
  const temp = await writeTemp(target, text, options);
  try {
    await link(temp, target);
  } catch (err) {
    if (hasCode(err, 'EEXIST')) return false;
    if (!hasCode(err, 'EPERM', 'ENOTSUP', 'EOPNOTSUPP', 'EXDEV', 'EMLINK')) throw fileError(err, target, 'write');
    // No hard links on this file system: create the name exclusively and write into it.
    return createDirectly(target, text, options);
  } finally {
    await discardTemp(temp);
  }
  await fsyncDir(path.dirname(target));
  return true;
}

async function createDirectly(target: string, text: string, options: WriteOptions): Promise<boolean> {
  let handle;
  try {
    handle = await open(target, CREATE_NEW, options.mode);
  } catch (err) {
    if (hasCode(err, 'EEXIST')) return false;
    throw fileError(err, target, 'write');
  }
  try {
    await handle.writeFile(text, 'utf8');
    if (options.sync !== false) await handle.sync();
  } catch (err) {
    await handle.close().catch(() => undefined);
    await unlink(target).catch(() => undefined);
    throw fileError(err, target, 'write');
  }
  await handle.close();
  return true;
}

/** Makes renames and creations in `dir` durable. Not every platform can fsync a folder. */
export async function fsyncDir(dir: string): Promise<void> {
  let handle;
  try {
    handle = await open(dir, 'r');
    await handle.sync();
  } catch (err) {
    if (!hasCode(err, 'EISDIR', 'EINVAL', 'EPERM', 'EBADF', 'ENOTSUP', 'EACCES')) throw err;
  } finally {
    await handle?.close();
  }
}
