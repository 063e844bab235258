// Where the manifest is: one file, or many. `-f` takes a file or a folder and may be repeated; a
// folder stands for every *.yaml and *.yml file below it, in path order. Without -f it is
// $AGENTSYNC_MANIFEST, else agents.yaml, else an agents/ folder. The files are read with the same
// checks as one manifest file (size, UTF-8), and together they may be no bigger than one.
// (Naming the manifest and finding the default are in manifest-location.ts, which start-up and the
// public types reach without the YAML parser.)
import type { Dirent } from 'node:fs';
import { join, resolve } from 'node:path';
import { ManifestError } from '../../core/diagnostics.js';
import { UserError } from '../../core/errors.js';
import { escapeControl } from '../../core/terminal-safe.js';
import { mergeParts } from '../../core/merge-parts.js';
import { parseManifest, parseManifestPart, type ParsedManifest } from '../../core/parse.js';
import { decodeUtf8 } from '../files/bounded-bytes.js';
import { hasCode } from '../files/error-code.js';
import { readFolder, statPath } from '../files/descriptor.js';
import { pathForRun } from '../files/run-path.js';
import { manifestName, manifestPaths, type ManifestLocation } from './manifest-location.js';
import { MAX_MANIFEST_BYTES, readManifestFile, STDIN_PATH, TOTAL_TOO_LARGE, type ManifestFile, type ManifestSource, type ReadBudget } from './manifest-file.js';
import { appendAll } from '../../core/arrays.js';

/** More files than this in one manifest is a mistake (a folder of the wrong thing), not a manifest. */
export const MAX_MANIFEST_PARTS = 10_000;

/** Files read at once: enough to hide each one's open and close, few enough not to run out of handles. */
const READ_AT_ONCE = 16;

export interface ManifestRead {
  /** The manifest's name in messages: the file, or the folder or files as given. */
  name: string;
  files: ManifestFile[];
  /** Whether the files are parts of one manifest (a folder, or -f given more than once). */
  inParts: boolean;
  /** All of the manifest's text, for a saved plan's digest: a file's own text, or every part with its name. */
  text: string;
}

/** The files a manifest is made of, in order, and whether they are parts of one (a folder, or several given). */
export async function manifestFiles(location: ManifestLocation, cwd: string | undefined): Promise<{ paths: string[]; inParts: boolean; listed: ReadonlySet<string> }> {
  const given = manifestPaths(location);
  if (given.length === 0) throw new UserError('usage', 'no manifest given');
  const paths: string[] = [];
  const listed = new Set<string>();
  let folders = 0;
  for (const path of given) {
    const found = await filesAt(path, cwd);
    if (found.folder) folders++;
    appendAll(paths, found.files);
    if (found.folder) for (const file of found.files) listed.add(file);
  }
  refuseRepeats(paths, cwd);
  if (paths.length > MAX_MANIFEST_PARTS)
    throw new UserError('manifest_unreadable', `the manifest ${manifestName(location)} has ${paths.length} files; a manifest may have at most ${MAX_MANIFEST_PARTS}`);
  return { paths, inParts: given.length > 1 || folders > 0, listed };
}

export async function readManifest(location: ManifestLocation, source: ManifestSource = {}): Promise<ManifestRead> {
  const { paths, inParts, listed } = await manifestFiles(location, source.cwd);
  if (inParts) await refuseTotalOver(paths, source.cwd);
  const files = await readInOrder(paths, source, { listed, ...(inParts ? { budget: { bytesLeft: MAX_MANIFEST_BYTES } } : {}) });
  const first = files[0];
  const text = !inParts && first !== undefined ? first.text : files.map((file) => `--- ${file.file}\n${file.text}`).join('\n');
  return { name: inParts ? manifestName(location) : (first?.file ?? manifestName(location)), files, inParts, text };
}

/**
 * The parts' sizes as the file system gives them, added up before anything is read: 300 parts of
 * almost 10 MB each are refused at once, not after reading 3 GB. (A size that grows, or stdin's,
 * which has none, is held to the bound while reading.)
 */
async function refuseTotalOver(paths: readonly string[], cwd: string | undefined): Promise<void> {
  let bytes = 0;
  for (const path of paths) {
    if (path === STDIN_PATH) continue;
    // A file that cannot be looked at is reported when it is read, in the usual words.
    const size = await statPath(pathForRun(cwd, path)).then(
      (info) => (info.isFile() ? info.size : 0),
      () => 0,
    );
    bytes += size;
    if (bytes > MAX_MANIFEST_BYTES) throw new ManifestError([{ file: path, line: 1, column: 1, path: '', message: TOTAL_TOO_LARGE, severity: 'error' }]);
  }
}

/** Files read a few at a time (a folder may hold hundreds of small ones), kept in path order; `budget` bounds them together. */
async function readInOrder(paths: readonly string[], source: ManifestSource, { listed, budget }: { listed: ReadonlySet<string>; budget?: ReadBudget }): Promise<ManifestFile[]> {
  const files: ManifestFile[] = new Array<ManifestFile>(paths.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < paths.length) {
      const index = next++;
      const path = paths[index] ?? '';
      files[index] = await readManifestFile(path, source, { listed: listed.has(path), ...(budget === undefined ? {} : { budget }) });
    }
  };
  await Promise.all(Array.from({ length: Math.min(READ_AT_ONCE, paths.length) }, worker));
  return files;
}

