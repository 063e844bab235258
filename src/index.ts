// agentsync as a library: `import { load, validate, plan, apply } from 'agentsync'`. The same stages
// as the CLI (the use cases in app/), minus everything a terminal needs: nothing is printed, nothing
// exits, nothing reads process.env unless `env` is left out. A refusal is a typed exception:
// `UserError` (a stable `code`), `ManifestError` (every diagnostic) or `ApplyFailedError` (with
// the partial result). commander and the CLI are never loaded from here.
import type { Diagnostic } from './core/diagnostics.js';
import type { Desired, DesiredEnvironment } from './core/desired.js';
import { UserError, type ErrorCode } from './core/errors.js';
import { hasChanges, type Plan } from './core/plan.js';
import { applyPlan } from './app/apply.js';
import { applyVerdict } from './app/apply-verdict.js';
import { computePlan } from './app/compute-plan.js';
import { validateManifest } from './app/validate.js';
import { lentConnection, ownConnection } from './app/connection.js';
import { loadForEnvironment } from './app/load.js';
import { planEnvironment } from './app/plan.js';
import { createApiClient, type ApiClient } from './io/api/index.js';
import type { ApplyEvent, ApplyResult } from './core/apply-types.js';
import { loadDesired } from './io/manifest/load-manifest.js';
import { PACKAGE_VERSION } from './io/runtime/package-version.js';
import type { StateBackend, StateTarget, StateWarning } from './io/state/index.js';
import { planToJson } from './render/plan-json.js';
import { renderPlanMarkdown } from './render/plan-markdown.js';
import { renderPlanText } from './render/plan-text.js';

export type { Diagnostic, Severity } from './core/diagnostics.js';
export type { Desired, DesiredEnvironment, DesiredResource, ResourceType } from './core/desired.js';
export type { ErrorCode } from './core/errors.js';
export type { Action, Change, CreateChange, FieldChange, ForgetChange, NoopChange, Plan, PlanSummary, UpdateChange } from './core/plan.js';
export type { ApiClient } from './io/api/index.js';
export type { ApplyEvent, ApplyFailure, ApplyResult, DoneItem, FailedItem, NotAttemptedItem, NotifyOutcome } from './core/apply-types.js';
export type { StateWarning } from './io/state/index.js';
export type { PlanJson, PlanJsonChange } from './render/plan-json.js';
export { ManifestError } from './core/diagnostics.js';
export { UserError, isUserError } from './core/errors.js';
export { ApiError, isApiError } from './io/api/index.js';
export { planToJson } from './render/plan-json.js';

/** The installed package's version, as `agentsync --version` prints it. */
export const version: string = PACKAGE_VERSION;

export interface LoadOptions {
  /** The manifest. Default `agents.yaml`, relative to the current directory. */
  file?: string;
  /** The environment; may be left out when the manifest defines only one. */
  environment?: string;
  /**
   * The variables `${NAME}` reads, and where the API key, AGENTSYNC_BASE_URL and
   * AGENTSYNC_STATE_URL are looked up. Default `process.env`.
   */
  env?: Readonly<Record<string, string | undefined>>;
}

export interface Loaded {
  file: string;
  /** The resolved manifest for one environment: what plan compares and apply sends. */
  desired: Desired;
  warnings: Diagnostic[];
}

/** Manifest → desired resources for one environment. Throws `ManifestError` listing every problem. */
export async function load(options: LoadOptions = {}): Promise<Loaded> {
  const file = options.file ?? 'agents.yaml';
  const { desired, warnings } = await loadDesired({ file, env: envOf(options), mode: 'plan', ...(options.environment === undefined ? {} : { environment: options.environment }) });
  return { file, desired, warnings };
}

export interface Validation {
  valid: boolean;
  /** Errors and warnings, each with file, line, column and YAML path. */
  diagnostics: Diagnostic[];
  /** The environments that were checked: all of them when `environment` is left out. */
  environments: string[];
}

