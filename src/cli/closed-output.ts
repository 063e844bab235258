// A reader that goes away (`agentsync plan --json | head`, a closed terminal, a killed pager) must
// not stop the command. Node ignores SIGPIPE, so a write to a closed pipe fails with EPIPE, which
// the stream emits as an 'error' event; unhandled, that event crashes the process with a stack, and
// in the middle of an apply it would cut the run short between a call and its record. Here a
// closed stdout or stderr simply stops taking output: the command finishes (an apply records what
// it did), and the exit code stays the command's own.

/** Errors that mean "nobody reads this stream any more". */
const GONE = new Set(['EPIPE', 'ECONNRESET', 'ERR_STREAM_DESTROYED', 'ERR_STREAM_WRITE_AFTER_END']);

/**
 * The process's stdout and stderr (cli/entry.ts passes the process), each made on first use and
 * from then on dropping its output, quietly, once its reader is gone. Node makes a stream when
 * it is first read (a pipe's costs a few milliseconds of start-up), and a command that prints
 * nothing to one never makes it.
 */
export function outputThatOutlivesItsReader(proc: Pick<NodeJS.Process, 'stdout' | 'stderr'>): { readonly stdout: NodeJS.WriteStream; readonly stderr: NodeJS.WriteStream } {
  let stdout: NodeJS.WriteStream | undefined;
  let stderr: NodeJS.WriteStream | undefined;
  const streams = {
    get stdout(): NodeJS.WriteStream {
      return (stdout ??= keepRunningWhenClosed(proc.stdout, () => streams.stderr));
    },
    get stderr(): NodeJS.WriteStream {
      return (stderr ??= keepRunningWhenClosed(proc.stderr, undefined));
    },
  };
  return streams;
}

/** `warnTo` is where a failure other than a gone reader is mentioned (stderr, for stdout). */
function keepRunningWhenClosed(stream: NodeJS.WriteStream, warnTo: (() => NodeJS.WriteStream) | undefined): NodeJS.WriteStream {
  stream.on('error', (err: NodeJS.ErrnoException) => {
    // Any other write error (EIO on a vanished terminal…) leaves the stream just as unusable;
    // there is nowhere left to report it, so the output is dropped the same way.
    if (!GONE.has(err.code ?? '') && warnTo) warnTo().write(`Warning: standard output failed (${err.code ?? err.message}); the rest of it is dropped.\n`);
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
