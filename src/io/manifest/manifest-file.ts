// Reads agents.yaml defensively: size is checked before reading (and again while reading, since a
// pipe or /dev/stdin reports size 0), bytes must be UTF-8, a BOM is dropped. `-f -` reads stdin.
// Content problems become diagnostics (ManifestError) so they print like any other.
import { closeFile, openToRead, readInto, statOf } from '../files/descriptor.js';
import { pathForRun } from '../files/run-path.js';
import { ManifestError, type Diagnostic } from '../../core/diagnostics.js';
import { UserError } from '../../core/errors.js';

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

export async function readManifestFile(file: string, source: ManifestSource = {}): Promise<ManifestFile> {
  if (file === STDIN_PATH) {
    if (source.stdin === undefined) throw new UserError('usage', 'the manifest cannot be read from stdin here (-f -): there is no stdin');
    return { file: STDIN_NAME, text: decodeUtf8(STDIN_NAME, await readCapped(STDIN_NAME, source.stdin)) };
  }
  let fd;
  try {
    fd = await openToRead(pathForRun(source.cwd, file));
  } catch (err) {
    throw new UserError('manifest_unreadable', `cannot read manifest ${file}: ${reasonOf(err)}`, { file });
  }
  try {
    const stat = await statOf(fd);
    if (stat.isDirectory()) throw new UserError('manifest_unreadable', `cannot read manifest ${file}: it is a directory`, { file });
    if (stat.size > MAX_MANIFEST_BYTES) {
      throw new ManifestError([at(file, 1, 1, `the file is ${formatSize(stat.size)}; a manifest may be at most 10 MB`)]);
    }
    return { file, text: decodeUtf8(file, await readCapped(file, chunksOf(fd, stat.size))) };
  } finally {
    await closeFile(fd);
  }
}

/** Reads to the end, whatever size was announced, and stops as soon as the limit is passed. */
async function readCapped(file: string, source: AsyncIterable<Uint8Array | string>): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let length = 0;
  for await (const chunk of source) {
    const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    length += bytes.length;
    if (length > MAX_MANIFEST_BYTES) throw new ManifestError([at(file, 1, 1, 'the file is larger than 10 MB; a manifest may be at most 10 MB')]);
    chunks.push(bytes);
  }
  return Buffer.concat(chunks, length);
}

/**
 * A file's bytes in chunks, until end of file (a pipe's size is 0, so it cannot be read by size).
 * The announced size only sizes the chunks: a small file (one part of a manifest folder) is read
 * into a buffer its size, not a 256 KB one, which for 200 parts was most of their reading time.
 */
async function* chunksOf(fd: number, sizeHint: number): AsyncGenerator<Buffer> {
  const chunkSize = Math.min(256 * 1024, Math.max(4096, sizeHint + 1));
  for (;;) {
    const buffer = Buffer.allocUnsafe(chunkSize);
    const bytesRead = await readInto(fd, buffer);
    if (bytesRead === 0) return;
    yield buffer.subarray(0, bytesRead);
  }
}

function decodeUtf8(file: string, bytes: Uint8Array): string {
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes);
  } catch {
    const { offset, line, column } = firstInvalidUtf8(bytes);
    throw new ManifestError([at(file, line, column, `the file is not valid UTF-8 (byte 0x${(bytes[offset] ?? 0).toString(16).padStart(2, '0')} at offset ${offset}); save it as UTF-8`)]);
  }
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

/** Where decoding failed, as a line and a column counted in characters, for the diagnostic. */
function firstInvalidUtf8(bytes: Uint8Array): { offset: number; line: number; column: number } {
  let line = 1;
  let column = 1;
  let i = 0;
  while (i < bytes.length) {
    const b = bytes[i] ?? 0;
    const size = b < 0x80 ? 1 : b >= 0xc2 && b <= 0xdf ? 2 : b >= 0xe0 && b <= 0xef ? 3 : b >= 0xf0 && b <= 0xf4 ? 4 : 0;
    if (size === 0 || i + size > bytes.length) break;
    let ok = true;
    for (let k = 1; k < size; k++) if (((bytes[i + k] ?? 0) & 0xc0) !== 0x80) ok = false;
    if (size > 1 && ok) {
      // Reject overlong forms, surrogates and code points past U+10FFFF, like the decoder does.
      const b1 = bytes[i + 1] ?? 0;
      if ((b === 0xe0 && b1 < 0xa0) || (b === 0xed && b1 > 0x9f) || (b === 0xf0 && b1 < 0x90) || (b === 0xf4 && b1 > 0x8f)) ok = false;
    }
    if (!ok) break;
    if (b === 0x0a) {
      line++;
      column = 1;
    } else column++;
    i += size;
  }
  return { offset: i, line, column };
}

function at(file: string, line: number, column: number, message: string): Diagnostic {
  return { file, line, column, path: '', message, severity: 'error' };
}

function formatSize(bytes: number): string {
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

function reasonOf(err: unknown): string {
  const code = (err as { code?: string }).code;
  if (code === 'ENOENT') return 'no such file (create one with `agentsync init`, or pass -f <path>)';
  if (code === 'EACCES' || code === 'EPERM') return 'permission denied';
  if (code === 'EISDIR') return 'it is a directory';
  return err instanceof Error ? err.message : String(err);
}
