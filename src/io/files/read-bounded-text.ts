// Reads a small text file a user names (a --var-file) defensively, as the manifest is read: the
// size is checked before reading and again while reading (a pipe or a device such as /dev/zero
// reports size 0 and may never end), and the bytes must be UTF-8. A BOM is dropped.
import { UserError } from '../../core/errors.js';
import { closeFile, openToRead, readInto, statOf } from './descriptor.js';
import { fileError } from './file-errors.js';
import { pathForRun } from './run-path.js';

export interface BoundedTextOptions {
  /** The largest file accepted, in bytes. */
  maxBytes: number;
  /** Names the file in messages, e.g. "--var-file vars.yaml". */
  label: string;
  /** Names the kind of file in the size message, e.g. "a var file". */
  what: string;
  /** The folder a relative `file` is in (default: the process's); messages name `file` as given. */
  cwd?: string;
}

const CHUNK_BYTES = 256 * 1024;

export async function readBoundedText(file: string, options: BoundedTextOptions): Promise<string> {
  const fd = await openToRead(pathForRun(options.cwd, file)).catch((err: unknown) => Promise.reject(fileError(err, file, 'read')));
  try {
    const stat = await statOf(fd);
    const limit = `${formatMb(options.maxBytes)}; ${options.what} may be at most ${formatMb(options.maxBytes)}`;
    if (stat.isDirectory()) throw new UserError('file_error', `cannot read ${file}: it is a directory`, { file });
    if (stat.size > options.maxBytes)
      throw new UserError('usage', `${options.label}: the file is ${(stat.size / MB).toFixed(1)} MB; ${options.what} may be at most ${formatMb(options.maxBytes)}`, { file });
    const chunks: Buffer[] = [];
    let length = 0;
    for (;;) {
      const buffer = Buffer.allocUnsafe(CHUNK_BYTES);
      const bytesRead = await readInto(fd, buffer).catch((err: unknown) => Promise.reject(fileError(err, file, 'read')));
      if (bytesRead === 0) break;
      length += bytesRead;
      if (length > options.maxBytes) throw new UserError('usage', `${options.label}: the file is larger than ${limit}`, { file });
      chunks.push(buffer.subarray(0, bytesRead));
    }
    return decodeUtf8(Buffer.concat(chunks, length), options.label);
  } finally {
    await closeFile(fd);
  }
}

const MB = 1024 * 1024;

function formatMb(bytes: number): string {
  return `${Math.round(bytes / MB)} MB`;
}

function decodeUtf8(bytes: Buffer, label: string): string {
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes);
  } catch {
    const offset = firstInvalidUtf8(bytes);
    // Everything before the bad byte is valid, so it decodes; its lines give the position.
    const before = bytes.subarray(0, offset).toString('utf8');
    const lineStart = before.lastIndexOf('\n') + 1;
    const line = before.split('\n').length;
    const column = before.length - lineStart + 1;
    throw new UserError('usage', `${label}:${line}:${column}: the file is not valid UTF-8 (byte 0x${(bytes[offset] ?? 0).toString(16).padStart(2, '0')} at offset ${offset}); save it as UTF-8`);
  }
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

/** The offset of the first byte that does not start a valid UTF-8 sequence (the decoder's rules). */
function firstInvalidUtf8(bytes: Uint8Array): number {
  let i = 0;
  while (i < bytes.length) {
    const b = bytes[i] ?? 0;
    const size = b < 0x80 ? 1 : b >= 0xc2 && b <= 0xdf ? 2 : b >= 0xe0 && b <= 0xef ? 3 : b >= 0xf0 && b <= 0xf4 ? 4 : 0;
    if (size === 0 || i + size > bytes.length) return i;
    for (let k = 1; k < size; k++) if (((bytes[i + k] ?? 0) & 0xc0) !== 0x80) return i;
    // Overlong forms, surrogates and code points past U+10FFFF.
    const b1 = bytes[i + 1] ?? 0;
    if ((b === 0xe0 && b1 < 0xa0) || (b === 0xed && b1 > 0x9f) || (b === 0xf0 && b1 < 0x90) || (b === 0xf4 && b1 > 0x8f)) return i;
    i += size;
  }
  return i;
}
