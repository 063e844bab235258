import type { Command } from 'commander';
import { addLockTimeoutOption, addManifestOptions, type ManifestOptions } from '../options.js';
import { addScopeOptions, type ScopeOptions } from '../scope-options.js';

export interface ApplyOptions extends ManifestOptions, ScopeOptions {
  autoApprove?: boolean;
  concurrency: string;
  retries: string;
  timeout: string;
  lockTimeout?: string;
}

export function registerApplyCommand(program: Command): void {
  const cmd = program
    .command('apply [planfile]')
    .description('Plan, show the plan, ask for confirmation, then carry it out against the API.')
    .option('--auto-approve', 'apply without asking (required when stdin is not a terminal)')
    .option('--concurrency <n>', 'requests in flight at once', '10')
    .option('--retries <n>', 'retries per call for rate limits and transient failures', '5')
    .option('--timeout <seconds>', 'how long to wait for each response before retrying it (PUT/PATCH) or failing', '30');
  addLockTimeoutOption(cmd);
  addScopeOptions(cmd);
  addManifestOptions(cmd).action(async (planfile: string | undefined, opts: ApplyOptions) => {
    const { runApply } = await import('../apply-run.js');
    await runApply(planfile, opts);
  });
}
