import type { Command } from 'commander';
import type { ManyApplyOptions } from '../apply-options.js';
import { addLockTimeoutOption, addManifestOptions, addResponseTimeoutOption, addVarOptions, environmentChoice, nonEmptyPath } from '../options.js';
import { addScopeOptions } from '../scope-options.js';
import type { CliIo } from '../cli-io.js';
import { endsWith } from '../exit-codes.js';

export function registerApplyCommand(program: Command, io: CliIo): void {
  const cmd = program
    .command('apply [planfile]')
    .description('Plan, show the plan, ask for confirmation, then carry it out against the API.')
    .option('--auto-approve', 'apply without asking (required when stdin is not a terminal)')
    .option('--allow-mass-delete', 'let --auto-approve or a saved plan delete more than half of the managed resources (with --prune)')
    .option('--concurrency <n>', 'requests in flight at once', '10')
    .option('--retries <n>', 'retries per call for rate limits and transient failures', '5')
    .option('--wait', 'after applying, wait until the knowledge-base websites finish indexing (failed URLs exit 1)')
    .option('--wait-timeout <seconds>', 'how long --wait waits before giving up', '1800');
  addResponseTimeoutOption(cmd, 'how long to wait for each response before retrying it (PUT/PATCH) or failing');
  addLockTimeoutOption(cmd);
  addScopeOptions(cmd);
  addVarOptions(cmd);
  addManifestOptions(cmd, { manyEnvironments: true }).action(
    endsWith(async (planfile: string | undefined, opts: ManyApplyOptions) => {
      if (planfile !== undefined) nonEmptyPath('PLANFILE')(planfile);
      const { runApply } = await import('../apply-run.js');
      const choice = environmentChoice(opts);
      if (choice.kind === 'one') return runApply(planfile, { ...opts, env: choice.env }, io);
      // Several environments (docs/spec/state.md#many-environments); a selection that comes down to one is the apply above.
      const { runApplyMany } = await import('../multi-env-apply.js');
      return runApplyMany(planfile, opts, io, (env) => runApply(planfile, { ...opts, env }, io));
    }),
  );
}
