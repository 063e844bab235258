// apply's options, shared by commands/apply.ts, apply-run.ts and multi-env-apply.ts (each imports
// them from here, so none imports another for its types).
import type { ManifestOptions, ManyEnvironmentOptions } from './options.js';
import type { ScopeOptions } from './scope-options.js';

/** The options of an apply to one environment. */
export interface ApplyOptions extends ManifestOptions, ScopeOptions {
  autoApprove?: boolean;
  /** `--allow-mass-delete`: apply a plan that deletes most of what the state manages without asking (core/mass-removal.ts). */
  allowMassDelete?: boolean;
  concurrency: string;
  retries: string;
  timeout: string;
  lockTimeout?: string;
  /** `--wait`: poll until the websites finish indexing (docs/spec/knowledge-base.md#waiting-for-indexing). */
  wait?: boolean;
  waitTimeout?: string;
}

/** apply's options as commander gives them: -e may name several environments. */
export type ManyApplyOptions = Omit<ApplyOptions, 'env'> & ManyEnvironmentOptions;
