// Wires the commands; each command lives in its own file under commands/.
import { Command } from 'commander';
import { PACKAGE_VERSION } from '../io/runtime/package-version.js';
import { oneLineUsageError } from './commander-errors.js';
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


export function buildProgram(): Command {
  const program = new Command('agentsync')
    .description('Config-as-code for CometChat AI agents.')
    .version(PACKAGE_VERSION, '-V, --version')
    .showSuggestionAfterError(true)
    .configureOutput({ writeErr: (s) => process.stderr.write(s), outputError: (s, write) => write(oneLineUsageError(s)) });
  registerInitCommand(program);
  registerValidateCommand(program);
  registerLintCommand(program);
  registerGraphCommand(program);
  registerFmtCommand(program);
  registerPlanCommand(program);
  registerApplyCommand(program);
  registerShowCommand(program);
  registerImportCommand(program);
  registerExportCommand(program);
  registerStateCommand(program);
  registerSchemaCommand(program);
  registerSendCommand(program);
  registerKbCommand(program);
  registerEmulatorCommand(program);
  registerCompletionCommand(program);
  return program;
}
