// The manifest and its state store, as the CLI's planning commands load them (plan, apply, import,
// send): its options, its warnings on stderr. Planning itself is app/compute-plan.ts.
import type { Desired } from '../core/desired.js';
import type { Diagnostic } from '../core/diagnostics.js';
import { loadDesired } from '../io/manifest/load-manifest.js';
import { readVarOverrides } from '../io/manifest/var-overrides.js';
import { chooseStateLocation, createStateStore, type StateStore, type StateTarget } from '../io/state/index.js';
import type { ManifestOptions } from './options.js';
import { hideInOutput } from '../io/api/outside-text.js';
import { printStateWarning } from './render-plan.js';

export interface LoadedManifest {
  desired: Desired;
  warnings: Diagnostic[];
  store: StateStore;
  target: StateTarget;
  /** The manifest file's text: a saved plan's digest of it tells a manifest change from a variable's. */
  text: string;
}

export async function loadManifestAndStore(opts: ManifestOptions): Promise<LoadedManifest> {
  const varOverrides = await readVarOverrides(opts);
  const { desired, warnings, text } = await loadDesired({ file: opts.file, environment: opts.env, env: process.env, mode: 'plan', onSensitiveValues: hideInOutput, ...(varOverrides ? { varOverrides } : {}) });
  const { name: environment, appId, region } = desired.environment;
  const { location, key, source } = chooseStateLocation({
    flag: opts.state,
    envUrl: process.env.AGENTSYNC_STATE_URL,
    manifest: desired.state,
    manifestFile: opts.file,
    environment,
  });
  const store = createStateStore(location, { key, source, onWarning: printStateWarning });
  return { desired, warnings, store, target: { environment, appId, region }, text };
}
