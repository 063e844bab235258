// Wires the commands; each command lives in its own file under commands/.
import { Command } from 'commander';
import { PACKAGE_VERSION } from '../io/runtime/package-version.js';
import { oneLineUsageError } from './commander-errors.js';
import { useColor } from './options.js';
import type { CliIo } from './cli-io.js';
import { registerInitCommand } from './commands/init.js';
import { registerValidateCommand } from './commands/validate.js';
import { registerLintCommand } from './commands/lint.js';
import { registerGraphCommand } from './commands/graph.js';
import { registerPlanCommand } from './commands/plan.js';
import { registerApplyCommand } from './commands/apply.js';
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


/** The whole command line for one run: every command prints to `io`'s streams, never the process's. */
export function buildProgram(io: CliIo): Command {
  const program = new Command('agentsync')
    .description('Config-as-code for CometChat AI agents.')
    .version(PACKAGE_VERSION, '-V, --version')
    .showSuggestionAfterError(true)
    .configureOutput({
      writeOut: (s) => io.stdout.write(s),
      writeErr: (s) => io.stderr.write(s),
      outputError: (s, write) => write(oneLineUsageError(s)),
      // commander would ask the process's streams and environment.
      getOutHelpWidth: () => io.stdout.columns ?? 80,
      getErrHelpWidth: () => io.stderr.columns ?? 80,
      getOutHasColors: () => useColor({}, io.stdout, io.env),
      getErrHasColors: () => useColor({}, io.stderr, io.env),
    })
    // Commander would exit the process on --help, --version and usage errors; runMain turns them
    // into exit codes instead. Set before the commands are added, which copy it.
    .exitOverride();
  registerInitCommand(program, io);
  registerValidateCommand(program, io);
  registerLintCommand(program, io);
  registerGraphCommand(program, io);
  registerFmtCommand(program, io);
  registerPlanCommand(program, io);
  registerApplyCommand(program, io);
  registerShowCommand(program, io);
  registerImportCommand(program, io);
  registerExportCommand(program, io);
  registerStateCommand(program, io);
  registerSchemaCommand(program, io);
  registerSendCommand(program, io);
  registerKbCommand(program, io);
  registerEmulatorCommand(program, io);
  registerCompletionCommand(program, io);
  return program;
}
