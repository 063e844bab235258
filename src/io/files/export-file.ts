// Writing an exported manifest: never over an existing file unless asked (--force), and never as a
// half-written file (io/files/atomic-file.ts).
import { pathForRun } from './run-path.js';
import { lstat, mkdir, stat, unlink } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { MAX_MANIFEST_PARTS, yamlFilesBelow } from '../manifest/manifest-parts.js';
import { AGENTS_FOLDER } from '../../core/export-split.js';
import { SCHEMA_FILE } from '../../core/starter-manifest.js';
import { UserError } from '../../core/errors.js';
import { escapeControl } from '../../core/terminal-safe.js';
import { createFileAtomically, replaceFileAtomically } from './atomic-file.js';
import { hasCode } from './error-code.js';
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

/**
 * `export --split DIR`: refuses, before the server is read, a folder that already holds manifest
 * files (unless --force), is a file, holds more YAML files than a manifest may (they could not all
 * be listed, nor removed), or where a folder the export writes into is a link.
 */
export async function checkExportFolder(dir: string, force: boolean, cwd?: string): Promise<void> {
  const existing = await yamlFilesIn(dir, cwd);
  await refuseFolderLinks(dir, [AGENTS_FOLDER], cwd);
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
  await refuseFolderLinks(dir, [...new Set(files.map((file) => dirname(file.path)).filter((folder) => folder !== '.'))], cwd);
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

/**
 * The manifest files below a folder; undefined when there is no folder; an error when it is a file,
 * cannot be listed, or holds more YAML files than a manifest may (taken for an empty folder, it was
 * written into without --force).
 */
async function yamlFilesIn(dir: string, cwd: string | undefined): Promise<string[] | undefined> {
  try {
    if (!(await stat(pathForRun(cwd, dir))).isDirectory()) throw new UserError('file_error', `${escapeControl(dir)} is a file; export --split writes a folder`, { file: dir });
  } catch (err) {
    if (hasCode(err, 'ENOENT')) return undefined;
    throw err instanceof UserError ? err : fileError(err, dir, 'write');
  }
  const files = await yamlFilesBelow(dir, cwd);
  if (files.length > MAX_MANIFEST_PARTS) {
    throw new UserError(
      'file_error',
      `${escapeControl(dir)} holds more than ${MAX_MANIFEST_PARTS.toLocaleString('en-US')} YAML files, more than a manifest may have; export --split writes into a new folder or a manifest folder`,
      { file: dir },
    );
  }
  return files;
}

/**
 * A folder the export writes into that is a link (`DIR/agents` pointing elsewhere) is refused, with
 * or without --force: the files would land in the folder it points to, replacing what is there,
 * and a manifest folder's links to folders are not read, so `plan -f DIR` would not see them.
 */
async function refuseFolderLinks(dir: string, folders: readonly string[], cwd: string | undefined): Promise<void> {
  for (const folder of folders) {
    let path = dir;
    for (const name of folder.split('/')) {
      path = join(path, name);
      const info = await lstat(pathForRun(cwd, path)).catch((err: unknown) => (hasCode(err, 'ENOENT') ? undefined : Promise.reject(fileError(err, path, 'write'))));
      if (info === undefined) break;
      if (info.isSymbolicLink()) {
        throw new UserError(
          'file_error',
          `${escapeControl(path)} is a link; export --split does not write through it (the files would replace what is where it points, and a manifest folder's links to folders are not read). Remove the link, or export into another folder`,
          { file: path },
        );
      }
    }
  }
}
