// `--prune` and `--target ADDRESS` (docs/spec/plan-and-apply.md#deleting, docs/spec/plan-and-apply.md#targeting), shared by plan and apply.
import type { Command } from 'commander';
import { UserError } from '../core/errors.js';
import type { PlanScope } from '../core/plan-scope.js';

export interface ScopeOptions {
  prune?: boolean;
  target?: string[];
}

export function addScopeOptions(cmd: Command): Command {
  return cmd
    .option('--prune', 'delete from the server what the state holds and the manifest no longer does (agents first, then tools), instead of forgetting it')
    .option('--target <address>', 'plan only this address and the tools and actions it needs (repeatable)', (value: string, list: string[] = []) => [...list, value]);
}

export function scopeOf(opts: ScopeOptions): PlanScope {
  return { prune: opts.prune === true, targets: [...new Set(opts.target ?? [])] };
}

/** A saved plan was made with its own scope; flags that would change it are refused, not ignored. */
export function refuseScopeWithPlanFile(opts: ScopeOptions, planfile: string): void {
  if (opts.prune === true || (opts.target ?? []).length > 0) {
    throw new UserError('usage', `--prune and --target belong to the plan: make it with them (\`agentsync plan --prune --out ${planfile}\`), then apply ${planfile} without them`);
  }
}
