// One error type for every way a call can fail: an HTTP error answer (either of the two error
// bodies the API family uses, or no JSON at all) or a transport failure. `retryable` and `notSent`
// are what the retry loop and the executor decide on; the message is what a user reads.
import { isLoopbackHost } from '../../core/base-url.js';
import { oneSafeLine } from '../../core/terminal-safe.js';
import { scrubOutside } from './outside-text.js';

export interface ApiErrorInit {
  /** HTTP status; 0 when no answer arrived. */
  status: number;
  /** The server's code (ERR_BAD_REQUEST, …), HTTP_<status>, or a transport code (ECONNREFUSED, TIMEOUT, …). */
  code: string;
  /** The server's own message, or a description of the transport failure. */
  serverMessage: string;
  /** `PUT /ai-agents/tools/get_weather`: method and API path, never the host or the key. */
  call: string;
  retryable: boolean;
  /** True only when the request provably never reached the server (refused, DNS, connect timeout). */
  notSent: boolean;
  /** A wait the server asked for (Retry-After / rate-limit reset), in ms. */
  retryAfterMs?: number;
}

export class ApiError extends Error {
  override readonly name = 'ApiError';
  readonly status: number;
  readonly code: string;
  readonly serverMessage: string;
  readonly call: string;
  readonly retryable: boolean;
  readonly notSent: boolean;
  readonly retryAfterMs: number | undefined;
  /** How many attempts were made before giving up (set by the retry loop). */
  attempts = 1;

  constructor(init: ApiErrorInit) {
    // The code and message may come from the server: made one printable line here, once, so no
    // caller can print a server's escape sequences by accident.
    // A secret the server echoes back (or a secret used as an id in the path) is masked here too.
    const safe = { ...init, code: oneSafeLine(scrubOutside(init.code), 100), serverMessage: oneSafeLine(scrubOutside(init.serverMessage)), call: scrubOutside(init.call) };
    super(describeFailure(safe));
    this.status = init.status;
    this.code = safe.code;
    this.serverMessage = safe.serverMessage;
    this.call = safe.call;
    this.retryable = init.retryable;
    this.notSent = init.notSent;
    this.retryAfterMs = init.retryAfterMs;
  }

  /** The one-line explanation for a resource: `tool.x: PUT /ai-agents/tools/x answered 400 ERR_BAD_REQUEST: …`. */
  describeFor(address: string): string {
    return `${address}: ${this.message}`;
  }
}

export function isApiError(err: unknown): err is ApiError {
  return err instanceof ApiError;
}

function describeFailure(init: ApiErrorInit): string {
  const reason = init.serverMessage ? `: ${init.serverMessage}` : '';
  if (init.status === 0) return `${init.call} failed (${init.code})${reason}`;
  // The AI-agent error body carries no code: HTTP_<status> would only repeat the status.
  const code = init.code === `HTTP_${init.status}` ? '' : ` ${init.code}`;
  return `${init.call} answered ${init.status}${code}${reason}`;
}

/** Statuses worth another attempt: rate limited or a gateway/server that is briefly unavailable. */
export const RETRYABLE_STATUSES: ReadonlySet<number> = new Set([429, 502, 503, 504]);

/**
 * Reads an error answer. Understands `{error:{code,message,…}}` (Chat API),
 * `{statusCode,message,error}` (AI Agents OpenAPI) and anything else (HTML, empty, plain text).
 */
export function errorFromResponse(status: number, rawBody: string, call: string, retryAfterMs?: number): ApiError {
  const { code, message } = readErrorBody(status, rawBody);
  return new ApiError({
    status,
    code,
    serverMessage: message,
    call,
    retryable: RETRYABLE_STATUSES.has(status),
    notSent: false,
    ...(retryAfterMs !== undefined ? { retryAfterMs } : {}),
  });
}

