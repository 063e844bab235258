// Finds the state for the `state` commands from -f/-e/--state, AGENTSYNC_STATE_URL and the
// manifest's `state` block, reading only the `environments` and `state` blocks: these commands must
// work even when the rest of the manifest does not validate (that is often exactly when someone
// needs to inspect or fix the state).
import { stat } from 'node:fs/promises';
import { hasErrors, ManifestError } from '../../core/diagnostics.js';
import { interpolate } from '../../core/interpolate.js';
import type { Region } from '../../core/api-types.js';
import { UserError } from '../../core/errors.js';
import { parseManifestRead, readManifest } from '../manifest/manifest-parts.js';
import { manifestHome, manifestName, manifestPaths, type ManifestLocation } from '../manifest/manifest-location.js';
import { pathForRun } from '../files/run-path.js';
import { hasCode } from './atomic-write.js';
import { chooseStateLocation, type StateLocation } from './factory.js';
import { isPostgresUrl } from './pg/url.js';
import type { StateTarget } from './store.js';
import { unknownEnvironmentError } from '../../core/unknown-environment.js';

export interface LocateOptions {
  /** A file, a folder of parts, or several. */
  file: ManifestLocation;
  /** -f was given explicitly (so a missing manifest is an error even with --state). */
  fileGiven: boolean;
  env?: string;
  state?: string;
  /** The process environment, for AGENTSYNC_STATE_URL and the `state` block's ${NAME}s. */
  processEnv?: Readonly<Record<string, string | undefined>>;
  /** The folder relative paths are relative to (default: the process's). */
  cwd?: string;
}

export interface LocatedState extends StateLocation {
  /** What the state must match; only the fields the manifest states literally. */
  target: Partial<StateTarget>;
}

export async function locateState(opts: LocateOptions): Promise<LocatedState> {
  const processEnv = opts.processEnv ?? process.env;
  const envUrl = processEnv.AGENTSYNC_STATE_URL;
  const explicit = opts.state ?? (envUrl === '' ? undefined : envUrl);
  const tree = await readManifestTree(opts.file, explicit === undefined || opts.fileGiven, opts.cwd);
  if (tree === null) {
    // A location without a manifest: nothing to check against except an explicit -e.
    const location = explicit!;
    if (opts.env === undefined && isPostgresUrl(location)) {
      throw new UserError('usage', `without a manifest, pass -e <environment> to say which state to use (the key in ${opts.state !== undefined ? '--state' : 'AGENTSYNC_STATE_URL'})`);
    }
    const source = opts.state !== undefined ? '--state' : 'AGENTSYNC_STATE_URL';
    return { location, key: opts.env ?? 'default', source, target: opts.env === undefined ? {} : { environment: opts.env } };
  }
  const name = manifestName(opts.file);
  const environments = environmentsOf(name, tree);
  const environment = chooseEnvironment(name, Object.keys(environments), opts.env);
  const target = literalTarget(environment, environments[environment]);
  const manifest = stateBlock(name, tree.state, environments[environment], environment, processEnv);
  return { ...chooseStateLocation({ flag: opts.state, envUrl, manifest, manifestFile: manifestHome(opts.file), environment, ...(opts.cwd === undefined ? {} : { cwd: opts.cwd }) }), target };
}

/**
 * The manifest as a plain value; null when it is absent and not required. The file gets the same
 * hostile-file checks and YAML parse as everywhere else, but not the schema.
 */
async function readManifestTree(location: ManifestLocation, required: boolean, cwd: string | undefined): Promise<Record<string, unknown> | null> {
  for (const file of manifestPaths(location)) {
    try {
      await stat(pathForRun(cwd, file));
    } catch (err) {
      if (!hasCode(err, 'ENOENT')) throw new UserError('manifest_unreadable', `cannot read manifest ${file}: ${(err as Error).message}`, { file });
      if (!required) return null;
      throw new UserError('manifest_unreadable', `cannot read manifest ${file}: no such file (pass -f <file>, or the state with --state <path|url>)`, { file });
    }
  }
  const parsed = parseManifestRead(await readManifest(location, cwd === undefined ? {} : { cwd }));
  if (hasErrors(parsed.diagnostics)) throw new ManifestError(parsed.diagnostics);
  return isRecord(parsed.value) ? parsed.value : {};
}

function environmentsOf(file: string, tree: Record<string, unknown>): Record<string, unknown> {
  const environments = tree.environments;
  if (!isRecord(environments) || Object.keys(environments).length === 0) {
    throw new UserError('manifest_invalid', `${file}: environments must be a map with at least one environment`, { file });
  }
  return environments;
}

/** The `state` block's url and key, interpolated like the rest of the manifest (env and vars). */
function stateBlock(file: string, block: unknown, config: unknown, environment: string, env: Readonly<Record<string, string | undefined>>) {
  if (block === undefined) return undefined;
  if (!isRecord(block)) throw new UserError('manifest_invalid', `${file}: state must be a map with url and an optional key`, { file });
  const rawVars = isRecord(config) && isRecord(config.vars) ? config.vars : {};
  const vars = Object.fromEntries(Object.entries(rawVars).filter((e): e is [string, string | number | boolean] => ['string', 'number', 'boolean'].includes(typeof e[1])));
  const field = (name: 'url' | 'key'): string | undefined => {
    const value = block[name];
    if (value === undefined) return undefined;
    if (typeof value !== 'string') throw new UserError('manifest_invalid', `${file}: state.${name} must be a string`, { file });
    const resolved = interpolate(value, { env, vars, environmentName: environment, secretsAllowed: false });
    const problem = resolved.problems[0];
    if (problem) throw new UserError('manifest_invalid', `${file}: state.${name}: ${problem.message}`, { file });
    return resolved.value;
  };
  return { url: field('url'), key: field('key') };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function chooseEnvironment(file: string, names: string[], requested: string | undefined): string {
  if (requested !== undefined) {
    if (names.includes(requested)) return requested;
    throw unknownEnvironmentError([requested], names, file);
  }
  if (names.length === 1) return names[0]!;
  throw new UserError('environment_invalid', `${file} defines several environments; choose an environment with -e: ${names.join(', ')}`, { environments: names });
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
