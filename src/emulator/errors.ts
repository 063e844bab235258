// Every failure the emulator answers is an ApiError. The server turns it into the body of the route
// family it belongs to: the AI-agent routes answer the public reference's ErrorResponse
// `{statusCode, message, error}`; the chat routes (and the admin routes) answer the Chat API body
// `{"error":{"code","message","devMessage","source"}}`.
import { STATUS_CODES } from 'node:http';
import type { AgentsApiErrorBody, ChatApiErrorBody } from '../core/api-types.js';
import { ERROR_CODES } from './error-codes.js';

export class ApiError extends Error {
  /** Why this error is part of a normal run (the request log shows it as expected, not as a failure). */
  expected: string | undefined;

  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    /** Extra response headers, e.g. `Allow` on a 405 or `Retry-After` on a 429. */
    readonly headers: Readonly<Record<string, string>> = {},
    /** A longer explanation for developers; defaults to the message. */
    readonly devMessage: string = message,
  ) {
    super(message);
  }
}

/** Marks an error as one a healthy client meets on purpose, e.g. a probe before a create. */
export function expectedError(error: ApiError, why: string): ApiError {
  error.expected = why;
  return error;
}

export function badRequest(message: string): ApiError {
  return new ApiError(400, ERROR_CODES.badRequest, message);
}

export function notFound(code: string, message: string): ApiError {
  return new ApiError(404, code, message);
}

export function apiNotFound(path: string): ApiError {
  return new ApiError(404, ERROR_CODES.apiNotFound, `No API at ${path}.`);
}

export function methodNotAllowed(method: string, allowed: readonly string[]): ApiError {
  const allow = allowed.join(', ');
  return new ApiError(405, 'ERR_METHOD_NOT_ALLOWED', `Method ${method} is not allowed here; use ${allow}.`, { Allow: allow });
}

export function payloadTooLarge(limitBytes: number): ApiError {
  return new ApiError(413, 'ERR_PAYLOAD_TOO_LARGE', `The request body is larger than ${limitBytes} bytes.`);
}

export function unsupportedMediaType(contentType: string | undefined): ApiError {
  const got = contentType ? `"${contentType}"` : 'no Content-Type';
  return new ApiError(415, 'ERR_UNSUPPORTED_MEDIA_TYPE', `The body must be sent as application/json; got ${got}.`);
}

export function serviceUnavailable(): ApiError {
  return new ApiError(503, 'ERR_SERVICE_UNAVAILABLE', 'The service is temporarily unavailable (injected by --fail-rate).');
}

const AI_AGENTS_PREFIX = '/v3/ai-agents';

/** True for `/v3/ai-agents` and everything below it, known route or not. */
export function isAiAgentsPath(path: string): boolean {
  return path === AI_AGENTS_PREFIX || path.startsWith(`${AI_AGENTS_PREFIX}/`);
}

/** The `source` of a Chat API error body names the service family the path belongs to. */
export function errorSourceFor(path: string): string {
  return path.startsWith('/__emulator') ? 'emulator' : 'chat-api';
}

export function errorBody(err: ApiError, path: string): AgentsApiErrorBody | ChatApiErrorBody {
  if (isAiAgentsPath(path)) return { statusCode: err.status, message: err.message, error: STATUS_CODES[err.status] ?? 'Error' };
  return { error: { code: err.code, message: err.message, devMessage: err.devMessage, source: errorSourceFor(path) } };
}

/** Thrown by a handler that has done its work and must not answer: the server drops the connection instead. */
export class DropConnection extends Error {}
