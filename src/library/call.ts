// What every library function shares: the defaults it takes from the host process, the secret
// scope of the call (its errors are scrubbed with the secrets this call resolved, never another
// call's), and the manifest and state found exactly as the CLI finds them.
import type { DesiredEnvironment } from '../core/desired.js';
import { UserError } from '../core/errors.js';
import { apiKeyProblem } from '../core/api-key.js';
import { lentConnection, ownConnection, type Connection } from '../app/connection.js';
import { loadForEnvironment, type LoadedEnvironment } from '../app/load.js';
import { createApiClient, type ApiClient } from '../io/api/index.js';
import { hideInOutput, withSecretScope } from '../io/api/outside-text.js';
import { hostCwd, hostEnv } from '../io/runtime/host.js';
import type { StateWarning } from '../io/state/index.js';
import { defaultManifest } from '../io/manifest/manifest-location.js';
import { manifestName } from '../io/manifest/manifest-location.js';
import { readVarOverrides } from '../io/manifest/var-overrides.js';
import type { VarOverrides } from '../core/var-overrides.js';

export interface LoadOptions {
  /**
   * The manifest: a file, a folder of parts, or several of either. Relative to `cwd`. Default as
   * the CLI: AGENTSYNC_MANIFEST, `agents.yaml`, or an `agents/` folder when there is no agents.yaml;
   * both at once is refused (a `UserError` with code `usage`), as the CLI refuses it.
   */
  file?: string | readonly string[];
  /** The environment; may be left out when the manifest defines only one. */
  environment?: string;
  /**
   * The variables `${NAME}` reads, and where the API key, AGENTSYNC_BASE_URL and
   * AGENTSYNC_STATE_URL are looked up. Default `process.env`.
   */
  env?: Readonly<Record<string, string | undefined>>;
  /** The folder relative paths (the manifest, the state, files written) are in. Default `process.cwd()`. */
  cwd?: string;
}

export interface ClientOptions {
  /** Default: the variable the environment's `apiKeyEnv` names (COMETCHAT_API_KEY unless set). */
  apiKey?: string;
  /** Requests in flight at most. Default 10. */
  concurrency?: number;
  /** Retries after a failed attempt, where retrying is safe. Default 5. */
  retries?: number;
  /** Longest wait for one whole answer, in milliseconds. Default 30 000. */
  timeoutMs?: number;
}

export interface VarOptions {
  /** `--var NAME=VALUE`: values that replace the environment's `vars` for this call. */
  vars?: Readonly<Record<string, string>>;
  /** `--var-file FILE` (relative to `cwd`): a YAML map of NAME: value, applied before `vars`. */
  varFile?: string;
}

export interface StateOptions {
  /** A state file, or a `postgres://` URL. Default as the CLI: AGENTSYNC_STATE_URL, the manifest's `state.url`, `.agentsync/<env>.state.json` beside the manifest. */
  state?: string;
  /** Stale-lock takeovers and journal recoveries; ignored unless given. */
  onWarning?: (warning: StateWarning) => void;
}

export function envOf(options: Pick<LoadOptions, 'env'>): Readonly<Record<string, string | undefined>> {
  return options.env ?? hostEnv();
}

export function cwdOf(options: Pick<LoadOptions, 'cwd'>): string {
  return options.cwd ?? hostCwd();
}

/**
 * The key each client createClient made was given. A client is often made once, outside any call,
 * and lent to many (`plan({ client })`): its key is then no secret of theirs unless each call that
 * uses the client takes it into its scope. Weak, so a dropped client is not kept alive.
 */
const clientSecrets = new WeakMap<ApiClient, readonly string[]>();

/**
 * Runs one library call in a secret scope of its own: the given API key, the default one and the
 * key of the client it was lent from the start, the manifest's secrets as soon as they are resolved.
 */
export function inCall<T>(options: LoadOptions & Pick<ClientOptions, 'apiKey'> & { client?: ApiClient }, task: () => Promise<T>): Promise<T> {
  const lent = options.client === undefined ? [] : (clientSecrets.get(options.client) ?? []);
  return withSecretScope([options.apiKey, envOf(options).COMETCHAT_API_KEY, ...lent], task);
}

