// Finds the state file for the `state` commands from -f/-e/--state, reading only the manifest's
// `environments` block: these commands must work even when the rest of the manifest does not
// validate (that is often exactly when someone needs to inspect or fix the state).
import { stat } from 'node:fs/promises';
import { hasErrors, ManifestError } from '../../core/diagnostics.js';
import { parseManifest } from '../../core/parse.js';
import type { Region } from '../../core/api-types.js';
import { UserError } from '../../core/errors.js';
import { readManifestFile } from '../manifest-file.js';
import { hasCode } from './atomic-write.js';
import { defaultStatePath } from './paths.js';
import type { StateTarget } from './store.js';

export interface LocateOptions {
  file: string;
  /** -f was given explicitly (so a missing manifest is an error even with --state). */
  fileGiven: boolean;
  env?: string;
  state?: string;
}

export interface LocatedState {
  statePath: string;
  /** What the state must match; only the fields the manifest states literally. */
  target: Partial<StateTarget>;
}

export async function locateState(opts: LocateOptions): Promise<LocatedState> {
  const environments = await readEnvironments(opts.file, opts.state === undefined || opts.fileGiven);
  if (environments === null) {
    // --state without a manifest: nothing to check against except an explicit -e.
    return { statePath: opts.state!, target: opts.env === undefined ? {} : { environment: opts.env } };
  }
  const environment = chooseEnvironment(opts.file, Object.keys(environments), opts.env);
  const target = literalTarget(environment, environments[environment]);
  return { statePath: opts.state ?? defaultStatePath(opts.file, environment), target };
}

/**
 * The `environments` map; null when the manifest is absent and not required. The file gets the
 * same hostile-file checks and YAML parse as everywhere else, but not the schema.
 */
async function readEnvironments(file: string, required: boolean): Promise<Record<string, unknown> | null> {
  try {
    await stat(file);
  } catch (err) {
    if (!hasCode(err, 'ENOENT')) throw new UserError('manifest_unreadable', `cannot read manifest ${file}: ${(err as Error).message}`, { file });
    if (!required) return null;
    throw new UserError('manifest_unreadable', `cannot read manifest ${file}: no such file (pass -f <file>, or the state file with --state <path>)`, { file });
  }
  const { text } = await readManifestFile(file);
  const parsed = parseManifest(file, text);
  if (hasErrors(parsed.diagnostics)) throw new ManifestError(parsed.diagnostics);
  const environments = parsed.value?.environments;
  if (typeof environments !== 'object' || environments === null || Array.isArray(environments) || Object.keys(environments).length === 0) {
    throw new UserError('manifest_invalid', `${file}: environments must be a map with at least one environment`, { file });
  }
  return environments as Record<string, unknown>;
}

function chooseEnvironment(file: string, names: string[], requested: string | undefined): string {
  if (requested !== undefined) {
    if (names.includes(requested)) return requested;
    throw new UserError('environment_invalid', `unknown environment "${requested}" (from -e); ${file} defines ${names.join(', ')}`);
  }
  if (names.length === 1) return names[0]!;
  throw new UserError('environment_invalid', `${file} defines several environments (${names.join(', ')}); choose one with -e <name>`);
}

/** appId and region, unless they are interpolated (resolving those is the manifest stage's job). */
function literalTarget(environment: string, config: unknown): Partial<StateTarget> {
  const target: Partial<StateTarget> = { environment };
  if (typeof config !== 'object' || config === null) return target;
  const { appId, region } = config as { appId?: unknown; region?: unknown };
  if (typeof appId === 'string' && appId !== '' && !appId.includes('${')) target.appId = appId;
  if (region === 'us' || region === 'eu' || region === 'in') target.region = region satisfies Region;
  return target;
}