/** One file is a whole manifest; parts are parsed as parts (no key required) and merged. */
export function parseManifestRead(read: ManifestRead): ParsedManifest {
  if (!read.inParts) {
    const [only] = read.files;
    if (only !== undefined) return parseManifest(only.file, only.text);
  }
  return mergeParts(
    read.name,
    read.files.map((file) => parseManifestPart(file.file, file.text)),
  );
}

/** A file as given, or a folder's YAML files in path order; `-` (stdin) is a file. */
async function filesAt(path: string, cwd: string | undefined): Promise<{ files: string[]; folder: boolean }> {
  if (path === STDIN_PATH) return { files: [path], folder: false };
  let isFolder = false;
  try {
    isFolder = (await statPath(pathForRun(cwd, path))).isDirectory();
  } catch {
    // Missing or unreadable: reading it as a file says why, in the usual words.
  }
  if (!isFolder) return { files: [path], folder: false };
  const files = await yamlFilesBelow(path, cwd);
  if (files.length === 0) throw new UserError('manifest_unreadable', `cannot read manifest ${escapeControl(path)}: the folder holds no *.yaml or *.yml file`, { file: path });
  return { files, folder: true };
}

/**
 * Every *.yaml and *.yml below a folder, sorted by path; past MAX_MANIFEST_PARTS it stops, one file
 * over. Names starting with a dot (.git, .github, .agentsync, editor files) and node_modules are
 * skipped (`-f .` in a project's root must not read its packages' YAML), and so are links to
 * folders, which could loop.
 */
export async function yamlFilesBelow(folder: string, cwd: string | undefined): Promise<string[]> {
  const out: string[] = [];
  const visit = async (dir: string): Promise<void> => {
    let entries: { name: string; entry: Dirent<Buffer> }[];
    try {
      entries = namedEntries(dir, await readFolder(pathForRun(cwd, dir)));
    } catch (err) {
      if (err instanceof UserError) throw err;
      throw new UserError('manifest_unreadable', `cannot read manifest folder ${escapeControl(dir)}: ${escapeControl((err as Error).message)}`, { file: dir });
    }
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const { name, entry } of entries) {
      const path = join(dir, name);
      if (entry.isDirectory()) await visit(path);
      else if (/\.ya?ml$/i.test(name) && (entry.isFile() || (entry.isSymbolicLink() && (await isLinkedFile(path, cwd))))) out.push(path);
      if (out.length > MAX_MANIFEST_PARTS) return;
    }
  };
  await visit(folder);
  return out;
}

/**
 * The entries a manifest folder may hold a part in, by name: not a dot name or node_modules. A name
 * that is not UTF-8 cannot be a path agentsync reads; a file or folder so named that could hold a
 * part is refused, saying which byte (read as a string, it would be missing, not misnamed).
 */
function namedEntries(dir: string, entries: readonly Dirent<Buffer>[]): { name: string; entry: Dirent<Buffer> }[] {
  const named: { name: string; entry: Dirent<Buffer> }[] = [];
  for (const entry of entries) {
    const bytes = entry.name;
    if (bytes[0] === 0x2e || bytes.equals(NODE_MODULES)) continue;
    const name = utf8Name(bytes);
    if (name !== undefined) {
      named.push({ name, entry });
      continue;
    }
    if (!entry.isDirectory() && !/\.ya?ml$/i.test(bytes.toString('latin1'))) continue;
    const decoded = decodeUtf8(bytes);
    const offset = 'invalid' in decoded ? decoded.invalid.offset : 0;
    throw new UserError(
      'manifest_unreadable',
      `cannot read manifest folder ${escapeControl(dir)}: the name of ${escapeControl(
        join(
          dir,
          bytes.toString('latin1').replace(/[\x80-\xff]/g, (c) => `\\x${c.charCodeAt(0).toString(16)}`),
        ),
      )} is not UTF-8 (byte 0x${(bytes[offset] ?? 0).toString(16).padStart(2, '0')} at offset ${offset}); rename it`,
      { file: dir },
    );
  }
  return named;
}

const NODE_MODULES = Buffer.from('node_modules');
const NAME_DECODER = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** The name as a string, exactly (a leading U+FEFF kept), or undefined when it is not UTF-8. */
function utf8Name(bytes: Buffer): string | undefined {
  try {
    return NAME_DECODER.decode(bytes);
  } catch {
    return undefined;
  }
}

/**
 * Whether a link named like a part leads to a file (a link to a folder is skipped, as folder links
 * are). A link that leads nowhere is refused: skipping it would drop that part's resources from
 * the manifest without a word, and plan them away (a shared file not checked out, a moved target).
 */
async function isLinkedFile(path: string, cwd: string | undefined): Promise<boolean> {
  try {
    return (await statPath(pathForRun(cwd, path))).isFile();
  } catch (err) {
    const why = hasCode(err, 'ENOENT') ? 'it is a link to a file that does not exist' : `it is a link that cannot be followed (${escapeControl((err as Error).message)})`;
    throw new UserError('manifest_unreadable', `cannot read manifest ${escapeControl(path)}: ${why}; fix or remove the link`, { file: path });
  }
}

/** A file named twice (`-f a.yaml -f .`) would define everything in it twice: say so plainly instead. */
function refuseRepeats(paths: readonly string[], cwd: string | undefined): void {
  const seen = new Map<string, string>();
  for (const path of paths) {
    if (path === STDIN_PATH) continue;
    const key = resolve(cwd ?? '', path);
    const earlier = seen.get(key);
    if (earlier !== undefined)
      throw new UserError('usage', `the manifest file ${escapeControl(path)} is given twice${earlier === path ? '' : ` (also as ${escapeControl(earlier)})`}; give each file or folder once`);
    seen.set(key, path);
  }
}
