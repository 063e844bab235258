// Reading a file a user names without trusting it: its bytes up to a limit, whatever size it
// announced (a pipe, /dev/stdin or /dev/zero says 0 and may never end), then decoded as UTF-8 with
// the place of the first bad byte. The manifest reader and the --var-file reader both read this
// way and each words the problems its own way (diagnostics, or one line).
import { readInto } from './descriptor.js';

/**
 * A file's bytes in chunks, until end of file. The announced size only sizes the chunks: a small
 * file (one part of a manifest folder) is read into a buffer its size, not a 256 KB one, which for
 * 200 parts was most of their reading time.
 */
export async function* chunksOf(fd: number, sizeHint: number): AsyncGenerator<Buffer> {
  const chunkSize = Math.min(256 * 1024, Math.max(4096, sizeHint + 1));
  for (;;) {
    const buffer = Buffer.allocUnsafe(chunkSize);
    const bytesRead = await readInto(fd, buffer);
    if (bytesRead === 0) return;
    yield buffer.subarray(0, bytesRead);
  }
}

/** Everything `source` gives, or undefined as soon as it passes `maxBytes` (the rest is never read). */
export async function readUpTo(source: AsyncIterable<Uint8Array | string>, maxBytes: number): Promise<Buffer | undefined> {
  const chunks: Buffer[] = [];
  let length = 0;
  for await (const chunk of source) {
    const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    length += bytes.length;
    if (length > maxBytes) return undefined;
    chunks.push(bytes);
  }
  return Buffer.concat(chunks, length);
}

/** Where decoding stopped: the bad byte, its offset, and its line and column counted in characters. */
export interface InvalidUtf8 {
  byte: number;
  offset: number;
  line: number;
  column: number;
}

/** The text without a leading BOM, or where the bytes stop being UTF-8. */
export function decodeUtf8(bytes: Uint8Array): { text: string } | { invalid: InvalidUtf8 } {
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes);
  } catch {
    return { invalid: firstInvalidUtf8(bytes) };
  }
  return { text: text.charCodeAt(0) === 0xfeff ? text.slice(1) : text };
}

/** The decoder's rules, byte by byte, counting lines and characters up to the first bad one. */
function firstInvalidUtf8(bytes: Uint8Array): InvalidUtf8 {
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
      // Overlong forms, surrogates and code points past U+10FFFF.
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
  return { byte: bytes[i] ?? 0, offset: i, line, column };
}

/**
 * The largest state, journal or saved plan agentsync reads. They are read whole into one string,
 * and past about 512 MB V8 cannot make one: a larger file would end in "internal error: Invalid
 * string length" after reading it all, instead of a sentence naming the file.
 */
export const MAX_STATE_FILE_BYTES = 256 * 1024 * 1024;

/** A size as a person reads it: "1024.0 MB", "300 bytes". */
export function sizeText(bytes: number | bigint): string {
  const n = Number(bytes);
  return n < 1024 * 1024 ? `${n} bytes` : `${(n / (1024 * 1024)).toFixed(1)} MB`;
}
