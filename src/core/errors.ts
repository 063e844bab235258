// One error model for the whole program. A UserError is bad input or a refused operation: the CLI
// prints its message as one sentence and exits 1. Anything else that escapes is a bug, and only
// those get a stack trace (and only with AGENTSYNC_DEBUG=1).

export type ErrorCode =
  | 'manifest_invalid'
  | 'manifest_unreadable'
  | 'environment_invalid'
  | 'usage'
  | 'state_invalid'
  | 'state_locked'
  | 'state_unavailable'
  | 'plan_stale'
  | 'plan_invalid'
  | 'api_error'
  | 'apply_failed'
  | 'refused'
  | 'file_exists'
  | 'file_error'
  | 'config_invalid'
  | 'conflict';

export class UserError extends Error {
  override readonly name = 'UserError';
  constructor(
    readonly code: ErrorCode,
    message: string,
    /** Extra machine-readable detail for `--json` error output. */
    readonly details: Record<string, unknown> = {},
  ) {
    super(message);
  }
}

export function isUserError(err: unknown): err is UserError {
  return err instanceof UserError;
}
