// The one place where the end of a run becomes an exit code and error lines. A command either
// returns an Outcome (a verdict such as --detailed-exitcode's 2, a "no" at the prompt, failures its
// output has already reported) or throws an error; the two tables below say what each becomes, and
// nothing else under cli/ decides an exit code or prints an "Error:" line (test/cli/exit-codes.test.ts).
import { CommanderError } from 'commander';
import { isUserError } from '../core/errors.js';
import { scrubOutside } from '../io/api/outside-text.js';
import { renderErrorLine } from '../render/error-line.js';
import { renderJsonError } from '../render/json-document.js';
import { usageErrorText } from './commander-errors.js';
import { isDebug, type CliIo, type OutputStream, type StopSignal } from './cli-io.js';

/** How a command ended when it threw nothing. */
export type Ending = 'done' | 'failed' | 'changes' | 'cancelled' | StopSignal;

/** What a command's run returns: how it ended, and, for a failure, the lines stderr shows last. */
export type Outcome = Ending | { readonly ending: 'failed'; readonly stderr: string };

/** The last words of a run, printed once it is over: the `{"error"}` document (with --json) first, then stderr's. */
interface LastWords {
  readonly exitCode: number;
  readonly jsonError?: { readonly code: string; readonly message: string; readonly details?: Readonly<Record<string, unknown>> };
  readonly stderr?: string;
}

/** Every ending a command returns, and what it becomes. */
const ENDINGS: Readonly<Record<Ending, LastWords>> = {
  done: { exitCode: 0 },
  // The output said what failed (validate's diagnostics, a plan's unreadable resources, an environment's row).
  failed: { exitCode: 1 },
  // --detailed-exitcode: the plan has changes, or the environments differ in a way the manifest does not intend.
  changes: { exitCode: 2 },
  // Terraform's words for a "no" at apply's question; nothing was sent.
  cancelled: { exitCode: 1, stderr: 'Apply cancelled.\n', jsonError: { code: 'refused', message: 'Apply cancelled.' } },
  // A stopped apply exits as the shell expects, 128 + the signal's number; it has said what it did.
  SIGINT: { exitCode: 130 },
  SIGTERM: { exitCode: 143 },
};

/**
 * A failure the command's `--json` document already holds (kb sync's failed websites): stderr gets
 * its error line, and stdout no second document, which would break a parser.
 */
export class ShownFailure extends Error {}

/**
 * Every error a run can end with, and what it becomes, first match first. The `{"error"}` document
 * is printed only when the run asked for --json (endRun).
 */
function lastWordsFor(err: unknown, debug: boolean): LastWords {
  if (err instanceof EndOfCommand) return lastWordsOf(err.outcome);
  if (err instanceof CommanderError) {
    // --help and --version arrive as "errors" with exit code 0. Commander printed its own line on
    // stderr (usageErrorLine, below); a script reading --json output still gets an error object.
    if (err.exitCode === 0) return { exitCode: 0 };
    return { exitCode: 1, ...(err.code === 'commander.help' ? {} : { jsonError: { code: 'usage', message: usageErrorText(err.message).trim() } }) };
  }
  if (err instanceof ShownFailure) return { exitCode: 1, stderr: renderErrorLine(err.message) };
  if (isUserError(err)) {
    // A UserError's message was made from scrubbed parts; scrubbing it again would garble addresses.
    const stack = debug && err.stack ? err.stack + '\n' : '';
    return { exitCode: 1, jsonError: { code: err.code, message: err.message, details: err.details }, stderr: renderErrorLine(err.message) + stack };
  }
  // A bug's message is an exception's, not ours: it may quote anything, a secret included.
  const message = `internal error: ${scrubOutside(err instanceof Error ? err.message : String(err))}`;
  const hint = debug && err instanceof Error && err.stack ? scrubOutside(err.stack) + '\n' : 'Run with AGENTSYNC_DEBUG=1 for a stack trace, and please report it.\n';
  return { exitCode: 1, jsonError: { code: 'internal', message }, stderr: renderErrorLine(message) + hint };
}

/** An ending's exit code; the bin's, too, when a second signal ends the process at once. */
export function exitCodeOf(ending: Ending): number {
  return ENDINGS[ending].exitCode;
}

function lastWordsOf(outcome: Outcome): LastWords {
  if (typeof outcome === 'string') return ENDINGS[outcome];
  return { ...ENDINGS[outcome.ending], stderr: outcome.stderr };
}

/** Prints the run's last words and gives its exit code: what runMain resolves to when a command threw. */
export function endRun(err: unknown, argv: readonly string[], io: CliIo): number {
  const words = lastWordsFor(err, isDebug(io));
  if (words.jsonError && wantsJson(argv)) io.stdout.write(renderJsonError(words.jsonError.code, words.jsonError.message, words.jsonError.details));
  if (words.stderr !== undefined) io.stderr.write(words.stderr);
  return words.exitCode;
}

function wantsJson(argv: readonly string[]): boolean {
  return argv.includes('--json') || argv.some((a, i) => a === '--format' && argv[i + 1] === 'json') || argv.includes('--format=json');
}

/** Carries a command's Outcome through commander, which drops what an action returns, to endRun. */
class EndOfCommand extends Error {
  constructor(readonly outcome: Outcome) {
    super(`exit ${lastWordsOf(outcome).exitCode}`);
  }
}

/**
 * A commander action for a run that returns its Outcome. An action that returns anything but
 * nothing does not type-check as a plain commander action, so an ending cannot be dropped.
 */
export function endsWith<A extends unknown[]>(run: (...args: A) => Promise<Outcome>): (...args: A) => Promise<void> {
  return async (...args) => {
    const outcome = await run(...args);
    if (outcome !== 'done') throw new EndOfCommand(outcome);
  };
}

/**
 * An error a command reports and goes on from (fmt's file that cannot be read): the same line a
 * run that ends on it prints.
 */
export function reportError(stderr: OutputStream, message: string): void {
  stderr.write(renderErrorLine(message));
}

/** Commander's own usage error as the line stderr shows (commander prints it through program.ts). */
export function usageErrorLine(text: string): string {
  return `Error: ${usageErrorText(text)}`;
}
