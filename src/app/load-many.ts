// The load-many use case: one reading of the manifest resolved for several environments, each with
// its own state store (docs/spec/state.md#many-environments). plan and apply with several `-e` (or
// --all-environments) and `diff` (the CLI's and the library's) all load through it, so they find
// the same states. Two environments on one state would overwrite each other: that is refused.
import type { Desired } from '../core/desired.js';
import type { Diagnostic } from '../core/diagnostics.js';
import type { UserError } from '../core/errors.js';
import type { VarOverrides } from '../core/var-overrides.js';
import { loadDesiredForEnvironments } from '../io/manifest/load-manifest.js';
import type { ResolveMode } from '../core/resolve.js';
import type { ManifestSource } from '../io/manifest/manifest-file.js';
import { manifestHome, type ManifestLocation } from '../io/manifest/manifest-location.js';
import { chooseStateLocation, createStateStore, type StateStore, type StateTarget, type StateWarning } from '../io/state/index.js';

export interface LoadManyRequest {
  file: ManifestLocation;
  source?: ManifestSource;
  /** Where `${NAME}`, the API keys and AGENTSYNC_STATE_URL are looked up. */
  env: Readonly<Record<string, string | undefined>>;
  /** Picks environments from the names the manifest defines; a name it does not define is the caller's UserError. */
  select: (names: readonly string[]) => string[];
  /** The --state option, when the caller takes one. */
  state?: string;
  varOverrides?: VarOverrides;
  /** How the resources are resolved: 'validate' asks for no secret (diff --live-only reads none of them). Default 'plan'. */
  mode?: ResolveMode;
  onSensitiveValues?: (values: readonly string[]) => void;
  onStateWarning?: (environment: string, warning: StateWarning) => void;
  /** The refusal when two environments would share one state: the caller says what to do instead. */
  sharedState: (first: string, second: string, where: { location: string; source: string }) => UserError;
}

export interface EnvironmentLoad {
  desired: Desired;
  store: StateStore;
  target: StateTarget;
}

export interface LoadedMany {
  /** The environments selected, in the order `select` gave. */
  selected: string[];
  /** One per selected environment; empty when only one was selected (the one-environment path loads it). */
  environments: EnvironmentLoad[];
  warnings: Diagnostic[];
}

export async function loadManyEnvironments(request: LoadManyRequest): Promise<LoadedMany> {
  const { selected, desired, warnings } = await loadDesiredForEnvironments({
    file: request.file,
    ...(request.source ? { source: request.source } : {}),
    env: request.env,
    select: request.select,
    ...(request.mode ? { mode: request.mode } : {}),
    ...(request.varOverrides ? { varOverrides: request.varOverrides } : {}),
    ...(request.onSensitiveValues ? { onSensitiveValues: request.onSensitiveValues } : {}),
  });
  const cwd = request.source?.cwd;
  const seen = new Map<string, string>();
  const environments = desired.map((d): EnvironmentLoad => {
    const { name, appId, region } = d.environment;
    const { location, key, source } = chooseStateLocation({
      flag: request.state,
      envUrl: request.env.AGENTSYNC_STATE_URL,
      manifest: d.state,
      manifestFile: manifestHome(request.file),
      environment: name,
      ...(cwd === undefined ? {} : { cwd }),
    });
    const store = createStateStore(location, { key, source, ...(cwd === undefined ? {} : { cwd }), onWarning: (w) => request.onStateWarning?.(name, w) });
    const other = seen.get(store.location);
    if (other !== undefined) throw request.sharedState(other, name, { location: store.location, source });
    seen.set(store.location, name);
    return { desired: d, store, target: { environment: name, appId, region } };
  });
  return { selected, environments, warnings };
}
