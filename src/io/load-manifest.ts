// The manifest stage as plan and apply use it: read the file, parse, resolve, and either return
// the Desired model (with warnings) or throw one ManifestError holding every error.
import { hasErrors, ManifestError, sortDiagnostics, type Diagnostic } from '../core/diagnostics.js';
import type { Desired } from '../core/desired.js';
import { UserError } from '../core/errors.js';
import { parseManifest } from '../core/parse.js';
import { mergeRuns, resolveManifest, type ResolveMode } from '../core/resolve.js';
import { readManifestFile } from './manifest-file.js';

export interface LoadOptions {
  file: string;
  environment?: string;
  env: Readonly<Record<string, string | undefined>>;
  mode: ResolveMode;
}

export interface LoadedManifest {
  desired: Desired;
  warnings: Diagnostic[];
  /** The manifest text as read, e.g. for a saved plan's fingerprint. */
  text: string;
}

export async function loadDesired(options: LoadOptions): Promise<LoadedManifest> {
  const { file, text } = await readManifestFile(options.file);
  const resolution = resolveManifest(parseManifest(file, text), {
    env: options.env,
    mode: options.mode,
    ...(options.environment === undefined ? {} : { environment: options.environment }),
  });
  if (hasErrors(resolution.diagnostics)) throw new ManifestError(resolution.diagnostics);
  if (resolution.desired === undefined) {
    throw new UserError('environment_invalid', `choose one environment with -e (the manifest defines ${resolution.environments.join(', ')})`);
  }
  return { desired: resolution.desired, warnings: resolution.diagnostics.filter((d) => d.severity === 'warning'), text };
}

export interface LoadManyOptions {
  file: string;
  env: Readonly<Record<string, string | undefined>>;
  /** Picks environments from the names the manifest defines; throws a UserError for a name it does not define. */
  select: (names: readonly string[]) => string[];
}

export interface LoadedManifests {
  /** One per selected environment, in the order selected. */
  desired: Desired[];
  warnings: Diagnostic[];
}

/**
 * The manifest stage for several environments (CONTRACT §9.2): the file is read and parsed once,
 * then resolved for each environment. Every environment's errors are reported together, before
 * anything touches the network, so one bad environment stops the whole run.
 */
export async function loadDesiredForEnvironments(options: LoadManyOptions): Promise<LoadedManifests> {
  const { file, text } = await readManifestFile(options.file);
  const parsed = parseManifest(file, text);
  const envs = parsed.value?.environments;
  const names = envs !== null && typeof envs === 'object' && !Array.isArray(envs) ? Object.keys(envs) : [];
  if (names.length === 0) {
    // Nothing to choose from: let the resolution say what is wrong with the file.
    const resolution = resolveManifest(parsed, { env: options.env, mode: 'plan' });
    if (hasErrors(resolution.diagnostics)) throw new ManifestError(resolution.diagnostics);
    throw new UserError('manifest_invalid', `${file} defines no environment`);
  }
  const selected = options.select(names);
  const runs = selected.map((environment) => {
    const resolution = resolveManifest(parsed, { env: options.env, mode: 'plan', environment });
    // Each resolution writes its values into the one parsed tree, and a few parts of Desired may
    // share objects with it: a copy keeps this environment's values from the next one's.
    return { diagnostics: resolution.diagnostics, desired: resolution.desired && structuredClone(resolution.desired) };
  });
  const diagnostics = sortDiagnostics(mergeRuns(runs.map((run) => run.diagnostics), selected));
  if (hasErrors(diagnostics)) throw new ManifestError(diagnostics);
  const desired = runs.map((run, i) => {
    if (run.desired === undefined) throw new UserError('environment_invalid', `environment "${selected[i]}" could not be resolved`);
    return run.desired;
  });
  return { desired, warnings: diagnostics.filter((d) => d.severity === 'warning') };
}
