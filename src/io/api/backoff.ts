// The timing half of the retry policy: how long to wait before the next attempt. Pure functions of
// their inputs (time and randomness are passed in) so the math is unit-tested without waiting.

export interface BackoffOptions {
  /** First backoff ceiling, in ms. */
  baseMs: number;
  /** No single wait is longer than this (the API docs advise at most 5 minutes). */
  capMs: number;
}

export const DEFAULT_BACKOFF: BackoffOptions = { baseMs: 250, capMs: 300_000 };

/** setTimeout's limit (2^31 - 1 ms): a longer delay fires at once, with a TimeoutOverflowWarning. */
export const MAX_TIMER_MS = 2_147_483_647;

/** Longer than any deadline; keeps an absurd hint (a 400-digit Retry-After) a finite number. */
const LONGEST_HINT_MS = 1e15;

/** Full jitter: uniform in [0, min(cap, base·2^attempt)). `attempt` counts retries from 0. */
export function fullJitterDelay(attempt: number, random: number, options: BackoffOptions = DEFAULT_BACKOFF): number {
  const ceiling = Math.min(options.capMs, options.baseMs * 2 ** Math.min(attempt, 30));
  return Math.floor(random * ceiling);
}

/** `Retry-After` is either delta-seconds or an HTTP date. Returns ms to wait, or undefined. */
export function parseRetryAfter(value: string | undefined, nowMs: number): number | undefined {
  if (value === undefined) return undefined;
  const trimmed = value.trim();
  if (/^\d+(\.\d+)?$/.test(trimmed)) return Math.min(LONGEST_HINT_MS, Math.round(Number(trimmed) * 1000));
  const at = Date.parse(trimmed);
  if (Number.isNaN(at)) return undefined;
  return Math.min(LONGEST_HINT_MS, Math.max(0, at - nowMs));
}

/**
 * `X-Rate-Limit-Reset` / `X-RateLimit-Reset` is documented as a Unix time. Values that look like
 * milliseconds are accepted too, and small values are read as "seconds from now", which some
 * servers send under the same name.
 */
export function parseResetTime(value: string | undefined, nowMs: number): number | undefined {
  if (value === undefined || !/^\d+(\.\d+)?$/.test(value.trim())) return undefined;
  const n = Number(value.trim());
  if (n > 1e12) return Math.min(LONGEST_HINT_MS, Math.max(0, n - nowMs));
  if (n > 1e9) return Math.max(0, n * 1000 - nowMs);
  return n * 1000;
}

/**
 * The wait before retry number `attempt`. A server hint wins over our own backoff (and over its
 * cap: the call's deadline bounds it instead, in sendRequest), with a little jitter on top so that many workers
 * told "come back in 2 s" do not all return in the same tick.
 */
export function retryDelay(attempt: number, hintMs: number | undefined, random: number, options: BackoffOptions = DEFAULT_BACKOFF): number {
  if (hintMs === undefined) return fullJitterDelay(attempt, random, options);
  const spread = Math.min(1000, options.baseMs + hintMs * 0.1);
  return hintMs + Math.floor(random * spread);
}
