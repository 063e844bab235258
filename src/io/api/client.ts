// The CometChat REST client: one undici Pool per base URL, the headers every call carries, and one
// generic call for the resource kinds plus the message send. Retries and pacing live in send-request.ts and
// rate-governor.ts; this file only knows paths, bodies and answer shapes.
import { Pool } from 'undici';
import type { MessageBody, MessageRecord } from '../../core/api-types.js';
import type { UploadRequest, WireRequest } from '../../core/kinds/kind.js';
import { baseUrlProblem } from '../../core/base-url.js';
import { UserError } from '../../core/errors.js';
import { ApiError, serverAddress } from './api-error.js';
import { DEFAULT_BACKOFF, type BackoffOptions } from './backoff.js';
import { RateGovernor, type GovernorStats } from './rate-governor.js';
import { sendRequest, type CallSpec, type RequestContext, type RetryClock, type RetryInfo } from './send-request.js';
import { uploadFile } from './upload.js';
import { USER_AGENT } from './user-agent.js';

export interface ApiTimeouts {
  connectMs: number;
  /** One attempt's whole answer, headers and body (a trickled body included). */
  responseMs: number;
  keepAliveMs: number;
}

export const DEFAULT_TIMEOUTS: ApiTimeouts = { connectMs: 10_000, responseMs: 30_000, keepAliveMs: 10_000 };

export interface ApiClientOptions {
  /** e.g. `https://myapp.api-us.cometchat.io/v3`. */
  baseUrl: string;
  apiKey: string;
  /** Connections in the pool and the most requests in flight. Default 10. */
  concurrency?: number;
  /** Retries after the first attempt. Default 5. */
  retries?: number;
  /** A call, with its retries and every wait (Retry-After included), ends within this. Default 5 min. */
  deadlineMs?: number;
  timeouts?: Partial<ApiTimeouts>;
  backoff?: BackoffOptions;
  /** Injected for tests of the retry timing. */
  clock?: RetryClock;
}

export interface CallOptions {
  onRetry?: (info: RetryInfo) => void;
  /** Aborting it abandons the call: no further attempt, and the one in flight is cut off. */
  signal?: AbortSignal;
}

export interface ApiClient {
  /** The base URL calls go to, any password masked: for messages that must say where they went. */
  readonly baseUrl?: string;
  /** One call to any endpoint: the resource kinds (core/kinds) know the paths and answer shapes. */
  request(request: WireRequest, options?: CallOptions): Promise<unknown>;
  sendMessage(body: MessageBody, options?: CallOptions & { onBehalfOf?: string }): Promise<MessageRecord>;
  /**
   * A local file PUT, streamed, to a URL the server handed out (io/api/upload.ts): never with the
   * API key. Optional so that a library caller's own client need not have it (files then cannot be uploaded).
   */
  upload?(request: UploadRequest, options?: CallOptions): Promise<void>;
  stats(): GovernorStats;
  close(): Promise<void>;
}

const realClock: RetryClock = {
  now: () => Date.now(),
  sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
  random: () => Math.random(),
};

export function createApiClient(options: ApiClientOptions): ApiClient {
  const url = checkBaseUrl(options.baseUrl);
  const concurrency = Math.max(1, options.concurrency ?? 10);
  const timeouts = { ...DEFAULT_TIMEOUTS, ...options.timeouts };
  const clock = options.clock ?? realClock;
  const pool = new Pool(url.origin, {
    connections: concurrency,
    pipelining: 1,
    connectTimeout: timeouts.connectMs,
    // A backstop only: sendRequest's own limit on the whole answer fires first, with a clear message.
    headersTimeout: timeouts.responseMs + 5_000,
    bodyTimeout: timeouts.responseMs + 5_000,
    keepAliveTimeout: timeouts.keepAliveMs,
  });
  const governor = new RateGovernor(concurrency, clock);
  const ctx: RequestContext = {
    pool,
    basePath: url.pathname.replace(/\/+$/, ''),
    server: serverAddress(url),
    headers: { apikey: options.apiKey, 'content-type': 'application/json', accept: 'application/json', 'user-agent': USER_AGENT },
    governor,
    clock,
    retries: Math.max(0, options.retries ?? 5),
    attemptMs: timeouts.responseMs,
    deadlineMs: options.deadlineMs ?? 300_000,
    backoff: options.backoff ?? DEFAULT_BACKOFF,
  };
  const call = async (spec: CallSpec): Promise<unknown> => (await sendRequest(ctx, spec)).body;
  let closing: Promise<void> | undefined;

  return {
    baseUrl: maskedUrl(url),
    async request(request, opts) {
      return call({ ...request, ...(opts?.onRetry ? { onRetry: opts.onRetry } : {}), ...(opts?.signal ? { signal: opts.signal } : {}) });
    },
    async sendMessage(body, opts) {
      const path = '/messages';
      const headers: Record<string, string> = opts?.onBehalfOf ? { onBehalfOf: opts.onBehalfOf } : {};
      const answer = await sendRequest(ctx, { method: 'POST', path, body, headers, ...(opts?.onRetry ? { onRetry: opts.onRetry } : {}) });
      return expectObject<MessageRecord>(field(answer.body, 'data'), answer.status, `POST ${path}`, 'id');
    },
    upload: (request, opts) => uploadFile({ timeouts, retries: ctx.retries, backoff: ctx.backoff, clock }, request, opts),
    stats: () => governor.stats(),
    async close() {
      governor.close();
      if (!closing) closing = pool.close();
      await closing;
    },
  };
}

/**
 * docs/spec/commands.md#base-url: https only, except plain http to a loopback host (the emulator, a
 * local proxy). The key would otherwise cross the network in clear text.
 */
export function checkBaseUrl(baseUrl: string): URL {
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    throw new UserError('config_invalid', `The base URL "${baseUrl}" is not a valid URL.`);
  }
  if (url.username || url.password) throw new UserError('config_invalid', 'The base URL must not contain credentials.');
  const problem = baseUrlProblem(baseUrl);
  if (problem) throw new UserError('config_invalid', `The base URL ${problem}.`);
  return url;
}

function field(answer: unknown, key: string): unknown {
  return typeof answer === 'object' && answer !== null && !Array.isArray(answer) ? (answer as Record<string, unknown>)[key] : undefined;
}

/** `status` is the success status that came without the id (a 204 says "no body", not "200"). */
function expectObject<T>(value: unknown, status: number, call: string, idKey: string): T {
  const id = field(value, idKey);
  if (typeof id !== 'string' || id === '') throw new ApiError({ status, code: 'BAD_RESPONSE', serverMessage: `no "${idKey}" in the answer`, call, retryable: false, notSent: false });
  return value as T;
}

/** The URL without its password, and without the slash URL adds to a bare origin. */
function maskedUrl(url: URL): string {
  const shown = new URL(url.href);
  if (shown.password !== '') shown.password = '***';
  return shown.href.replace(/\/$/, '');
}
