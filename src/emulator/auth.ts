// The `apikey` header check. The key is compared in constant time and never copied anywhere else.
import { timingSafeEqual } from 'node:crypto';
import { ERROR_CODES } from './error-codes.js';
import { ApiError } from './errors.js';

export function checkApiKey(header: string | string[] | undefined, expected: Buffer): void {
  const given = Array.isArray(header) ? header.join(',') : header;
  if (given === undefined || given.trim() === '') {
    throw new ApiError(401, ERROR_CODES.emptyApiKey, "The 'apikey' header is missing or empty.");
  }
  const candidate = Buffer.from(given);
  if (candidate.length !== expected.length || !timingSafeEqual(candidate, expected)) {
    throw new ApiError(401, ERROR_CODES.apiKeyNotFound, 'The API key is not valid for this app.');
  }
}
