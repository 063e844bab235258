// Writing an exported manifest: never over an existing file unless asked (--force), and never as a
// half-written file (io/files/atomic-file.ts).
import { pathForRun } from './run-path.js';
import { lstat, mkdir, stat, unlink } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { manifestFiles } from '../manifest/manifest-parts.js';
import { SCHEMA_FILE } from '../../core/starter-manifest.js';
import { UserError } from '../../core/errors.js';
import { escapeControl } from '../../core/terminal-safe.js';
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

/** `export --split DIR`: refuses, before the server is read, a folder that already holds manifest files (unless --force) or is a file. */
export async function checkExportFolder(dir: string, force: boolean, cwd?: string): Promise<void> {
  const existing = await yamlFilesIn(dir, cwd);
  if (existing === undefined || existing.length === 0 || force) return;
  throw new UserError(
    'file_error',
    `${escapeControl(dir)} already holds manifest files (${escapeControl(existing[0] ?? '')}${existing.length > 1 ? ` and ${existing.length - 1} more` : ''}); export does not overwrite them (pass --force to replace them)`,
    { file: dir },
  );
}

/**
 * Writes the parts of a split export, each file atomically. With --force, the folder's other YAML
 * files are removed first: left in place they would be parts of the manifest too, defining what the
 * export now defines a second time. Returns the files removed.
 */
export async function writeExportFolder(dir: string, files: readonly { path: string; text: string }[], force: boolean, cwd?: string): Promise<string[]> {
  const written = new Set(files.map((file) => join(dir, file.path)));
  const stale = force ? ((await yamlFilesIn(dir, cwd)) ?? []).filter((path) => !written.has(path)) : [];
  for (const path of stale) await unlink(pathForRun(cwd, path));
  for (const file of files) {
    const path = join(dir, file.path);
    const at = pathForRun(cwd, path);
    await mkdir(dirname(at), { recursive: true }).catch((err: unknown) => {
      throw fileError(err, dirname(path), 'write');
    });
    if (force) await replaceFileAtomically(at, file.text, { mode: 0o666 });
    else if (!(await createFileAtomically(at, file.text, { mode: 0o666 }))) throw exists(path);
  }
  return stale;
}

/** The manifest files below a folder; undefined when there is no folder; an error when it is a file. */
async function yamlFilesIn(dir: string, cwd: string | undefined): Promise<string[] | undefined> {
  try {
    if (!(await stat(pathForRun(cwd, dir))).isDirectory()) throw new UserError('file_error', `${dir} is a file; export --split writes a folder`, { file: dir });
  } catch (err) {
    if (hasCode(err, 'ENOENT')) return undefined;
    throw err instanceof UserError ? err : fileError(err, dir, 'write');
  }
  try {
    return (await manifestFiles(dir, cwd)).paths;
  } catch (err) {
    // A folder with no YAML file in it is empty as far as a manifest goes.
    if (err instanceof UserError && err.code === 'manifest_unreadable') return [];
    throw err;
  }
}
