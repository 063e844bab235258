// `agentsync completion bash|zsh|fish`: prints a completion script made from this program's commands.
import { Argument, type Command } from 'commander';
import type { CliIo } from '../cli-io.js';

const SHELLS = ['bash', 'zsh', 'fish'] as const;

export function registerCompletionCommand(program: Command, io: CliIo): void {
  program
    .command('completion')
    .description('Print a shell completion script: source <(agentsync completion bash), or zsh, or fish.')
    .addArgument(new Argument('<shell>', 'bash, zsh or fish').choices(SHELLS))
    .action(async (shell: (typeof SHELLS)[number]) => {
      const [{ completionModel }, { renderCompletion }] = await Promise.all([import('../completion-model.js'), import('../../render/completion.js')]);
      io.stdout.write(renderCompletion(shell, completionModel(program)));
    });
}
