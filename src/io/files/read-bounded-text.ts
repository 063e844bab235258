// Reads a small text file a user names (a --var-file) defensively, as the manifest is read
// (bounded-bytes.ts): the size is checked before reading and again while reading, and the bytes
// must be UTF-8. A BOM is dropped. Problems are one line naming the file, not diagnostics.
import { UserError } from '../../core/errors.js';
import { chunksOf, decodeUtf8, readUpTo, sizeText } from './bounded-bytes.js';
import { closeFile, openToRead, statOf } from './descriptor.js';
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

export async function readBoundedText(file: string, options: BoundedTextOptions): Promise<string> {
  const fd = await openToRead(pathForRun(options.cwd, file)).catch((err: unknown) => Promise.reject(fileError(err, file, 'read')));
  try {
    const stat = await statOf(fd);
    const limit = `${formatMb(options.maxBytes)}; ${options.what} may be at most ${formatMb(options.maxBytes)}`;
    if (stat.isDirectory()) throw new UserError('file_error', `cannot read ${file}: it is a directory`, { file });
    if (stat.size > options.maxBytes) throw new UserError('usage', `${options.label}: the file is ${sizeText(stat.size)}; ${options.what} may be at most ${formatMb(options.maxBytes)}`, { file });
    const bytes = await readUpTo(chunksOf(fd, stat.size), options.maxBytes).catch((err: unknown) => Promise.reject(fileError(err, file, 'read')));
    if (bytes === undefined) throw new UserError('usage', `${options.label}: the file is larger than ${limit}`, { file });
    const decoded = decodeUtf8(bytes);
    if ('text' in decoded) return decoded.text;
    const { byte, offset, line, column } = decoded.invalid;
    throw new UserError('usage', `${options.label}:${line}:${column}: the file is not valid UTF-8 (byte 0x${byte.toString(16).padStart(2, '0')} at offset ${offset}); save it as UTF-8`);
  } finally {
    await closeFile(fd);
  }
}

const MB = 1024 * 1024;

function formatMb(bytes: number): string {
  return `${Math.round(bytes / MB)} MB`;
}
