// Replaces a user's file in place, the way an editor saves: atomically, keeping its mode, and
// through a symlink to the file it points at (the link itself stays a link).
import { realpath, stat } from 'node:fs/promises';
import { pathForRun } from './run-path.js';
import { replaceFileAtomically } from './atomic-file.js';
import { fileError } from './file-errors.js';

export async function rewriteFile(path: string, text: string, cwd?: string): Promise<void> {
  const target = await realpath(pathForRun(cwd, path)).catch((err: unknown) => Promise.reject(fileError(err, path, 'write')));
  const info = await stat(target).catch((err: unknown) => Promise.reject(fileError(err, path, 'write')));
  await replaceFileAtomically(target, text, { mode: info.mode & 0o777, exactMode: true });
}
