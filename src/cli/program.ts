// Wires the commands; each command lives in its own file under commands/.
import { Command } from 'commander';
import { PACKAGE_VERSION } from '../io/runtime/package-version.js';
import { defaultManifest } from '../io/manifest/manifest-location.js';
import { usageErrorLine } from './exit-codes.js';
import { useColor } from './options.js';
import type { CliIo } from './cli-io.js';
import { registerInitCommand } from './commands/init.js';
import { registerValidateCommand } from './commands/validate.js';
import { registerLintCommand } from './commands/lint.js';
import { registerGraphCommand } from './commands/graph.js';
import { registerPlanCommand } from './commands/plan.js';
import { registerApplyCommand } from './commands/apply.js';
import { registerDiffCommand } from './commands/diff.js';
import { registerShowCommand } from './commands/show.js';
import { registerStateCommand } from './commands/state.js';
import { registerImportCommand } from './commands/import.js';
import { registerExportCommand } from './commands/export.js';
import { registerSchemaCommand } from './commands/schema.js';
import { registerSendCommand } from './commands/send.js';
import { registerEmulatorCommand } from './commands/emulator.js';
import { registerFmtCommand } from './commands/fmt.js';
import { registerCompletionCommand } from './commands/completion.js';
import { registerKbCommand } from './commands/kb.js';

type RegisterCommand = (program: Command, io: CliIo) => void;

/** Every command, by the name it registers, in the order `--help` lists them. */
const COMMANDS: ReadonlyArray<readonly [name: string, register: RegisterCommand]> = [
  ['init', registerInitCommand],
  ['validate', registerValidateCommand],
  ['lint', registerLintCommand],
  ['graph', registerGraphCommand],
  ['fmt', registerFmtCommand],
  ['plan', registerPlanCommand],
  ['apply', registerApplyCommand],
  ['diff', registerDiffCommand],
  ['show', registerShowCommand],
  ['import', registerImportCommand],
  ['export', registerExportCommand],
  ['state', registerStateCommand],
  ['schema', registerSchemaCommand],
  ['send', registerSendCommand],
  ['kb', registerKbCommand],
  ['emulator', registerEmulatorCommand],
  ['completion', registerCompletionCommand],
];

/** `completion` prints a script made from every command, so it always gets them all. */
const NEEDS_EVERY_COMMAND = new Set(['completion']);

/**
 * The command line for one run: every command prints to `io`'s streams, never the process's.
 * Given the run's arguments, and when the first one names a command, only that command is defined:
 * defining the other fifteen (their options, help texts and V8 compiling each register function)
 * is part of every start (BENCHMARKS.md, P3), and parsing a command's arguments needs no other.
 * Anything else (no command, `help`, an option or an unknown word, which wants suggestions) gets
 * every command.
 */
export function buildProgram(io: CliIo, argv?: readonly string[]): Command {
  const program = new Command('agentsync')
    .description('Config-as-code for CometChat AI agents.')
    .version(PACKAGE_VERSION, '-V, --version')
    .showSuggestionAfterError(true)
    .configureOutput({
      writeOut: (s) => io.stdout.write(s),
      writeErr: (s) => io.stderr.write(s),
      outputError: (s, write) => write(usageErrorLine(s)),
      // commander would ask the process's streams and environment.
      getOutHelpWidth: () => io.stdout.columns ?? 80,
      getErrHelpWidth: () => io.stderr.columns ?? 80,
      getOutHasColors: () => useColor({}, io.stdout, io.env),
      getErrHasColors: () => useColor({}, io.stderr, io.env),
    })
    // Commander would exit the process on --help, --version and usage errors; runMain turns them
    // into exit codes instead. Set before the commands are added, which copy it.
    .exitOverride()
    .hook('preAction', (_program, action) => fillManifestDefault(action, io));
  const first = argv?.[0];
  // `agentsync --version` prints the version before any command is looked at.
  if (argv?.length === 1 && (first === '--version' || first === '-V')) return program;
  const only = first === undefined || NEEDS_EVERY_COMMAND.has(first) ? undefined : COMMANDS.find(([name]) => name === first);
  for (const [, register] of only ? [only] : COMMANDS) register(program, io);
  return program;
}

/** A command that reads a manifest and was given no -f reads the default one, found in the run's own folder. */
function fillManifestDefault(action: Command, io: CliIo): void {
  if (!action.options.some((option) => option.attributeName() === 'file') || action.getOptionValue('file') !== undefined) return;
  // `fmt FILE…` names its files, so no default is needed (and none is looked for, which could refuse).
  if (action.name() === 'fmt' && action.args.length > 0) return;
  const named = io.env.AGENTSYNC_MANIFEST;
  action.setOptionValueWithSource('file', [defaultManifest(io.env, io.cwd)], named === undefined || named === '' ? 'default' : 'env');
}
