// stdout and stderr written straight to their file descriptors. Node's process.stdout is a stream
// it makes on first use: for a file a SyncWriteStream, for a pipe or a socket a net.Socket, and
// either one loads Node's stream machinery (and net) first, 2–3 ms of every start that prints
// anything (BENCHMARKS.md, P3). Where the descriptor is a file, a pipe, a socket or /dev/null, a
// command's output is instead written here with fs.writeSync, as SyncWriteStream would write a
// file: synchronously, in order, and whole when the process exits. A terminal gets Node's own
// stream (the width, colours and prompts need it), and so does Windows, whose pipes are not
// descriptors.
// - A pipe someone else made non-blocking can refuse a write (EAGAIN) when it is full; the rest of
//   that write, and every later one, then goes through Node's stream, which waits for the reader.
// - A reader that goes away (EPIPE) or any other failure ends the output, as for the stream
//   (cli/closed-output.ts): the command goes on, and what it prints is dropped.
import { EventEmitter } from 'node:events';
import { fstatSync, statSync, writeSync } from 'node:fs';

type WriteCallback = (err?: Error | null) => void;

/** How a failed write is reported: the error's code, for the caller to word (and perhaps print elsewhere). */
export type OutputFailure = (code: string) => void;

/** Whether `fd` is one this module writes to (a file, a pipe, a socket or /dev/null) rather than a terminal or something unknown. */
export function writesDirectly(fd: number, platform: NodeJS.Platform): boolean {
  if (platform === 'win32') return false;
  try {
    const stat = fstatSync(fd);
    if (stat.isFile() || stat.isFIFO() || stat.isSocket()) return true;
    return stat.isCharacterDevice() && stat.rdev === statSync('/dev/null').rdev;
  } catch {
    return false;
  }
}

/** A WritableStream on a descriptor that writesDirectly() accepted; `makeStream` makes Node's stream for the same descriptor, if a write ever needs it. */
export class DescriptorOutput extends EventEmitter implements NodeJS.WritableStream {
  readonly isTTY = false;
  writable = true;
  #stream: NodeJS.WritableStream | undefined;
  /** A write failed other than with EAGAIN: later output is dropped, as for a stream whose reader has gone. */
  #failed = false;

  constructor(
    private readonly fd: number,
    private readonly makeStream: () => NodeJS.WritableStream,
    private readonly onFailure: OutputFailure,
  ) {
    super();
  }

  write(chunk: Uint8Array | string, cb?: WriteCallback): boolean;
  write(chunk: string, encoding?: BufferEncoding, cb?: WriteCallback): boolean;
  write(chunk: Uint8Array | string, encodingOrCallback?: BufferEncoding | WriteCallback, cb?: WriteCallback): boolean {
    const encoding = typeof encodingOrCallback === 'string' ? encodingOrCallback : 'utf8';
    const callback = typeof encodingOrCallback === 'function' ? encodingOrCallback : cb;
    if (!this.writable) return this.#refuseAfterEnd(callback);
    if (this.#stream) return typeof chunk === 'string' ? this.#stream.write(chunk, encoding, callback) : this.#stream.write(chunk, callback);
    if (!this.#failed) this.#writeAll(typeof chunk === 'string' ? Buffer.from(chunk, encoding) : chunk);
    if (callback) queueMicrotask(() => callback(null));
    return true;
  }

  end(cb?: () => void): this;
  end(chunk: Uint8Array | string, cb?: () => void): this;
  end(chunk: string, encoding?: BufferEncoding, cb?: () => void): this;
  end(chunkOrCallback?: Uint8Array | string | (() => void), encodingOrCallback?: BufferEncoding | (() => void), cb?: () => void): this {
    if (typeof chunkOrCallback === 'string') this.write(chunkOrCallback, typeof encodingOrCallback === 'string' ? encodingOrCallback : 'utf8');
    else if (chunkOrCallback instanceof Uint8Array) this.write(chunkOrCallback);
    const callback = [chunkOrCallback, encodingOrCallback, cb].find((arg): arg is () => void => typeof arg === 'function');
    // The descriptor is the process's own: it stays open for Node, as process.stdout's does.
    this.writable = false;
    if (callback) queueMicrotask(callback);
    return this;
  }

  /** What a Node stream does with a write after end(), less the 'error' event, which would throw with no listener: the chunk is dropped and the callback told. */
  #refuseAfterEnd(callback: WriteCallback | undefined): boolean {
    if (callback) {
      const error = Object.assign(new Error('write after end'), { code: 'ERR_STREAM_WRITE_AFTER_END' });
      queueMicrotask(() => callback(error));
    }
    return false;
  }

  #writeAll(bytes: Uint8Array): void {
    let offset = 0;
    while (offset < bytes.length) {
      try {
        offset += writeSync(this.fd, bytes, offset);
      } catch (err) {
        const code = (err as NodeJS.ErrnoException).code ?? String(err);
        if (code === 'EAGAIN') {
          this.#stream = this.makeStream();
          this.#stream.write(bytes.subarray(offset));
        } else {
          this.#failed = true;
          this.onFailure(code);
        }
        return;
      }
    }
  }
}
