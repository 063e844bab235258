// Whether a finished apply failed, and the one sentence that says how. The CLI (one environment or
// many) and the programmatic API all end an apply with these words, so a script sees the same
// failure whichever way it ran agentsync.
import type { ApplyResult } from '../core/apply-types.js';
import { countOf } from '../core/plural.js';

export interface ApplyVerdict {
  code: 'apply_failed' | 'api_error';
  message: string;
}

/** Undefined when everything was applied, recorded and announced. */
export function applyVerdict(result: ApplyResult): ApplyVerdict | undefined {
  const applied = countOf(result.done.length, 'change was', 'changes were');
  if (result.unrecorded) {
    const made = result.unrecorded.items.length;
    const outcome = result.done.length + made === 0 ? 'nothing was applied' : `${applied} applied and recorded, ${countOf(made, 'change was', 'changes were')} applied but not recorded`;
    return { code: 'apply_failed', message: `apply stopped: ${result.unrecorded.reason}; ${outcome}, ${result.notAttempted.length} not attempted` };
  }
  if (result.stateNotWritten !== undefined) {
    return { code: 'apply_failed', message: `${applied} applied and kept in the journal, but the state was not written: ${result.stateNotWritten}; the next run records them` };
  }
  if (!result.ok) {
    const unread = result.unreadable?.length ? `, ${countOf(result.unreadable.length, 'resource')} could not be read from the server (${result.unreadable.map((u) => u.reason).join('; ')})` : '';
    return { code: 'apply_failed', message: `apply failed: ${result.failed.length} failed, ${result.notAttempted.length} not attempted${unread}; ${applied} applied and recorded` };
  }
  if (result.notify.status === 'failed') {
    // Every change is applied and recorded, but a failed call is still an error (exit 1), so a
    // misconfigured notify target does not hide behind a green CI run.
    return { code: 'api_error', message: 'the changes were applied and recorded, but the notify message was not sent' };
  }
  return undefined;
}
