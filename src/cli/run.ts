// The CLI as a function: arguments and a CliIo in, an exit code out. How a run ends (an Outcome a
// command returned, or an error it threw) becomes the exit code and the last error lines in one
// place, exit-codes.ts, called from here. The bin (cli/entry.ts) calls it with the real process;
// tests and embedding programs call it with streams of their own.
import { hasSingleDashLongWord, programFlags, refuseSingleDashLongFlags } from './single-dash-flags.js';
import { withSecretScope } from '../io/api/outside-text.js';
import type { CliIo } from './cli-io.js';
import { buildProgram } from './program.js';
import { endRun } from './exit-codes.js';

/**
 * Runs one command line (`argv` without node and the script: `['plan', '--json']`) and resolves
 * to its exit code. It never rejects and never exits the process. Each call has its own secrets:
 * the default API key from the start, the manifest's as soon as it is resolved.
 */
export function runMain(argv: readonly string[], io: CliIo): Promise<number> {
  return withSecretScope([io.env.COMETCHAT_API_KEY], async () => {
    const program = buildProgram(io, argv);
    try {
      // `-auto-approve` given to any command is answered with every command's flags, so only a
      // word that looks like one costs building the whole program.
      if (hasSingleDashLongWord(argv)) refuseSingleDashLongFlags(argv, programFlags(buildProgram(io)));
      await program.parseAsync([...argv], { from: 'user' });
      return 0;
    } catch (err) {
      return endRun(err, argv, io);
    }
  });
}
