// SIGINT and SIGTERM during an apply. Until changes start, stopping is as safe as a crash (the state
// store is built for that), so the process exits at once and the lock is released on exit. Once
// changes run, the first signal stops cleanly: no new call starts, the calls in flight get a few
// seconds to finish and be recorded, then they are abandoned; the summary says what remains. A
// second signal exits at once. Exit codes follow the shell's convention: 128 + the signal number.

import { setMaxListeners } from 'node:events';

export const STOP_GRACE_MS = 5_000;

const EXIT_CODES: Record<StopSignal, number> = { SIGINT: 130, SIGTERM: 143 };
export type StopSignal = 'SIGINT' | 'SIGTERM';

export interface InterruptWatch {
  /** Aborted at the first signal: start nothing new. */
  readonly stop: AbortSignal;
  /** Aborted STOP_GRACE_MS after it: abandon what is still in flight. */
  readonly cancel: AbortSignal;
  /** The first signal received, if any. */
  received(): StopSignal | undefined;
  /** 130 for SIGINT, 143 for SIGTERM. */
  exitCode(): number;
  /** From now on the first signal stops cleanly instead of exiting at once. */
  enterGracefulPhase(): void;
  dispose(): void;
}

export interface InterruptOptions {
  /** Says what happens, on stderr; called once per signal, before any exit. */
  say: (text: string) => void;
  graceMs?: number;
}

export function watchInterrupts(options: InterruptOptions): InterruptWatch {
  const stop = new AbortController();
  const cancel = new AbortController();
  // Every call in flight listens to `cancel`: with --concurrency above 10 that is no leak.
  setMaxListeners(0, stop.signal, cancel.signal);
  let first: StopSignal | undefined;
  let graceful = false;
  let graceTimer: ReturnType<typeof setTimeout> | undefined;
  const graceMs = options.graceMs ?? STOP_GRACE_MS;

  const onSignal = (signal: StopSignal): void => {
    if (first !== undefined || !graceful) {
      const code = EXIT_CODES[first ?? signal];
      options.say(first === undefined ? `\nInterrupted (${signal}) before any change was made; nothing was changed.\n` : `\nInterrupted again (${signal}): exiting now. Calls that were in flight may have reached the server; the next plan shows where things stand.\n`);
      // The state lock is released by its exit handler; the state itself is always consistent on disk.
      process.exit(code);
    }
    first = signal;
    options.say(`\nInterrupted (${signal}): no new change will start; waiting up to ${Math.round(graceMs / 1000)} s for the calls in flight. Press Ctrl-C again to exit at once.\n`);
    stop.abort();
    graceTimer = setTimeout(() => cancel.abort(), graceMs);
  };
  const onInt = (): void => onSignal('SIGINT');
  const onTerm = (): void => onSignal('SIGTERM');
  process.on('SIGINT', onInt);
  process.on('SIGTERM', onTerm);

  return {
    stop: stop.signal,
    cancel: cancel.signal,
    received: () => first,
    exitCode: () => (first === undefined ? 0 : EXIT_CODES[first]),
    enterGracefulPhase() {
      graceful = true;
    },
    dispose() {
      process.off('SIGINT', onInt);
      process.off('SIGTERM', onTerm);
      if (graceTimer) clearTimeout(graceTimer);
    },
  };
}
