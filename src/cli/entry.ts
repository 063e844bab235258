// The bin proper, and the only file of the CLI that touches `process`: it builds the run's CliIo
// from the real process, turns SIGINT and SIGTERM into an abort, and turns runMain's answer into the
// exit code. scripts/bundle.mjs bundles it, with zod, yaml and commander, into
// dist/cli/agentsync.cjs, which the `agentsync` bin (cli/main.ts) loads. scripts/sea.mjs bundles it
// into the single-file binary's startup snapshot: there the process is read only in the main
// function the snapshot starts (cli/snapshot.ts), never while the snapshot is built.
import { outputThatOutlivesItsReader } from './closed-output.js';
import type { CliIo, OutputStream, StopSignal } from './cli-io.js';
import { runMain } from './run.js';
import { exitCodeOf } from './exit-codes.js';
import { buildStartupSnapshot } from './snapshot.js';

/** true only in the single-file binary's bundle (scripts/sea.mjs); false in the npm bundle; undeclared under tsc. */
declare const __AGENTSYNC_SEA_SNAPSHOT__: boolean | undefined;

if (typeof __AGENTSYNC_SEA_SNAPSHOT__ === 'boolean' && __AGENTSYNC_SEA_SNAPSHOT__) buildStartupSnapshot(main);
else main();

function main(): void {
  // The CLI ships bundled; map stack traces back to src/ when someone asked to see them.
  if (process.env.AGENTSYNC_DEBUG === '1') process.setSourceMapsEnabled(true);

  // A reader that goes away (`| head`) must never crash the command or cut an apply short.
  const output = outputThatOutlivesItsReader(process);

  const stops = watchStopSignals(output);
  void runMain(process.argv.slice(2), {
    // Getters, like stdin: a stream is made when the run first prints to it.
    get stdout() {
      return output.stdout;
    },
    get stderr() {
      return output.stderr;
    },
    // Creating process.stdin costs a few milliseconds; most commands never read it.
    get stdin() {
      return process.stdin;
    },
    env: process.env,
    cwd: process.cwd(),
    signal: stops.signal,
    trapStops: stops.trap,
  }).then((code) => {
    // A stopped run has said what it did and recorded it; whatever it abandoned must not keep the
    // process alive (a lock is released by its exit handler).
    if (stops.signal.aborted) process.exit(code);
    process.exitCode = code;
    stops.dispose();
  });
}

/**
 * Until a command traps them, SIGINT and SIGTERM end the process as Node's default would (the
 * signal is raised again with no handler). While one is trapped, the first aborts the run's signal
 * and the second exits at once, 128 + the first signal's number.
 */
function watchStopSignals(output: { readonly stderr: OutputStream }) {
  const controller = new AbortController();
  let trapped = 0;
  let lastWords: string | undefined;
  let first: StopSignal | undefined;
  const onSignal = (signal: StopSignal): void => {
    if (first !== undefined) {
      output.stderr.write(`\nInterrupted again (${signal}): exiting now.${lastWords ? ` ${lastWords}` : ''}\n`);
      process.exit(exitCodeOf(first));
    }
    if (trapped === 0) {
      dispose();
      process.kill(process.pid, signal);
      return;
    }
    first = signal;
    controller.abort(signal);
  };
  const onInt = (): void => onSignal('SIGINT');
  const onTerm = (): void => onSignal('SIGTERM');
  process.on('SIGINT', onInt);
  process.on('SIGTERM', onTerm);
  const dispose = (): void => {
    process.off('SIGINT', onInt);
    process.off('SIGTERM', onTerm);
  };
  const trap: NonNullable<CliIo['trapStops']> = (words) => {
    trapped++;
    if (words !== undefined) lastWords = words;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      trapped--;
    };
  };
  return { signal: controller.signal, trap, dispose };
}
