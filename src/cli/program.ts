// Wires the commands; each command lives in its own file under commands/.
import { createRequire } from 'node:module';
import { Command } from 'commander';
import { registerInitCommand } from './commands/init.js';
import { registerValidateCommand } from './commands/validate.js';
import { registerPlanCommand } from './commands/plan.js';
import { registerApplyCommand } from './commands/apply.js';
import { registerStateCommand } from './commands/state.js';
import { registerSchemaCommand } from './commands/schema.js';
import { registerSendCommand } from './commands/send.js';
import { registerEmulatorCommand } from './commands/emulator.js';

const pkg = createRequire(import.meta.url)('../../package.json') as { version: string };

export function buildProgram(): Command {
  const program = new Command('agentsync')
    .description('Config-as-code for CometChat AI agents.')
    .version(pkg.version, '-V, --version')
    .showSuggestionAfterError(true)
    .configureOutput({ writeErr: (s) => process.stderr.write(s) });
  registerInitCommand(program);
  registerValidateCommand(program);
  registerPlanCommand(program);
  registerApplyCommand(program);
  registerStateCommand(program);
  registerSchemaCommand(program);
  registerSendCommand(program);
  registerEmulatorCommand(program);
  return program;
}

export const VERSION = pkg.version;
