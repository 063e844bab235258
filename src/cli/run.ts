// The CLI as a function: arguments and a CliIo in, an exit code out. The single place where errors
// become exit codes and stderr text. The bin (cli/entry.ts) calls it with the real process; tests
// and embedding programs call it with streams of their own.
import { CommanderError } from 'commander';
import { isUserError } from '../core/errors.js';
import { hasSingleDashLongWord, programFlags, refuseSingleDashLongFlags } from './single-dash-flags.js';
import { scrubOutside, withSecretScope } from '../io/api/outside-text.js';
import { isDebug, type CliIo } from './cli-io.js';
import { buildProgram } from './program.js';
import { ExitRequest } from './exit-request.js';
import { oneLineUsageError } from './commander-errors.js';
import { renderJsonError } from '../render/json-document.js';
import { renderErrorLine } from '../render/error-line.js';

export { ExitRequest };

export function wantsJson(argv: readonly string[]): boolean {
  return argv.includes('--json') || argv.some((a, i) => a === '--format' && argv[i + 1] === 'json') || argv.includes('--format=json');
}

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
      return exitCodeFor(err, argv, io);
    }
  });
}

function exitCodeFor(err: unknown, argv: readonly string[], io: CliIo): number {
  if (err instanceof ExitRequest) {
    const { stderr, jsonError } = err.lastWords;
    if (jsonError && wantsJson(argv)) io.stdout.write(renderJsonError(jsonError.code, jsonError.message));
    if (stderr !== undefined) io.stderr.write(stderr);
    return err.exitCode;
  }
  if (err instanceof CommanderError) {
    // --help and --version arrive here as "errors" with exit code 0; commander already printed them.
    if (err.exitCode === 0) return 0;
    // Commander printed its line on stderr; a script reading --json output still gets an error object.
    if (wantsJson(argv) && err.code !== 'commander.help') writeJsonError(io, 'usage', usageMessage(err.message));
    return 1;
  }
  const debug = isDebug(io);
  if (isUserError(err)) {
    if (wantsJson(argv)) writeJsonError(io, err.code, err.message, err.details);
    io.stderr.write(renderErrorLine(err.message));
    // A UserError's message was made from scrubbed parts; scrubbing it again would garble addresses.
    if (debug && err.stack) io.stderr.write(err.stack + '\n');
    return 1;
  }
  // A bug's message is an exception's, not ours: it may quote anything, a secret included.
  const message = scrubOutside(err instanceof Error ? err.message : String(err));
  if (wantsJson(argv)) writeJsonError(io, 'internal', `internal error: ${message}`);
  io.stderr.write(renderErrorLine(`internal error: ${message}`));
  io.stderr.write(debug && err instanceof Error && err.stack ? scrubOutside(err.stack) + '\n' : 'Run with AGENTSYNC_DEBUG=1 for a stack trace, and please report it.\n');
  return 1;
}

/** Commander's message in the house style, as one line without the "Error: " that stderr shows. */
function usageMessage(message: string): string {
  return oneLineUsageError(message)
    .replace(/^Error: /, '')
    .trim();
}

/** The `--json` form of an error, on stdout where the output would have been. */
function writeJsonError(io: CliIo, code: string, message: string, details: Record<string, unknown> = {}): void {
  io.stdout.write(renderJsonError(code, message, details));
}
