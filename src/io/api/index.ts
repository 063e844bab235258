export { ApiError, isApiError } from './api-error.js';
export { createApiClient } from './client.js';
export type { ApiClient } from './client.js';
