// SIGINT and SIGTERM during an apply. Until changes start, stopping is as safe as a crash (the state
// store is built for that), so the run ends at once and the lock is released. Once changes run, the
// first signal stops cleanly: no new call starts, the calls in flight get a few seconds to finish
// and be recorded, then they are abandoned; the summary says what remains. A second signal exits
// at once (cli/entry.ts). Exit codes follow the shell's convention (exit-codes.ts). The
// signals arrive as the run's abort signal (CliIo.signal), so a test stops a run the same way.
import { setMaxListeners } from 'node:events';
import type { CliIo, StopSignal } from './cli-io.js';

export const STOP_GRACE_MS = 5_000;

export interface InterruptWatch {
  /** Aborted at the first signal: start nothing new. */
  readonly stop: AbortSignal;
  /** Aborted STOP_GRACE_MS after it: abandon what is still in flight. */
  readonly cancel: AbortSignal;
  /** Resolves to the signal when one arrives before changes start: the run ends at once. */
  readonly halted: Promise<StopSignal>;
  /** The first signal received, if any. */
  received(): StopSignal | undefined;
  /** From now on the first signal stops cleanly instead of ending the run at once. */
  enterGracefulPhase(): void;
  dispose(): void;
}

export interface InterruptOptions {
  /** Says what happens, on stderr; called once per signal. */
  say: (text: string) => void;
  graceMs?: number;
}

export function watchInterrupts(io: Pick<CliIo, 'signal' | 'trapStops'>, options: InterruptOptions): InterruptWatch {
  const stop = new AbortController();
  const cancel = new AbortController();
  // Every call in flight listens to `cancel`: with --concurrency above 10 that is no leak.
  setMaxListeners(0, stop.signal, cancel.signal);
  let first: StopSignal | undefined;
  let graceful = false;
  let graceTimer: ReturnType<typeof setTimeout> | undefined;
  const graceMs = options.graceMs ?? STOP_GRACE_MS;
  let halt!: (signal: StopSignal) => void;
  const halted = new Promise<StopSignal>((resolve) => (halt = resolve));
  const release = io.trapStops?.('Calls that were in flight may have reached the server; the next plan shows where things stand.');

  const onAbort = (): void => {
    const signal: StopSignal = io.signal.reason === 'SIGTERM' ? 'SIGTERM' : 'SIGINT';
    first = signal;
    if (!graceful) {
      options.say(`\nInterrupted (${signal}) before any change was made; nothing was changed.\n`);
      // Whatever was in flight (a read, the lock) is abandoned; the lock is released on the way out.
      cancel.abort();
      stop.abort();
      halt(signal);
      return;
    }
    options.say(`\nInterrupted (${signal}): no new change will start; waiting up to ${Math.round(graceMs / 1000)} s for the calls in flight. Press Ctrl-C again to exit at once.\n`);
    stop.abort();
    graceTimer = setTimeout(() => cancel.abort(), graceMs);
  };
  if (io.signal.aborted) queueMicrotask(onAbort);
  else io.signal.addEventListener('abort', onAbort, { once: true });

  return {
    stop: stop.signal,
    cancel: cancel.signal,
    halted,
    received: () => first,
    enterGracefulPhase() {
      graceful = true;
    },
    dispose() {
      io.signal.removeEventListener('abort', onAbort);
      release?.();
      if (graceTimer) clearTimeout(graceTimer);
    },
  };
}
