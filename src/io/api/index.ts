export { ApiError, isApiError } from './api-error.js';
export { createApiClient, checkBaseUrl, DEFAULT_TIMEOUTS } from './client.js';
export type { ApiClient, ApiClientOptions, ApiTimeouts, CallOptions } from './client.js';
export type { RetryInfo, RetryClock } from './send-request.js';
export type { GovernorStats } from './rate-governor.js';
