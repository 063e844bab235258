// Writes the starter files. A file that exists is never touched, except that .gitignore gets the
// lock line added when it lacks it. Every file appears whole or not at all (a complete temporary
// file is linked or renamed into place), and a name that exists, even as a dangling symlink, is
// never written through.
import { constants } from 'node:fs';
import { lstat, mkdir, open, realpath, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { UserError } from '../../core/errors.js';
import { createFileAtomically, replaceFileAtomically } from './atomic-file.js';
import { hasCode } from './error-code.js';
import { fileError } from './file-errors.js';
import { DEFAULT_MANIFEST_FILE, DEFAULT_MANIFEST_FOLDER } from '../manifest/manifest-location.js';

export type InitOutcome = 'created' | 'skipped' | 'appended' | 'present';

export interface InitResult {
  path: string;
  outcome: InitOutcome;
}

/**
 * The `agents/` folder in `dir`, when there is one: without -f it is the manifest unless an
 * agents.yaml exists, so init must not write one beside it (docs/spec/manifest.md).
 */
export async function manifestFolderIn(dir: string): Promise<string | undefined> {
  const folder = join(dir, DEFAULT_MANIFEST_FOLDER);
  try {
    return (await stat(folder)).isDirectory() ? folder : undefined;
  } catch (err) {
    if (hasCode(err, 'ENOENT') || hasCode(err, 'ENOTDIR')) return undefined;
    throw fileError(err, folder, 'read');
  }
}

/**
 * An `agents.yml` in `dir`, when there is one: agentsync reads it only with -f, so a team that keeps
 * its manifest there would find init's agents.yaml taking over every command run without -f.
 */
export async function ymlManifestIn(dir: string): Promise<string | undefined> {
  const file = join(dir, 'agents.yml');
  try {
    await lstat(file);
    return file;
  } catch (err) {
    if (hasCode(err, 'ENOENT') || hasCode(err, 'ENOTDIR')) return undefined;
    throw fileError(err, file, 'read');
  }
}

/** New files get the user's usual mode (0666 less the umask), as an editor would create them. */
const NEW_FILE_MODE = 0o666;

export async function initProject(dir: string, files: { manifest: string; schema: string; gitignoreLine: string; schemaFile: string }): Promise<InitResult[]> {
  try {
    await mkdir(dir, { recursive: true });
  } catch (err) {
    if (hasCode(err, 'EEXIST')) throw new UserError('file_error', `cannot initialise ${dir}: it is not a folder`, { file: dir });
    throw fileError(err, dir, 'write');
  }
  return [
    await createExclusive(join(dir, DEFAULT_MANIFEST_FILE), files.manifest),
    await createExclusive(join(dir, files.schemaFile), files.schema),
    await ensureLine(join(dir, '.gitignore'), files.gitignoreLine),
  ];
}

async function createExclusive(path: string, content: string): Promise<InitResult> {
  const created = await createFileAtomically(path, content, { mode: NEW_FILE_MODE });
  return { path, outcome: created ? 'created' : 'skipped' };
}

/**
 * Adds `line` to .gitignore unless it is there. An existing .gitignore is rewritten atomically
 * with its mode kept; a symlinked one is updated at its target (it is the user's own file).
 */
async function ensureLine(path: string, line: string): Promise<InitResult> {
  const existing = await readExisting(path);
  if (existing === null) {
    // A dangling symlink counts as existing: it is skipped, never written through.
    const created = await createFileAtomically(path, line + '\n', { mode: NEW_FILE_MODE });
    return { path, outcome: created ? 'created' : 'skipped' };
  }
  if (existing.text.split(/\r?\n/).some((l) => l.trim() === line)) return { path, outcome: 'present' };
  const separator = existing.text === '' || existing.text.endsWith('\n') ? '' : '\n';
  const target = await realpath(path).catch((err: unknown) => Promise.reject(fileError(err, path, 'read')));
  await replaceFileAtomically(target, existing.text + separator + line + '\n', { mode: existing.mode, exactMode: true });
  return { path, outcome: 'appended' };
}

/** The file's text and mode; null when it does not exist. Refuses anything but a regular file. */
async function readExisting(path: string): Promise<{ text: string; mode: number } | null> {
  let handle;
  try {
    handle = await open(path, constants.O_RDONLY | constants.O_NONBLOCK);
    const info = await handle.stat();
    if (!info.isFile()) throw new UserError('file_error', `cannot update ${path}: it is not a regular file`, { file: path });
    return { text: await handle.readFile('utf8'), mode: info.mode & 0o777 };
  } catch (err) {
    if (hasCode(err, 'ENOENT')) return null;
    throw fileError(err, path, 'read');
  } finally {
    await handle?.close();
  }
}
