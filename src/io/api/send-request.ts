// One API call with its retries: acquire a slot from the governor, send, read the answer, and on a
// retryable failure wait and go again within the attempt limit and the deadline. Whether a
// failure may be retried depends on the method (docs/spec/server.md#retries): PUT and PATCH always,
// a POST only when it provably never reached the server or the server answered 429 or 503.
// Every wait is bounded: one attempt by `attemptMs` (headers and the whole body), the answer by a
// byte limit, and every sleep (ours or the server's Retry-After) by what is left of `deadlineMs`.
import type { IncomingHttpHeaders } from 'node:http';
import type { Pool } from 'undici';
import { ApiError, errorFromResponse, errorFromTransport, responseTimeout, responseTooLarge, waitTooLong, type ServerAddress } from './api-error.js';
import { MAX_TIMER_MS, parseResetTime, parseRetryAfter, retryDelay, type BackoffOptions } from './backoff.js';
import { exchange, ExchangeAborted, type BodyLimit } from './exchange.js';
import type { RateGovernor, RateSignal } from './rate-governor.js';
import type { HttpMethod } from '../../core/api-types.js';

export interface RetryInfo {
  call: string;
  /** The retry about to happen, from 1. */
  retry: number;
  delayMs: number;
  error: ApiError;
}

export interface RetryClock {
  now(): number;
  sleep(ms: number): Promise<void>;
  random(): number;
}

export interface RequestContext {
  pool: Pick<Pool, 'dispatch'>;
  /** The base URL's path, e.g. `/v3`. */
  basePath: string;
  /** Where the calls go, for messages; a refused loopback connection is retried only once. */
  server: ServerAddress;
  headers: Readonly<Record<string, string>>;
  governor: RateGovernor;
  clock: RetryClock;
  retries: number;
  /** One attempt: the whole answer, headers and body, must arrive within this. */
  attemptMs: number;
  /** A call, with its retries and every wait between them, ends within this. */
  deadlineMs: number;
  backoff: BackoffOptions;
}

/**
 * The most bytes of an answer a call reads by default: a list may be long; one record is small.
 * Error answers are read up to ERROR_BODY_BYTES and cut there; their first bytes say enough.
 */
export const DEFAULT_RESPONSE_LIMITS: Readonly<Record<HttpMethod, number>> = {
  GET: 32 * 1024 * 1024,
  PUT: 1024 * 1024,
  POST: 1024 * 1024,
  PATCH: 1024 * 1024,
  DELETE: 1024 * 1024,
};
const ERROR_BODY_BYTES = 64 * 1024;
const ERROR_LIMIT: BodyLimit = { bytes: ERROR_BODY_BYTES, overLimit: 'truncate' };

export interface CallSpec {
  method: HttpMethod;
  /** The API path with path parameters already encoded, e.g. `/ai-agents/tools/get_weather`. */
  path: string;
  body?: unknown;
  headers?: Record<string, string>;
  /** The largest success answer this call accepts; DEFAULT_RESPONSE_LIMITS[method] when absent. */
  maxResponseBytes?: number;
  /** Told the byte size of a success answer (e.g. to bound the pages of one listing together). */
  onAnswerBytes?: (bytes: number) => void;
  /** A POST whose repetition is harmless (the caller handles "already exists"): retried like a PUT. */
  repeatable?: boolean;
  /** One attempt's limit for this call instead of the client's (a scrape answers only once its crawl is done). */
  timeoutMs?: number;
  onRetry?: (info: RetryInfo) => void;
  /** Aborting it cuts the call short: no further attempt, and the one in flight is abandoned. */
  signal?: AbortSignal;
}

export interface CallResult {
  status: number;
  body: unknown;
  attempts: number;
}

export function mayRetry(method: HttpMethod, error: ApiError, repeatable = false): boolean {
  if (!error.retryable) return false;
  if (method !== 'POST' || repeatable) return true;
  return error.notSent || error.status === 429 || error.status === 503;
}

/** A local emulator that is not running will not start within a backoff: one quick retry is enough. */
function retryLimit(ctx: RequestContext, error: ApiError): number {
  return error.code === 'ECONNREFUSED' && ctx.server.loopback ? Math.min(ctx.retries, 1) : ctx.retries;
}

export async function sendRequest(ctx: RequestContext, spec: CallSpec): Promise<CallResult> {
  const call = `${spec.method} ${spec.path}`;
  const body = spec.body === undefined ? undefined : JSON.stringify(spec.body);
  const deadlineAt = ctx.clock.now() + ctx.deadlineMs;
  for (let attempt = 1; ; attempt++) {
    if (spec.signal?.aborted) throw withAttempts(interrupted(call, true), attempt - 1);
    const outcome = await attemptOnce(ctx, spec, call, body, deadlineAt);
    if (!(outcome instanceof ApiError)) return { ...outcome, attempts: attempt };
    outcome.attempts = attempt;
    if (!mayRetry(spec.method, outcome, spec.repeatable)) throw outcome;
    const leftMs = deadlineAt - ctx.clock.now();
    const hintMs = outcome.retryAfterMs;
    if (hintMs !== undefined && hintMs > leftMs) throw withAttempts(waitTooLong(call, hintMs, leftMs, outcome), attempt);
    if (attempt > retryLimit(ctx, outcome) || leftMs <= 0) throw outcome;
    const delayMs = Math.min(retryDelay(attempt - 1, hintMs, ctx.clock.random(), ctx.backoff), leftMs, MAX_TIMER_MS);
    spec.onRetry?.({ call, retry: attempt, delayMs, error: outcome });
    await sleepUnlessAborted(ctx.clock, delayMs, spec.signal);
  }
}

