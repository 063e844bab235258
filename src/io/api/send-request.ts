// One API call with its retries: acquire a slot from the governor, send, read the answer, and on a
// retryable failure wait and go again within the attempt limit and the deadline. Whether a
// failure may be retried depends on the method (CONTRACT §5): PUT and PATCH always, a POST only
// when it provably never reached the server or the server answered 429 or 503.
import type { Dispatcher, Pool } from 'undici';
import { ApiError, errorFromResponse, errorFromTransport } from './api-error.js';
import { parseResetTime, parseRetryAfter, retryDelay, type BackoffOptions } from './backoff.js';
import type { RateGovernor, RateSignal } from './rate-governor.js';

export type HttpMethod = 'GET' | 'PUT' | 'POST' | 'PATCH' | 'DELETE';

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
  pool: Pick<Pool, 'request'>;
  /** The base URL's path, e.g. `/v3`. */
  basePath: string;
  headers: Readonly<Record<string, string>>;
  governor: RateGovernor;
  clock: RetryClock;
  retries: number;
  /** No retry starts after this much time has passed since the first attempt. */
  deadlineMs: number;
  backoff: BackoffOptions;
}

export interface CallSpec {
  method: HttpMethod;
  /** The API path with path parameters already encoded, e.g. `/ai-agents/tools/get_weather`. */
  path: string;
  body?: unknown;
  headers?: Record<string, string>;
  onRetry?: (info: RetryInfo) => void;
}

export interface CallResult {
  status: number;
  body: unknown;
  attempts: number;
}

export function mayRetry(method: HttpMethod, error: ApiError): boolean {
  if (!error.retryable) return false;
  if (method !== 'POST') return true;
  return error.notSent || error.status === 429 || error.status === 503;
}

export async function sendRequest(ctx: RequestContext, spec: CallSpec): Promise<CallResult> {
  const call = `${spec.method} ${spec.path}`;
  const body = spec.body === undefined ? undefined : JSON.stringify(spec.body);
  const startedAt = ctx.clock.now();
  for (let attempt = 1; ; attempt++) {
    const outcome = await attemptOnce(ctx, spec, call, body);
    if (!(outcome instanceof ApiError)) return { ...outcome, attempts: attempt };
    outcome.attempts = attempt;
    if (!mayRetry(spec.method, outcome) || attempt > ctx.retries) throw outcome;
    const delayMs = retryDelay(attempt - 1, outcome.retryAfterMs, ctx.clock.random(), ctx.backoff);
    if (ctx.clock.now() + delayMs - startedAt > ctx.deadlineMs) throw outcome;
    spec.onRetry?.({ call, retry: attempt, delayMs, error: outcome });
    await ctx.clock.sleep(delayMs);
  }
}

async function attemptOnce(ctx: RequestContext, spec: CallSpec, call: string, body: string | undefined): Promise<{ status: number; body: unknown } | ApiError> {
  const permit = await ctx.governor.acquire();
  let response: Dispatcher.ResponseData;
  let text: string;
  try {
    response = await ctx.pool.request({
      method: spec.method,
      path: ctx.basePath + spec.path,
      headers: { ...ctx.headers, ...spec.headers },
      ...(body !== undefined ? { body } : {}),
    });
    text = await response.body.text();
  } catch (err) {
    permit.release();
    return errorFromTransport(err, call);
  }
  permit.release();
  const now = ctx.clock.now();
  const signal = readRateSignal(response.headers, now);
  ctx.governor.observe(signal);
  if (response.statusCode >= 200 && response.statusCode < 300) {
    ctx.governor.onSuccess();
    return { status: response.statusCode, body: parseJson(text, response.statusCode, call) };
  }
  const hint = parseRetryAfter(header(response.headers, 'retry-after'), now) ?? (response.statusCode === 429 ? signal.resetMs : undefined);
  if (response.statusCode === 429) ctx.governor.onThrottled(permit, hint);
  return errorFromResponse(response.statusCode, text, call, hint);
}

function parseJson(text: string, status: number, call: string): unknown {
  if (text === '') return undefined;
  try {
    return JSON.parse(text);
  } catch {
    throw new ApiError({ status, code: 'BAD_RESPONSE', serverMessage: 'the answer is not JSON', call, retryable: false, notSent: false });
  }
}

type Headers = Dispatcher.ResponseData['headers'];

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