function readErrorBody(status: number, rawBody: string): { code: string; message: string } {
  const fallback = { code: `HTTP_${status}`, message: summarizeText(rawBody) };
  let parsed: unknown;
  try {
    parsed = JSON.parse(rawBody);
  } catch {
    return fallback;
  }
  if (!isRecord(parsed)) return fallback;
  const chat = parsed.error;
  if (isRecord(chat)) {
    const code = nonEmptyString(chat.code) ?? fallback.code;
    return { code, message: nonEmptyString(chat.message) ?? nonEmptyString(chat.devMessage) ?? '' };
  }
  if ('statusCode' in parsed || 'message' in parsed) {
    const message = Array.isArray(parsed.message) ? parsed.message.filter((m) => typeof m === 'string' && m !== '').join('; ') : (nonEmptyString(parsed.message) ?? '');
    // `error` is the status's reason phrase ("Bad Request"): a message only when there is no other.
    return { code: fallback.code, message: message || (nonEmptyString(parsed.error) ?? '') };
  }
  return fallback;
}

/** A short excerpt of a non-JSON body (an HTML error page, say); ApiError makes it one line. */
function summarizeText(text: string): string {
  return text.slice(0, 4_000).replace(/<[^>]*>/g, ' ');
}

function nonEmptyString(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** `127.0.0.1:4010`: the host and port a call went to, for messages. Never the key or a password. */
export interface ServerAddress {
  hostPort: string;
  loopback: boolean;
}

export function serverAddress(url: URL): ServerAddress {
  const port = url.port || (url.protocol === 'https:' ? '443' : '80');
  return { hostPort: `${url.hostname}:${port}`, loopback: isLoopbackHost(url.hostname) };
}

/** An answer larger than the call accepts: never retried, as the next one would be as large. */
export function responseTooLarge(status: number, call: string, limitBytes: number, declaredBytes?: number): ApiError {
  const size = declaredBytes !== undefined ? `is ${formatBytes(declaredBytes)}, more than` : 'is larger than';
  return new ApiError({ status, code: 'RESPONSE_TOO_LARGE', serverMessage: `the answer ${size} the ${formatBytes(limitBytes)} this call accepts`, call, retryable: false, notSent: false });
}

/** No whole answer (headers and body) within the per-attempt limit. */
export function responseTimeout(call: string, server: ServerAddress, limitMs: number): ApiError {
  return new ApiError({ status: 0, code: 'TIMEOUT', serverMessage: `no complete answer from ${server.hostPort} within ${formatLimit(limitMs)}`, call, retryable: true, notSent: false });
}

/**
 * The server asked for a wait longer than the call may still take. Failing now, with the reason,
 * beats sleeping past the deadline (or, for an absurd hint, forever). `answer` is the 429/503 that
 * asked; without one the request was never sent, because an earlier answer had already asked.
 */
export function waitTooLong(call: string, waitMs: number, leftMs: number, answer?: ApiError): ApiError {
  const what = answer === undefined || answer.status === 429 ? 'rate limited' : 'the server is unavailable';
  const serverMessage = `${what}: the server asks to wait ${formatSeconds(waitMs)}, longer than the ${formatSeconds(Math.max(0, leftMs))} this call may still wait; try again later`;
  return new ApiError({
    status: answer?.status ?? 0,
    code: answer?.code ?? 'RATE_LIMITED',
    serverMessage,
    call,
    retryable: false,
    notSent: answer === undefined,
  });
}

/** `1 MB`, `512 KB`, `100 bytes`. */
export function formatBytes(bytes: number): string {
  const mb = bytes / (1024 * 1024);
  if (mb >= 1) return `${Number.isInteger(mb) ? mb : mb.toFixed(1)} MB`;
  const kb = bytes / 1024;
  return kb >= 1 ? `${Number.isInteger(kb) ? kb : kb.toFixed(1)} KB` : `${bytes} bytes`;
}

/**
 * A limit the user set, exactly: `500 ms`, `30 s`, `1.5 s`. Rounding would lie about it (a 1 ms
 * limit is not "1 s").
 */
function formatLimit(ms: number): string {
  if (ms < 1000) return `${ms} ms`;
  return `${Number((ms / 1000).toFixed(3))} s`;
}

/** Whole seconds, rounded up, so "0 s" never means "some time". Absurd hints stay readable. */
function formatSeconds(ms: number): string {
  const seconds = Math.ceil(ms / 1000);
  return `${Number.isFinite(seconds) && seconds < 1e15 ? seconds : 'more than 1e15'} s`;
}

/** Transport errors whose request certainly never left this machine: safe to retry even a POST. */
const NOT_SENT_CODES = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'UND_ERR_CONNECT_TIMEOUT']);
const TIMEOUT_CODES = new Set(['UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT', 'UND_ERR_CONNECT_TIMEOUT', 'ETIMEDOUT']);
/** The client itself was closed (the run is ending): another attempt could only fail the same way. */
const CLOSED_CODES = new Set(['UND_ERR_CLOSED', 'UND_ERR_DESTROYED']);

