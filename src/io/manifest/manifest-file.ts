// Reads agents.yaml defensively: size is checked before reading (and again while reading, since a
// pipe or /dev/stdin reports size 0), bytes must be UTF-8, a BOM is dropped. `-f -` reads stdin.
// Content problems become diagnostics (ManifestError) so they print like any other.
import { chunksOf, decodeUtf8, readUpTo } from '../files/bounded-bytes.js';
import { closeFile, openToRead, statOf } from '../files/descriptor.js';
import { pathForRun } from '../files/run-path.js';
import { ManifestError, type Diagnostic } from '../../core/diagnostics.js';
import { UserError } from '../../core/errors.js';
import { escapeControl } from '../../core/terminal-safe.js';

export const MAX_MANIFEST_BYTES = 10 * 1024 * 1024;

/** `-f -` reads the manifest from stdin; diagnostics then name it like this. */
export const STDIN_PATH = '-';
export const STDIN_NAME = '<stdin>';

export interface ManifestFile {
  file: string;
  text: string;
}

/**
 * Where a run reads its manifest from: relative paths are relative to `cwd`, and `-f -` reads
 * `stdin`. Messages keep naming the file as it was given.
 */
export interface ManifestSource {
  cwd?: string;
  stdin?: AsyncIterable<Uint8Array | string>;
}

/**
 * What the files of a manifest in parts may still add up to, shared by the files read at once: each
 * chunk is taken from it as it arrives, so reading stops at the bound, not after every file is read.
 */
export interface ReadBudget {
  bytesLeft: number;
}

export const TOTAL_TOO_LARGE = "the manifest's files come to more than 10 MB together; a manifest may be at most 10 MB";

export interface ReadOptions {
  /** What the manifest's files may still add up to, when they are parts of one. */
  budget?: ReadBudget;
  /** Found in a folder's listing: if it cannot be opened now, it is not a manifest to create. */
  listed?: boolean;
}

export async function readManifestFile(file: string, source: ManifestSource = {}, { budget, listed = false }: ReadOptions = {}): Promise<ManifestFile> {
  if (file === STDIN_PATH) {
    if (source.stdin === undefined) throw new UserError('usage', 'the manifest cannot be read from stdin here (-f -): there is no stdin');
    return { file: STDIN_NAME, text: decodeText(STDIN_NAME, await readCapped(STDIN_NAME, withinBudget(STDIN_NAME, source.stdin, budget))) };
  }
  let fd;
  try {
    fd = await openToRead(pathForRun(source.cwd, file));
  } catch (err) {
    throw new UserError('manifest_unreadable', `cannot read manifest ${escapeControl(file)}: ${reasonOf(err, listed)}`, { file });
  }
  try {
    const stat = await statOf(fd);
    if (stat.isDirectory()) throw new UserError('manifest_unreadable', `cannot read manifest ${escapeControl(file)}: it is a directory`, { file });
    if (stat.size > MAX_MANIFEST_BYTES) {
      throw new ManifestError([at(file, 1, 1, `the file is ${formatSize(stat.size)}; a manifest may be at most 10 MB`)]);
    }
    return { file, text: decodeText(file, await readCapped(file, withinBudget(file, chunksOf(fd, stat.size), budget))) };
  } finally {
    await closeFile(fd);
  }
}

/** `source`, each chunk taken from `budget`; past it, the error that names the whole manifest's size. */
async function* withinBudget(file: string, source: AsyncIterable<Uint8Array | string>, budget: ReadBudget | undefined): AsyncGenerator<Uint8Array | string> {
  for await (const chunk of source) {
    if (budget !== undefined) {
      budget.bytesLeft -= typeof chunk === 'string' ? Buffer.byteLength(chunk) : chunk.byteLength;
      if (budget.bytesLeft < 0) throw new ManifestError([at(file, 1, 1, TOTAL_TOO_LARGE)]);
    }
    yield chunk;
  }
}

async function readCapped(file: string, source: AsyncIterable<Uint8Array | string>): Promise<Buffer> {
  const bytes = await readUpTo(source, MAX_MANIFEST_BYTES);
  if (bytes === undefined) throw new ManifestError([at(file, 1, 1, 'the file is larger than 10 MB; a manifest may be at most 10 MB')]);
  return bytes;
}

function decodeText(file: string, bytes: Uint8Array): string {
  const decoded = decodeUtf8(bytes);
  if ('text' in decoded) return decoded.text;
  const { byte, offset, line, column } = decoded.invalid;
  throw new ManifestError([at(file, line, column, `the file is not valid UTF-8 (byte 0x${byte.toString(16).padStart(2, '0')} at offset ${offset}); save it as UTF-8`)]);
}

function at(file: string, line: number, column: number, message: string): Diagnostic {
  return { file, line, column, path: '', message, severity: 'error' };
}

function formatSize(bytes: number): string {
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

function reasonOf(err: unknown, listed: boolean): string {
  const code = (err as { code?: string }).code;
  if (code === 'ENOENT' && listed) return 'its folder lists it, but it cannot be opened (removed or renamed while agentsync read the folder?)';
  if (code === 'ENOENT') return 'no such file (create one with `agentsync init`, or pass -f <path>)';
  if (code === 'EACCES' || code === 'EPERM') return 'permission denied';
  if (code === 'EISDIR') return 'it is a directory';
  return err instanceof Error ? err.message : String(err);
}