/** The call was cut short by its signal; `notSent` when no byte of this attempt went out. */
function interrupted(call: string, notSent: boolean): ApiError {
  const serverMessage = notSent ? 'not sent: the run was interrupted' : 'abandoned before the answer arrived: the run was interrupted';
  return new ApiError({ status: 0, code: 'INTERRUPTED', serverMessage, call, retryable: false, notSent });
}

async function sleepUnlessAborted(clock: RetryClock, ms: number, signal: AbortSignal | undefined): Promise<void> {
  if (!signal) return clock.sleep(ms);
  let onAbort = (): void => {};
  const aborted = new Promise<void>((resolve) => (onAbort = resolve));
  signal.addEventListener('abort', onAbort, { once: true });
  try {
    await Promise.race([clock.sleep(ms), aborted]);
  } finally {
    signal.removeEventListener('abort', onAbort);
  }
}

function withAttempts(error: ApiError, attempts: number): ApiError {
  error.attempts = attempts;
  return error;
}

type Answer = { status: number; body: unknown };

async function attemptOnce(ctx: RequestContext, spec: CallSpec, call: string, body: string | undefined, deadlineAt: number): Promise<Answer | ApiError> {
  const grant = await ctx.governor.acquire(deadlineAt);
  // An earlier answer asked everyone to wait longer than this call may: it is not sent at all.
  if ('refused' in grant) return waitTooLong(call, grant.waitMs, deadlineAt - ctx.clock.now());
  if (spec.signal?.aborted) {
    grant.release();
    return interrupted(call, true);
  }
  const successLimit: BodyLimit = { bytes: spec.maxResponseBytes ?? DEFAULT_RESPONSE_LIMITS[spec.method], overLimit: 'refuse' };
  const attemptMs = spec.timeoutMs ?? ctx.attemptMs;
  let hintMs: number | undefined;
  try {
    const answer = await exchange(ctx.pool, {
      method: spec.method,
      path: ctx.basePath + spec.path,
      headers: spec.headers ? { ...ctx.headers, ...spec.headers } : ctx.headers,
      ...(body !== undefined ? { body } : {}),
      limitFor: (status) => (status >= 200 && status < 300 ? successLimit : ERROR_LIMIT),
      // Before this permit is released, so that no queued request starts against a pause.
      onHead: (status, headers) => (hintMs = heedRateHeaders(ctx, status, headers)),
      timeoutMs: Math.min(attemptMs, MAX_TIMER_MS),
      ...(spec.signal ? { signal: spec.signal } : {}),
    });
    const ok = answer.status >= 200 && answer.status < 300;
    if ('tooLarge' in answer) return responseTooLarge(answer.status, call, ok ? successLimit.bytes : ERROR_LIMIT.bytes, answer.declaredBytes);
    if (!ok) return errorFromResponse(answer.status, answer.text, call, hintMs);
    spec.onAnswerBytes?.(Buffer.byteLength(answer.text));
    return { status: answer.status, body: parseJson(answer.text, answer.status, call) };
  } catch (err) {
    if (err instanceof ApiError) throw err;
    if (spec.signal?.aborted) return interrupted(call, false);
    if (err instanceof ExchangeAborted && err.why === 'timeout') return responseTimeout(call, ctx.server, attemptMs);
    return errorFromTransport(err, call, ctx.server);
  } finally {
    grant.release();
  }
}

/** Feeds the rate headers to the governor; returns the wait an error answer asks for, if any. */
function heedRateHeaders(ctx: RequestContext, status: number, headers: IncomingHttpHeaders): number | undefined {
  const now = ctx.clock.now();
  const signal = readRateSignal(headers, now);
  ctx.governor.observe(signal);
  if (status < 400) return undefined;
  const hintMs = parseRetryAfter(header(headers, 'retry-after'), now) ?? (status === 429 ? signal.resetMs : undefined);
  if (status === 429) ctx.governor.onThrottled(hintMs);
  return hintMs;
}

function parseJson(text: string, status: number, call: string): unknown {
  if (text === '') return undefined;
  try {
    return JSON.parse(text);
  } catch {
    throw new ApiError({ status, code: 'BAD_RESPONSE', serverMessage: 'the answer is not JSON', call, retryable: false, notSent: false });
  }
}

type Headers = IncomingHttpHeaders;

function header(headers: Headers, name: string): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/** Both generations of CometChat's rate headers: X-Rate-Limit-* and X-RateLimit-*. */
export function readRateSignal(headers: Headers, nowMs: number): RateSignal {
  const pick = (...names: string[]): string | undefined => names.map((n) => header(headers, n)).find((v) => v !== undefined);
  const num = (value: string | undefined): number | undefined => (value !== undefined && /^\d+$/.test(value.trim()) ? Number(value) : undefined);
  const signal: RateSignal = {};
  const limit = num(pick('x-rate-limit', 'x-ratelimit-limit', 'x-rate-limit-limit'));
  const remaining = num(pick('x-rate-limit-remaining', 'x-ratelimit-remaining'));
  const resetMs = parseResetTime(pick('x-rate-limit-reset', 'x-ratelimit-reset'), nowMs);
  if (limit !== undefined) signal.limit = limit;
  if (remaining !== undefined) signal.remaining = remaining;
  if (resetMs !== undefined) signal.resetMs = resetMs;
  return signal;
}
