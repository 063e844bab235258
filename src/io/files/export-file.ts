// Writing an exported manifest: never over an existing file unless asked (--force), and never as a
// half-written file (io/files/atomic-file.ts).
import { pathForRun } from './run-path.js';
import { lstat, stat } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { SCHEMA_FILE } from '../../core/starter-manifest.js';
import { UserError } from '../../core/errors.js';
import { createFileAtomically, hasCode, replaceFileAtomically } from './atomic-file.js';
import { fileError } from './file-errors.js';

/** Refuses before anything is read from the server, so a forgotten --force costs nothing. */
export async function checkExportTarget(path: string, force: boolean, cwd?: string): Promise<void> {
  if (force) return;
  try {
    await lstat(pathForRun(cwd, path));
  } catch (err) {
    if (hasCode(err, 'ENOENT')) return;
    throw fileError(err, path, 'write');
  }
  throw exists(path);
}

export async function writeExportFile(path: string, text: string, force: boolean, cwd?: string): Promise<void> {
  // 0o666 less the umask: a manifest is meant to be shared, and it holds no secret.
  const at = pathForRun(cwd, path);
  if (force) await replaceFileAtomically(at, text, { mode: 0o666 });
  else if (!(await createFileAtomically(at, text, { mode: 0o666 }))) throw exists(path);
}

function exists(path: string): UserError {
  return new UserError('file_error', `${path} already exists; export does not overwrite it (pass --force to replace it)`, { file: path });
}

/** Whether agentsync.schema.json sits in the folder an export goes to (`out`'s, or the run's for stdout). */
export async function schemaBeside(out: string | undefined, cwd?: string): Promise<boolean> {
  const folder = out === undefined ? '.' : dirname(out);
  return stat(pathForRun(cwd, join(folder, SCHEMA_FILE))).then(
    (info) => info.isFile(),
    () => false,
  );
}
