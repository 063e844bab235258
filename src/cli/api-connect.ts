// The API connection settings every network command needs: the key from the environment's
// apiKeyEnv, the base URL (resolution already applied AGENTSYNC_BASE_URL), and the client limits. Checked up front so a
// missing key or an http:// URL to a remote host fails before any call. Loaded lazily by commands.
import type { DesiredEnvironment } from '../core/desired.js';
import { UserError } from '../core/errors.js';
import { checkBaseUrl, createApiClient, type ApiClient } from '../io/api/client.js';
import { isLoopbackHost } from '../core/base-url.js';
import { apiKeyProblem } from '../core/api-key.js';
import { EMULATOR_API_KEY } from '../core/starter-manifest.js';
import { keepWasmOnBaselineCompiler } from '../io/runtime/wasm-baseline.js';

export interface ApiConnection {
  baseUrl: string;
  open(): Promise<ApiClient>;
}

export interface ClientLimits {
  concurrency: number;
  retries: number;
  /** Longest wait for one whole response, headers and body. */
  timeoutMs?: number;
}

/** `env`: where the environment's apiKeyEnv is read. */
export function connectApi(environment: DesiredEnvironment, env: Readonly<Record<string, string | undefined>>, limits: ClientLimits, hints: { offlineHint?: boolean } = {}): ApiConnection {
  const apiKey = env[environment.apiKeyEnv];
  if (apiKey === undefined || apiKey === '') {
    const offline = hints.offlineHint ? ', or pass --offline to plan against the state alone without reading the server' : '';
    const local = isLocal(environment.baseUrl) ? ` (for the local emulator: ${environment.apiKeyEnv}=${EMULATOR_API_KEY})` : '';
    throw new UserError('config_invalid', `the API key is missing: set ${environment.apiKeyEnv} to the REST API key of app "${environment.appId}"${local}${offline}`);
  }
  const problem = apiKeyProblem(apiKey);
  if (problem !== null) {
    throw new UserError('config_invalid', `${environment.apiKeyEnv} holds ${problem}; an API key is one line of printable ASCII, so set it again without it`);
  }
  const baseUrl = environment.baseUrl;
  checkBaseUrl(baseUrl);
  const timeouts = limits.timeoutMs === undefined ? {} : { responseMs: limits.timeoutMs };
  return {
    baseUrl,
    async open() {
      keepWasmOnBaselineCompiler();
      return createApiClient({ baseUrl, apiKey, concurrency: limits.concurrency, retries: limits.retries, timeouts });
    },
  };
}

function isLocal(baseUrl: string): boolean {
  return URL.canParse(baseUrl) && isLoopbackHost(new URL(baseUrl).hostname);
}
