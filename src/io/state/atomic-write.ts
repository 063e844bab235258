// Replacing the state file so that a crash at any instant leaves either the old or the new
// version under the state's name, never a mix, and the previous version under `.backup`.
import { constants } from 'node:fs';
import { chmod, copyFile, link, open, rename, unlink } from 'node:fs/promises';
import path from 'node:path';
import type { StateFiles } from './paths.js';

export const STATE_FILE_MODE = 0o600;

/**
 * 1. write the new version to `tmp` and fsync it;
 * 2. point `backup` at the current version (hard link, so the old bytes are never rewritten);
 * 3. rename `tmp` over the state and fsync the folder so the renames survive a power loss.
 */
export async function replaceStateFile(files: StateFiles, text: string, hasCurrent: boolean): Promise<void> {
  await writeDurably(files.tmp, text);
  if (hasCurrent) await keepAsBackup(files);
  await rename(files.tmp, files.state);
  await fsyncDir(path.dirname(files.state));
}

async function writeDurably(file: string, text: string): Promise<void> {
  const handle = await open(file, constants.O_WRONLY | constants.O_CREAT | constants.O_TRUNC, STATE_FILE_MODE);
  try {
    await handle.chmod(STATE_FILE_MODE); // a leftover tmp may have been created with other bits
    await handle.writeFile(text, 'utf8');
    await handle.sync();
  } finally {
    await handle.close();
  }
}

async function keepAsBackup(files: StateFiles): Promise<void> {
  await unlink(files.backupTmp).catch(ignoreCode('ENOENT'));
  try {
    await link(files.state, files.backupTmp);
  } catch (err) {
    // Some file systems have no hard links; a copy is slower but just as safe.
    if (!hasCode(err, 'EPERM', 'ENOTSUP', 'EOPNOTSUPP', 'EXDEV', 'EMLINK')) throw err;
    await copyFile(files.state, files.backupTmp);
    const handle = await open(files.backupTmp, 'r+');
    await handle.sync().finally(() => handle.close());
  }
  await chmod(files.backupTmp, STATE_FILE_MODE);
  await rename(files.backupTmp, files.backup);
}

/** Makes renames and creations in `dir` durable. Not every platform can fsync a folder. */
export async function fsyncDir(dir: string): Promise<void> {
  let handle;
  try {
    handle = await open(dir, 'r');
    await handle.sync();
  } catch (err) {
    if (!hasCode(err, 'EISDIR', 'EINVAL', 'EPERM', 'EBADF', 'ENOTSUP')) throw err;
  } finally {
    await handle?.close();
  }
}

export function hasCode(err: unknown, ...codes: string[]): boolean {
  return typeof err === 'object' && err !== null && codes.includes((err as { code?: unknown }).code as string);
}

export function ignoreCode(...codes: string[]): (err: unknown) => void {
  return (err) => {
    if (!hasCode(err, ...codes)) throw err;
  };
}
