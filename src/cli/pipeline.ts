// The manifest and its state store, as the CLI's planning commands load them (plan, apply, import,
// send): its options, its warnings on stderr. Planning itself is app/compute-plan.ts.
import { loadForEnvironment, type LoadedEnvironment } from '../app/load.js';
import { readVarOverrides } from '../io/manifest/var-overrides.js';
import type { VarOverrides } from '../core/var-overrides.js';
import type { ManifestOptions } from './options.js';
import { hideInOutput } from '../io/api/outside-text.js';
import { printStateWarning } from './render-plan.js';
import { manifestSource, type CliIo } from './cli-io.js';

/** The manifest and its store, and the --var/--var-file overrides it was resolved with (a saved plan records them). */
export type LoadedManifest = LoadedEnvironment & { varOverrides?: VarOverrides };

export async function loadManifestAndStore(opts: ManifestOptions, io: CliIo): Promise<LoadedManifest> {
  const varOverrides = await readVarOverrides(opts, io.cwd);
  const loaded = await loadForEnvironment({
    file: opts.file,
    source: manifestSource(io),
    ...(opts.env === undefined ? {} : { environment: opts.env }),
    env: io.env,
    ...(opts.state === undefined ? {} : { state: opts.state }),
    ...(varOverrides ? { varOverrides } : {}),
    onSensitiveValues: hideInOutput,
    onStateWarning: (warning) => printStateWarning(io, warning),
  });
  return varOverrides ? { ...loaded, varOverrides } : loaded;
}
