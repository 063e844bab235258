// The single place where errors become exit codes and stderr text.
import { CommanderError, type Command } from 'commander';
import { isUserError } from '../core/errors.js';
import { keepRunningWhenOutputCloses } from './closed-output.js';
import { programFlags, refuseSingleDashLongFlags } from './single-dash-flags.js';
// An error message may echo what a user typed or a server said: escape sequences are shown, not obeyed.
import { escapeControlKeepLines } from '../core/terminal-safe.js';
import { hideInOutput, scrubOutside } from '../io/api/outside-text.js';

/** Set by a command to ask for a non-error exit code other than 0 (plan --detailed-exitcode). */
export class ExitRequest extends Error {
  constructor(readonly exitCode: number) {
    super(`exit ${exitCode}`);
  }
}

export function wantsJson(argv: readonly string[]): boolean {
  return argv.includes('--json') || argv.some((a, i) => a === '--format' && argv[i + 1] === 'json') || argv.includes('--format=json');
}

export async function runMain(program: Command, argv: readonly string[]): Promise<void> {
  const debug = process.env.AGENTSYNC_DEBUG === '1';
  // The default API key is hidden from outside text from the start, the manifest's secrets as soon
  // as it is resolved (cli/pipeline.ts, commands/validate.ts, cli/multi-env.ts).
  hideInOutput([process.env.COMETCHAT_API_KEY]);
  // A reader that goes away (`| head`) must never crash the command or cut an apply short.
  keepRunningWhenOutputCloses();
  program.exitOverride();
  try {
    // argv[0] and argv[1] are node and the script.
    refuseSingleDashLongFlags(argv.slice(2), programFlags(program));
    await program.parseAsync([...argv]);
    process.exitCode ??= 0;
  } catch (err) {
    process.exitCode = exitCodeFor(err, argv, debug);
  }
}

function exitCodeFor(err: unknown, argv: readonly string[], debug: boolean): number {
  if (err instanceof ExitRequest) return err.exitCode;
  if (err instanceof CommanderError) {
    // --help and --version arrive here as "errors" with exit code 0; commander already printed them.
    return err.exitCode === 0 ? 0 : 1;
  }
  if (isUserError(err)) {
    if (wantsJson(argv)) {
      process.stdout.write(JSON.stringify({ error: { code: err.code, message: err.message, ...err.details } }) + '\n');
    }
    process.stderr.write(`Error: ${escapeControlKeepLines(err.message)}\n`);
    // A UserError's message was made from scrubbed parts; scrubbing it again would garble addresses.
    if (debug && err.stack) process.stderr.write(err.stack + '\n');
    return 1;
  }
  // A bug's message is an exception's, not ours: it may quote anything, a secret included.
  const message = scrubOutside(err instanceof Error ? err.message : String(err));
  process.stderr.write(`Error: internal error: ${escapeControlKeepLines(message)}\n`);
  process.stderr.write(debug && err instanceof Error && err.stack ? scrubOutside(err.stack) + '\n' : 'Run with AGENTSYNC_DEBUG=1 for a stack trace, and please report it.\n');
  return 1;
}