/**
 * The HTTP client refused the request before sending it (a header value with a line break, say):
 * another attempt would be refused the same way, so it is never retried.
 */
const REFUSED_BY_CLIENT_CODES = new Set(['UND_ERR_INVALID_ARG', 'ERR_INVALID_CHAR', 'ERR_INVALID_HTTP_TOKEN']);

/** Maps a thrown transport error (undici or node:net) to an ApiError naming the server it tried. */
export function errorFromTransport(err: unknown, call: string, server: ServerAddress): ApiError {
  const code = transportCode(err);
  return new ApiError({
    status: 0,
    code: TIMEOUT_CODES.has(code) ? 'TIMEOUT' : code,
    serverMessage: transportMessage(code, err, server.hostPort),
    call,
    // Every connection-level failure is worth another attempt; the retry policy decides whether
    // this particular method may be repeated.
    retryable: !CLOSED_CODES.has(code) && !REFUSED_BY_CLIENT_CODES.has(code),
    notSent: NOT_SENT_CODES.has(code) || CLOSED_CODES.has(code) || REFUSED_BY_CLIENT_CODES.has(code),
  });
}

function transportCode(err: unknown): string {
  let current: unknown = err;
  for (let depth = 0; depth < 4 && isRecord(current); depth++) {
    if (typeof current.code === 'string' && current.code !== 'UND_ERR') {
      // undici wraps the socket error; prefer the OS code underneath a generic socket error.
      if (current.code !== 'UND_ERR_SOCKET' || !isRecord(current.cause)) return current.code;
    }
    current = current.cause;
  }
  return isRecord(err) && typeof err.code === 'string' ? err.code : 'ENETWORK';
}

function transportMessage(code: string, err: unknown, hostPort: string): string {
  const connect = (why: string): string => `could not connect to ${hostPort} (${why})`;
  switch (code) {
    case 'ECONNREFUSED':
      return connect('connection refused');
    case 'UND_ERR_CONNECT_TIMEOUT':
    case 'ETIMEDOUT':
      return connect('timed out');
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return connect('host name not found');
    case 'EHOSTUNREACH':
      return connect('host unreachable');
    case 'ENETUNREACH':
      return connect('network unreachable');
    case 'UND_ERR_HEADERS_TIMEOUT':
      return `timed out waiting for the answer from ${hostPort}`;
    case 'UND_ERR_BODY_TIMEOUT':
      return `timed out reading the answer from ${hostPort}`;
    case 'EPROTO':
    case 'ERR_SSL_WRONG_VERSION_NUMBER':
    case 'ERR_SSL_PACKET_LENGTH_TOO_LONG':
      // OpenSSL's own words ("wrong version number") tell a user nothing.
      return `${hostPort} did not answer TLS: the base URL says https://, but the server there speaks plain HTTP (a local emulator is http://)`;
    case 'ECONNRESET':
    case 'EPIPE':
    case 'UND_ERR_SOCKET':
      return `the connection to ${hostPort} was closed before the answer was complete`;
    case 'UND_ERR_INVALID_ARG':
    case 'ERR_INVALID_CHAR':
    case 'ERR_INVALID_HTTP_TOKEN':
      return `the request was not sent to ${hostPort}: ${err instanceof Error ? err.message : String(err)}`;
    default:
      return `the request to ${hostPort} failed: ${err instanceof Error ? err.message : String(err)}`;
  }
}
