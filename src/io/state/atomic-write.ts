// Replacing the state file so that a crash at any instant leaves either the old or the new
// version under the state's name, never a mix, and the previous version under `.backup`.
import { constants } from 'node:fs';
import { chmod, copyFile, link, open, rename } from 'node:fs/promises';
import path from 'node:path';
import { discardTemp, fsyncDir, settleTemp, tempNameFor, trackTemp, writeTemp } from '../files/atomic-file.js';
import { hasCode } from '../files/error-code.js';
import { fileError, onFile } from '../files/file-errors.js';
import type { StateFiles } from './paths.js';

export { fsyncDir } from '../files/atomic-file.js';
export { hasCode, ignoreCode } from '../files/error-code.js';

export const STATE_FILE_MODE = 0o600;

/**
 * 1. write the new version to a new temporary file (random name, O_EXCL|O_NOFOLLOW) and fsync it;
 * 2. point `backup` at the current version (hard link, so the old bytes are never rewritten);
 * 3. rename the temporary file over the state and fsync the folder so the renames survive a power
 *    loss. On any failure the temporary files are removed and the state is untouched.
 */
export async function replaceStateFile(files: StateFiles, text: string, hasCurrent: boolean): Promise<void> {
  const temp = await writeTemp(files.state, text, { mode: STATE_FILE_MODE });
  try {
    if (hasCurrent) await keepAsBackup(files);
    await onFile(files.state, 'write', () => rename(temp, files.state));
    settleTemp(temp);
  } catch (err) {
    await discardTemp(temp);
    throw err;
  }
  await onFile(files.state, 'write', () => fsyncDir(path.dirname(files.state)));
}

async function keepAsBackup(files: StateFiles): Promise<void> {
  const temp = tempNameFor(files.backup);
  trackTemp(temp);
  try {
    try {
      await link(files.state, temp);
    } catch (err) {
      // Some file systems have no hard links; a copy is slower but just as safe.
      if (!hasCode(err, 'EPERM', 'ENOTSUP', 'EOPNOTSUPP', 'EXDEV', 'EMLINK')) throw err;
      await copyFile(files.state, temp, constants.COPYFILE_EXCL);
      const handle = await open(temp, constants.O_RDWR | constants.O_NOFOLLOW);
      await handle.sync().finally(() => handle.close());
    }
    await chmod(temp, STATE_FILE_MODE);
    await rename(temp, files.backup);
    settleTemp(temp);
  } catch (err) {
    await discardTemp(temp);
    throw fileError(err, files.backup, 'write');
  }
}