/** `agentsync validate`: never throws for a bad manifest, only for one that cannot be read. */
export async function validate(options: LoadOptions = {}): Promise<Validation> {
  const { valid, diagnostics, environments } = await validateManifest({
    file: options.file ?? 'agents.yaml',
    env: envOf(options),
    ...(options.environment === undefined ? {} : { environment: options.environment }),
  });
  return { valid, diagnostics, environments };
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

/** A client for an environment's API; close() it when done. plan() and apply() make their own unless given one. */
export function createClient(environment: DesiredEnvironment, options: ClientOptions & Pick<LoadOptions, 'env'> = {}): ApiClient {
  const apiKey = options.apiKey ?? envOf(options)[environment.apiKeyEnv];
  if (apiKey === undefined || apiKey === '') {
    throw new UserError('config_invalid', `the API key is missing: set ${environment.apiKeyEnv} (or pass apiKey) to the REST API key of app "${environment.appId}"`);
  }
  return createApiClient({
    baseUrl: environment.baseUrl,
    apiKey,
    ...(options.concurrency === undefined ? {} : { concurrency: options.concurrency }),
    ...(options.retries === undefined ? {} : { retries: options.retries }),
    ...(options.timeoutMs === undefined ? {} : { timeouts: { responseMs: options.timeoutMs } }),
  });
}

export interface PlanOptions extends LoadOptions, ClientOptions {
  /** A state file, or a `postgres://` URL. Default as the CLI: AGENTSYNC_STATE_URL, the manifest's `state.url`, `.agentsync/<env>.state.json` beside the manifest. */
  state?: string;
  /**
   * Read the server before planning (the default), so drift and conflicts show. `false` is
   * `plan --offline`: the state alone, no API key, no network.
   */
  refresh?: boolean;
  /** Read the server through this client instead of one made from the API key. It is not closed. */
  client?: ApiClient;
  /** Stale-lock takeovers and journal recoveries; ignored unless given. */
  onWarning?: (warning: StateWarning) => void;
}

export interface PlanResult extends Loaded {
  plan: Plan;
  /** True when applying would create, update or forget something. */
  hasChanges: boolean;
}

/** `agentsync plan`: manifest + state (+ the server) → plan. Takes no lock and changes nothing. */
export async function plan(options: PlanOptions = {}): Promise<PlanResult> {
  const { loaded, store, target } = await loadWithStore(options);
  const refresh = options.refresh !== false;
  // As the CLI: the key is checked before the state is read, so a missing one is the error shown.
  const ownClient = refresh && !options.client ? createClient(loaded.desired.environment, { ...options, concurrency: options.concurrency ?? 2 }) : undefined;
  try {
    const client = options.client ?? ownClient;
    const computed = await planEnvironment({ desired: loaded.desired, store, target, ...(refresh && client ? { connect: async () => lentConnection(client) } : {}) });
    return { ...loaded, plan: computed.plan, hasChanges: hasChanges(computed.plan) };
  } finally {
    await ownClient?.close();
  }
}

export interface ApplyOptions extends Omit<PlanOptions, 'refresh'> {
  /** Wait this long for a state lock held by another run. Default 0: refuse at once. */
  lockTimeoutMs?: number;
  /**
   * Sees the plan computed under the state lock, before any call; return false to stop
   * (a `UserError` with code `refused`). Leave it out to apply without asking.
   */
  confirm?: (plan: Plan) => boolean | Promise<boolean>;
  /** Progress: each change as it starts, retries, is done or fails. */
  onEvent?: (event: ApplyEvent) => void;
}

export interface ApplyOutcome extends PlanResult {
  result: ApplyResult;
}

/** A change failed (`apply_failed`), or everything applied but the notify message failed (`api_error`). What succeeded is in `result` and in the state. */
export class ApplyFailedError extends UserError {
  constructor(
    code: Extract<ErrorCode, 'apply_failed' | 'api_error'>,
    message: string,
    readonly result: ApplyResult,
  ) {
    super(code, message);
  }
}

/** `agentsync apply --auto-approve` (or with `confirm`): plan under the state lock, then execute it, through the same use case as the CLI. */
export async function apply(options: ApplyOptions = {}): Promise<ApplyOutcome> {
  const { loaded, store, target } = await loadWithStore(options);
  // The key is checked before the lock is taken, so a missing key refuses without touching the state.
  const given = options.client;
  const client = given ?? createClient(loaded.desired.environment, options);
  let connected = false;
  try {
    const outcome = await applyPlan({
      desired: loaded.desired,
      store,
      target,
      lockTimeoutMs: options.lockTimeoutMs ?? 0,
      connect: async () => {
        connected = true;
        return given ? lentConnection(given) : ownConnection(Promise.resolve(client));
      },
      plan: (state, reader) => computePlan(loaded.desired, state, { client: reader }),
      concurrency: options.concurrency ?? 10,
      ...(options.confirm ? { approve: options.confirm } : {}),
      ...(options.onEvent ? { startExecution: () => ({ onEvent: options.onEvent }) } : {}),
    });
    if (outcome.kind === 'cancelled') throw new UserError('refused', 'apply cancelled; nothing was changed');
    const planned = { ...loaded, plan: outcome.plan, hasChanges: hasChanges(outcome.plan) };
    const verdict = applyVerdict(outcome.result);
    if (verdict !== undefined) throw new ApplyFailedError(verdict.code, verdict.message, outcome.result);
    return { ...planned, result: outcome.result };
  } finally {
    // Once connected, the use case lets go of the client; before that (the lock was refused), this does.
    if (!connected && !given) await client.close();
  }
}

/** Renders a plan as the CLI prints it: `text` (colour only when asked), `json` or `markdown` (for a pull request). */
export function renderPlan(planToRender: Plan, format: 'text' | 'json' | 'markdown', options: { color?: boolean } = {}): string {
  switch (format) {
    case 'json':
      return JSON.stringify(planToJson(planToRender), null, 2) + '\n';
    case 'markdown':
      return renderPlanMarkdown(planToRender);
    case 'text':
      return renderPlanText(planToRender, { color: options.color === true });
    default: {
      const _exhaustive: never = format;
      return _exhaustive;
    }
  }
}

function envOf(options: Pick<LoadOptions, 'env'>): Readonly<Record<string, string | undefined>> {
  return options.env ?? process.env;
}

/** The manifest and the state store, found as the CLI finds them (app/load.ts). */
async function loadWithStore(options: PlanOptions): Promise<{ loaded: Loaded; store: StateBackend; target: StateTarget }> {
  const file = options.file ?? 'agents.yaml';
  const { desired, warnings, store, target } = await loadForEnvironment({
    file,
    env: envOf(options),
    ...(options.environment === undefined ? {} : { environment: options.environment }),
    ...(options.state === undefined ? {} : { state: options.state }),
    ...(options.onWarning ? { onStateWarning: options.onWarning } : {}),
    stateOptionName: 'the state option',
  });
  return { loaded: { file, desired, warnings }, store, target };
}
