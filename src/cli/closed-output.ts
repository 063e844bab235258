// A reader that goes away (`agentsync plan --json | head`, a closed terminal, a killed pager) must
// not stop the command. Node ignores SIGPIPE, so a write to a closed pipe fails with EPIPE, which
// the stream emits as an 'error' event; unhandled, that event crashes the process with a stack, and
// in the middle of an apply it would cut the run short between a call and its record. Here a
// closed stdout or stderr simply stops taking output: the command finishes (an apply records what
// it did), and the exit code stays the command's own.
import { DescriptorOutput, writesDirectly, type OutputFailure } from '../io/runtime/descriptor-output.js';
import type { OutputStream } from './cli-io.js';

/** Errors that mean "nobody reads this stream any more". */
const GONE = new Set(['EPIPE', 'ECONNRESET', 'ERR_STREAM_DESTROYED', 'ERR_STREAM_WRITE_AFTER_END']);

/**
 * The process's stdout and stderr (cli/entry.ts passes the process), each made on first use and
 * from then on dropping its output, quietly, once its reader is gone. A file, a pipe, a socket or
 * /dev/null is written directly (io/runtime/descriptor-output.ts), so Node's stream for it, which
 * costs a few milliseconds of start-up, is made only for a terminal (or if a full non-blocking pipe
 * needs it); a command that prints nothing to one makes nothing at all.
 */
export function outputThatOutlivesItsReader(proc: Pick<NodeJS.Process, 'stdout' | 'stderr' | 'platform'>): { readonly stdout: OutputStream; readonly stderr: OutputStream } {
  let stdout: OutputStream | undefined;
  let stderr: OutputStream | undefined;
  const warnOnStderr = (code: string): void => {
    // Any failure but a gone reader (EIO on a vanished terminal…) leaves the output just as
    // unusable; it is mentioned on stderr, and the rest of the output is dropped the same way.
    if (!GONE.has(code)) streams.stderr.write(`Warning: standard output failed (${code}); the rest of it is dropped.\n`);
  };
  const streams = {
    get stdout(): OutputStream {
      return (stdout ??= output(1, () => keepRunningWhenClosed(proc.stdout, warnOnStderr), warnOnStderr, proc.platform));
    },
    get stderr(): OutputStream {
      return (stderr ??= output(
        2,
        () => keepRunningWhenClosed(proc.stderr, undefined),
        () => undefined,
        proc.platform,
      ));
    },
  };
  return streams;
}

function output(fd: number, stream: () => NodeJS.WriteStream, onFailure: OutputFailure, platform: NodeJS.Platform): OutputStream {
  return writesDirectly(fd, platform) ? new DescriptorOutput(fd, stream, onFailure) : stream();
}

/** `onFailure` hears of a failure (the caller words it, if it is not a gone reader). */
function keepRunningWhenClosed(stream: NodeJS.WriteStream, onFailure: OutputFailure | undefined): NodeJS.WriteStream {
  stream.on('error', (err: NodeJS.ErrnoException) => {
    onFailure?.(err.code ?? err.message);
    discardFurtherWrites(stream);
  });
  return stream;
}

function discardFurtherWrites(stream: NodeJS.WritableStream): void {
  const discard = (_chunk: unknown, ...rest: unknown[]): boolean => {
    // Someone may wait for the write's callback (or 'drain'); answer at once so nothing hangs.
    const callback = rest.find((r): r is () => void => typeof r === 'function');
    if (callback) queueMicrotask(callback);
    return true;
  };
  stream.write = discard as typeof stream.write;
}