/** A client for an environment's API; close() it when done. */
export function createClient(environment: DesiredEnvironment, options: ClientOptions & Pick<LoadOptions, 'env'> = {}): ApiClient {
  checkClientOptions(options);
  const apiKey = options.apiKey ?? envOf(options)[environment.apiKeyEnv];
  if (apiKey === undefined || apiKey === '') {
    throw new UserError('config_invalid', `the API key is missing: set ${environment.apiKeyEnv} (or pass apiKey) to the REST API key of app "${environment.appId}"`);
  }
  const problem = apiKeyProblem(apiKey);
  if (problem !== null) {
    const from = options.apiKey === undefined ? environment.apiKeyEnv : 'the apiKey option';
    throw new UserError('config_invalid', `${from} holds ${problem}; an API key is one line of printable ASCII, so set it again without it`);
  }
  hideInOutput([apiKey]);
  const client = createApiClient({
    baseUrl: environment.baseUrl,
    apiKey,
    ...(options.concurrency === undefined ? {} : { concurrency: options.concurrency }),
    ...(options.retries === undefined ? {} : { retries: options.retries }),
    ...(options.timeoutMs === undefined ? {} : { timeouts: { responseMs: options.timeoutMs } }),
  });
  clientSecrets.set(client, [apiKey]);
  return client;
}

/** The longest timer Node keeps: a longer one fires at once (with a warning printed). */
const LONGEST_TIMER_MS = 2_147_483_647;

/**
 * The numbers that shape a client, refused when they make no sense: a `timeoutMs` of 0 or -1 would
 * fail every call at once, NaN would slip past every comparison.
 */
function checkClientOptions(options: ClientOptions): void {
  wholeNumber(options.timeoutMs, 'timeoutMs', 1, LONGEST_TIMER_MS, ' (milliseconds)');
  wholeNumber(options.concurrency, 'concurrency', 1, Number.MAX_SAFE_INTEGER);
  wholeNumber(options.retries, 'retries', 0, Number.MAX_SAFE_INTEGER);
}

function wholeNumber(value: number | undefined, name: string, min: number, max: number, unit = ''): void {
  if (value === undefined || (Number.isInteger(value) && value >= min && value <= max)) return;
  const range = max === Number.MAX_SAFE_INTEGER ? `${min} or more` : `from ${min} to ${max}`;
  throw new UserError('usage', `the ${name} option must be a whole number ${range}${unit} (got ${String(value)})`);
}

/** The manifest and the state store, found as the CLI finds them (app/load.ts), with the var overrides it was resolved with. */
export async function loadWithStore(options: LoadOptions & StateOptions & VarOptions): Promise<LoadedEnvironment & { file: string; varOverrides?: VarOverrides }> {
  const location = manifestOf(options);
  const file = manifestName(location);
  const varOverrides = await readVarOverrides(
    { var: Object.entries(options.vars ?? {}).map(([name, value]) => `${name}=${value}`), ...(options.varFile === undefined ? {} : { varFile: options.varFile }) },
    cwdOf(options),
  );
  const loaded = await loadForEnvironment({
    file: location,
    source: { cwd: cwdOf(options) },
    env: envOf(options),
    ...(options.environment === undefined ? {} : { environment: options.environment }),
    ...(options.state === undefined ? {} : { state: options.state }),
    ...(options.onWarning ? { onStateWarning: options.onWarning } : {}),
    ...(varOverrides ? { varOverrides } : {}),
    onSensitiveValues: hideInOutput,
    stateOptionName: 'the state option',
  });
  return { ...loaded, file, ...(varOverrides ? { varOverrides } : {}) };
}

/** The manifest a call reads: its `file`, or the default found in its `cwd`. */
export function manifestOf(options: LoadOptions): string | readonly string[] {
  return options.file ?? defaultManifest(envOf(options), cwdOf(options));
}

/** Runs `task` with a client: the caller's (left open) or one made here (closed after). */
export async function withClient<T>(environment: DesiredEnvironment, options: ClientOptions & Pick<LoadOptions, 'env'> & { client?: ApiClient }, task: (client: ApiClient) => Promise<T>): Promise<T> {
  if (options.client) return task(options.client);
  const client = createClient(environment, options);
  try {
    return await task(client);
  } finally {
    await client.close();
  }
}

/**
 * How a use case opens its client: the caller's (lent, left open) or one made from the key when it
 * is first needed (closed when released). `concurrency` is the default for a client made here.
 */
export function connectorOf(environment: DesiredEnvironment, options: ClientOptions & Pick<LoadOptions, 'env'> & { client?: ApiClient }, concurrency: number): () => Promise<Connection> {
  const lent = options.client;
  if (lent) return async () => lentConnection(lent);
  return () => ownConnection(Promise.resolve().then(() => createClient(environment, { ...options, concurrency: options.concurrency ?? concurrency })));
}
