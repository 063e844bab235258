// What a failed call of an apply reports: the API's answer, or a kind's own verdict on an answer.
// Anything else (a journal write that failed, a bug) is not a failed call and is thrown on.
import { isApiError } from '../api/api-error.js';
import type { ApplyFailure } from '../../core/apply-types.js';
import { isUserError } from '../../core/errors.js';
import { scrubOutside } from '../api/outside-text.js';

/** `planned`: the last call sent, named when the error does not say which call it is about. */
export function failureOf(err: unknown, planned: string): ApplyFailure {
  // The call's path may hold a remote id that is a secret (a website's parentUniqueId).
  const call = scrubOutside(planned);
  if (isApiError(err)) {
    const answeredNo = err.status >= 400 && err.status < 500;
    // The error names the call that failed (already scrubbed): a kind may have tried another call
    // since (a tool's POST refused, then a PUT that did not help) and still throw this one's error.
    return { call: err.call, status: err.status, code: err.code, message: err.serverMessage, attempts: err.attempts, maybeCreated: !(err.notSent || answeredNo) };
  }
  if (isUserError(err) && err.code === 'api_error') {
    // A kind's verdict on answers it read (a listing that never ends): that resource's failure, not the run's.
    return { call, status: 200, code: 'BAD_RESPONSE', message: scrubOutside(err.message), attempts: 1, maybeCreated: false };
  }
  if (isKindFailure(err)) {
    // A kind's own verdict on an answer (a 404 explained, a 2xx without the id it needs).
    return { call, status: err.status, code: err.code, message: scrubOutside(err.message), attempts: 1, maybeCreated: err.status >= 200 && err.status < 300 };
  }
  throw err;
}

/** The errors core/kinds throw for answers they cannot accept: a status and a code, like an ApiError. */
function isKindFailure(err: unknown): err is Error & { status: number; code: string } {
  return err instanceof Error && typeof (err as { status?: unknown }).status === 'number' && typeof (err as { code?: unknown }).code === 'string';
}
