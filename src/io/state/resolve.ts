// What `--state` names, decided before anything is read or locked. A symlink is followed once,
// here, and everything afterwards works on its target: the state is replaced at the target, and
// the backup, journal and lock live beside the target. So two links to one state share one lock,
// and the link itself stays a link. Anything that is not a regular file (a directory, a FIFO, a
// device, a dangling link) is refused in one line.
import { lstat, readlink, realpath, stat } from 'node:fs/promises';
import path from 'node:path';
import { UserError } from '../../core/errors.js';
import { fileError } from '../files/file-errors.js';
import { hasCode } from './atomic-write.js';

/** The path the state is read from and written to: `statePath`, or the file its symlink names. */
export async function resolveStatePath(statePath: string): Promise<string> {
  let info;
  try {
    info = await lstat(statePath);
  } catch (err) {
    if (hasCode(err, 'ENOENT')) return statePath; // a new state
    throw fileError(err, statePath, 'read');
  }
  if (!info.isSymbolicLink()) return checkRegular(statePath, statePath, info);
  let target: string;
  try {
    target = await realpath(statePath);
  } catch (err) {
    if (hasCode(err, 'ENOENT')) {
      const points = await readlink(statePath).catch(() => '?');
      throw new UserError(
        'state_invalid',
        `state path ${statePath} is a symbolic link to ${points}, which does not exist; point the link at an existing state file, or pass the real path with --state`,
        { file: statePath },
      );
    }
    if (hasCode(err, 'ELOOP')) throw new UserError('state_invalid', `state path ${statePath} is a symbolic link that loops back on itself`, { file: statePath });
    throw fileError(err, statePath, 'read');
  }
  const targetInfo = await stat(target).catch((err: unknown) => Promise.reject(fileError(err, target, 'read')));
  return checkRegular(statePath, target, targetInfo);
}

function checkRegular(given: string, actual: string, info: { isFile(): boolean; isDirectory(): boolean }): string {
  if (info.isFile()) return actual;
  const via = given === actual ? '' : ` (a symbolic link to ${actual})`;
  if (info.isDirectory()) {
    throw new UserError('state_invalid', `state path ${given}${via} is a directory, not a state file; pass the file itself with --state, e.g. ${path.join(given, '<environment>.state.json')}`, {
      file: given,
    });
  }
  throw new UserError('state_invalid', `state path ${given}${via} is not a regular file (a device, FIFO or socket); pass a state file with --state`, { file: given });
}
