// `apply`'s flags as a typed request: every value checked, nothing read or sent, so that a bad flag
// is refused before the manifest is read and the parse is tested on its own (Terraform's ParseApply).
import type { PlanScope } from '../core/plan-scope.js';
import { viewKindOf, type ViewKind } from '../render/views.js';
import type { ApplyOptions } from './apply-options.js';
import { lockTimeoutMs, parseCount, responseTimeoutMs } from './options.js';
import { scopeOf } from './scope-options.js';

export interface ApplyRequest {
  /** --concurrency: requests in flight at once. */
  readonly concurrency: number;
  /** --retries per call. */
  readonly retries: number;
  /** --timeout for each response, in milliseconds. */
  readonly timeoutMs: number;
  /** --lock-timeout, in milliseconds. */
  readonly lockWaitMs: number;
  /** With --wait, how long it waits for indexing (--wait-timeout); undefined without --wait. */
  readonly waitTimeoutSeconds: number | undefined;
  readonly view: ViewKind;
  readonly autoApprove: boolean;
  readonly allowMassDelete: boolean;
  /** --prune and --target. */
  readonly scope: PlanScope;
}

/** The checks run in this order, so the first bad flag is the one named. */
export function parseApply(opts: ApplyOptions): ApplyRequest {
  return {
    concurrency: parseCount(opts.concurrency, '--concurrency', 1, 256),
    retries: parseCount(opts.retries, '--retries', 0, 100),
    timeoutMs: responseTimeoutMs(opts.timeout),
    lockWaitMs: lockTimeoutMs(opts.lockTimeout),
    waitTimeoutSeconds: opts.wait === true ? parseWaitTimeout(opts.waitTimeout) : undefined,
    view: viewKindOf(opts),
    autoApprove: opts.autoApprove === true,
    allowMassDelete: opts.allowMassDelete === true,
    scope: scopeOf(opts),
  };
}

/** `--wait-timeout <seconds>` of apply --wait and kb sync --wait. */
export function parseWaitTimeout(value: string | undefined): number {
  return parseCount(value ?? '1800', '--wait-timeout', 1, 86_400);
}
