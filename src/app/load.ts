// The first stage of plan, apply, import and send: the manifest resolved for one environment, and
// the state store that environment uses (the --state option, AGENTSYNC_STATE_URL, the manifest's
// `state.url`, or `.agentsync/<env>.state.json` beside the manifest, in that order). The CLI and
// the programmatic API both load through it, so they always find the same state.
import type { Desired } from '../core/desired.js';
import type { Diagnostic } from '../core/diagnostics.js';
import type { VarOverrides } from '../core/var-overrides.js';
import { loadDesired } from '../io/manifest/load-manifest.js';
import type { ManifestSource } from '../io/manifest/manifest-file.js';
import { manifestHome, type ManifestLocation } from '../io/manifest/manifest-location.js';
import { chooseStateLocation, createStateStore, type StateBackend, type StateTarget, type StateWarning } from '../io/state/index.js';

export interface LoadRequest {
  /** A file, a folder of parts, or several. */
  file: ManifestLocation;
  /** Where a relative `file` (and the state beside it) and `-f -` are read from. */
  source?: ManifestSource;
  /** May be left out when the manifest defines only one environment. */
  environment?: string;
  /** Where `${NAME}`, the API key and AGENTSYNC_STATE_URL are looked up. */
  env: Readonly<Record<string, string | undefined>>;
  /** The --state option (or the library's `state`). */
  state?: string;
  varOverrides?: VarOverrides;
  /** Told the `${secret:…}` values, so the caller can keep them out of what it prints. */
  onSensitiveValues?: (values: readonly string[]) => void;
  onStateWarning?: (warning: StateWarning) => void;
  /** How the state option is named in messages. */
  stateOptionName?: string;
}

export interface LoadedEnvironment {
  desired: Desired;
  warnings: Diagnostic[];
  store: StateBackend;
  target: StateTarget;
  /** The manifest file's text: a saved plan's digest of it tells a manifest change from a variable's. */
  text: string;
}

export async function loadForEnvironment(request: LoadRequest): Promise<LoadedEnvironment> {
  const { desired, warnings, text } = await loadDesired({
    file: request.file,
    ...(request.source ? { source: request.source } : {}),
    env: request.env,
    mode: 'plan',
    ...(request.environment === undefined ? {} : { environment: request.environment }),
    ...(request.onSensitiveValues ? { onSensitiveValues: request.onSensitiveValues } : {}),
    ...(request.varOverrides ? { varOverrides: request.varOverrides } : {}),
  });
  const { name: environment, appId, region } = desired.environment;
  const { location, key, source } = chooseStateLocation({
    flag: request.state,
    envUrl: request.env.AGENTSYNC_STATE_URL,
    manifest: desired.state,
    manifestFile: manifestHome(request.file),
    environment,
    ...(request.source?.cwd === undefined ? {} : { cwd: request.source.cwd }),
  });
  const named = source === '--state' && request.stateOptionName ? request.stateOptionName : source;
  const store = createStateStore(location, {
    key,
    source: named,
    ...(request.source?.cwd === undefined ? {} : { cwd: request.source.cwd }),
    ...(request.onStateWarning ? { onWarning: request.onStateWarning } : {}),
  });
  return { desired, warnings, store, target: { environment, appId, region }, text };
}
