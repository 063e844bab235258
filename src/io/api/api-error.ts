// One error type for every way a call can fail: an HTTP error answer (either of the two error
// bodies the API family uses, or no JSON at all) or a transport failure. `retryable` and `notSent`
// are what the retry loop and the executor decide on; the message is what a user reads.

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
    super(describeFailure(init));
    this.status = init.status;
    this.code = init.code;
    this.serverMessage = init.serverMessage;
    this.call = init.call;
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
  return `${init.call} answered ${init.status} ${init.code}${reason}`;
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
    const code = typeof chat.code === 'string' && chat.code ? chat.code : fallback.code;
    const message = typeof chat.message === 'string' ? chat.message : typeof chat.devMessage === 'string' ? chat.devMessage : '';
    return { code, message };
  }
  if ('statusCode' in parsed || 'message' in parsed) {
    const message = Array.isArray(parsed.message) ? parsed.message.filter((m) => typeof m === 'string').join('; ') : typeof parsed.message === 'string' ? parsed.message : '';
    const label = typeof parsed.error === 'string' ? parsed.error : '';
    return { code: fallback.code, message: message || label };
  }
  return fallback;
}

/** A short, single-line excerpt of a non-JSON body (an HTML error page, say). */
function summarizeText(text: string): string {
  const oneLine = text.replace(/<[^>]*>/g, ' ').replace(/\s+/g, ' ').trim();
  return oneLine.length > 200 ? `${oneLine.slice(0, 197)}...` : oneLine;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Transport errors whose request certainly never left this machine: safe to retry even a POST. */
const NOT_SENT_CODES = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'UND_ERR_CONNECT_TIMEOUT']);
const TIMEOUT_CODES = new Set(['UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT', 'UND_ERR_CONNECT_TIMEOUT', 'ETIMEDOUT']);

/** Maps a thrown transport error (undici or node:net) to an ApiError. */
export function errorFromTransport(err: unknown, call: string): ApiError {
  const code = transportCode(err);
  const notSent = NOT_SENT_CODES.has(code);
  const shownCode = TIMEOUT_CODES.has(code) ? 'TIMEOUT' : code;
  return new ApiError({
    status: 0,
    code: shownCode,
    serverMessage: transportMessage(code, err),
    call,
    // Every connection-level failure is worth another attempt; the retry policy decides whether
    // this particular method may be repeated.
    retryable: true,
    notSent,
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

function transportMessage(code: string, err: unknown): string {
  switch (code) {
    case 'ECONNREFUSED':
      return 'connection refused';
    case 'UND_ERR_CONNECT_TIMEOUT':
      return 'timed out while connecting';
    case 'UND_ERR_HEADERS_TIMEOUT':
      return 'timed out waiting for the answer';
    case 'UND_ERR_BODY_TIMEOUT':
      return 'timed out reading the answer';
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return 'host name not found';
    case 'ECONNRESET':
    case 'UND_ERR_SOCKET':
      return 'connection closed by the server';
    default:
      return err instanceof Error ? err.message : String(err);
  }
}
