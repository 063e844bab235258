// The manifest stage as plan and apply use it: read the file, parse, resolve, and either return
// the Desired model (with warnings) or throw one ManifestError holding every error.
import { hasErrors, ManifestError, sortDiagnostics, type Diagnostic } from '../../core/diagnostics.js';
import type { Desired } from '../../core/desired.js';
import { UserError } from '../../core/errors.js';
import type { ParsedManifest } from '../../core/parse.js';
import { mergeRuns, resolveManifest, type ResolveMode } from '../../core/resolve.js';
import type { ManifestSource } from './manifest-file.js';
import { parseManifestRead, readManifest, type ManifestRead } from './manifest-parts.js';
import { type ManifestLocation } from './manifest-location.js';
import { attachLocalFiles } from './local-files.js';
import type { VarValue } from '../../core/schema.js';

export interface LoadOptions {
  file: ManifestLocation;
  /** Where relative paths and `-f -` are read from. */
  source?: ManifestSource;
  environment?: string;
  env: Readonly<Record<string, string | undefined>>;
  mode: ResolveMode;
  /** `--var` / `--var-file`. */
  varOverrides?: Readonly<Record<string, VarValue>>;
  /**
   * Receives the strings that must never be printed (API keys, secret values) as soon as they are
   * known, before any diagnostic is thrown, so the caller can hide them from every later output.
   */
  onSensitiveValues?: (values: readonly string[]) => void;
}

export interface LoadedManifest {
  desired: Desired;
  warnings: Diagnostic[];
  /** The manifest text as read (every part's, for a manifest in many files), e.g. for a saved plan's fingerprint. */
  text: string;
}

export async function loadDesired(options: LoadOptions): Promise<LoadedManifest> {
  const read = await readManifest(options.file, options.source);
  const parsed = parseOnce(read);
  await attachLocalFiles(parsed, options.source?.cwd);
  if (options.environment === undefined) assertOneEnvironment(parsed);
  const resolution = resolveManifest(parsed, {
    env: options.env,
    mode: options.mode,
    ...(options.environment === undefined ? {} : { environment: options.environment }),
    ...(options.varOverrides === undefined ? {} : { varOverrides: options.varOverrides }),
  });
  options.onSensitiveValues?.(resolution.sensitiveValues);
  if (hasErrors(resolution.diagnostics)) throw new ManifestError(resolution.diagnostics);
  if (resolution.desired === undefined) {
    throw new UserError('environment_invalid', `choose one environment with -e (the manifest defines ${resolution.environments.join(', ')})`);
  }
  return { desired: resolution.desired, warnings: resolution.diagnostics.filter((d) => d.severity === 'warning'), text: read.text };
}

export interface LoadManyOptions {
  file: ManifestLocation;
  source?: ManifestSource;
  env: Readonly<Record<string, string | undefined>>;
  /** Picks environments from the names the manifest defines; throws a UserError for a name it does not define. */
  select: (names: readonly string[]) => string[];
  varOverrides?: Readonly<Record<string, VarValue>>;
  /** Receives each environment's secret values as soon as it is resolved, to keep them out of outside text. */
  onSensitiveValues?: (values: readonly string[]) => void;
  /** `validate` when the resources are not used (`diff --live-only`): an unset secret is then only a warning. */
  mode?: ResolveMode;
}

export interface LoadedManifests {
  /** The environments selected, in that order. */
  selected: string[];
  /** One per selected environment, in the same order; empty when only one was selected (its own path resolves it). */
  desired: Desired[];
  warnings: Diagnostic[];
}

/**
 * The manifest stage for several environments (docs/spec/state.md#many-environments): the file is
 * read and parsed once, then resolved for each environment. Every environment's errors are reported
 * together, before anything touches the network, so one bad environment stops the whole run. A
 * selection that comes down to one environment is not resolved here: the one-environment path does
 * that.
 */
export async function loadDesiredForEnvironments(options: LoadManyOptions): Promise<LoadedManifests> {
  const read = await readManifest(options.file, options.source);
  const parsed = parseOnce(read);
  await attachLocalFiles(parsed, options.source?.cwd);
  const envs = parsed.value?.environments;
  const names = envs !== null && typeof envs === 'object' && !Array.isArray(envs) ? Object.keys(envs) : [];
  if (names.length === 0) {
    // Nothing to choose from: let the resolution say what is wrong with the file.
    const resolution = resolveManifest(parsed, { env: options.env, mode: 'plan' });
    if (hasErrors(resolution.diagnostics)) throw new ManifestError(resolution.diagnostics);
    throw new UserError('manifest_invalid', `${read.name} defines no environment`);
  }
  const selected = options.select(names);
  if (selected.length === 1) return { selected, desired: [], warnings: [] };
  const runs = selected.map((environment) => {
    const resolution = resolveManifest(parsed, { env: options.env, mode: options.mode ?? 'plan', environment, ...(options.varOverrides === undefined ? {} : { varOverrides: options.varOverrides }) });
    options.onSensitiveValues?.(resolution.sensitiveValues);
    // Each resolution writes its values into the one parsed tree, and a few parts of Desired may
    // share objects with it: a copy keeps this environment's values from the next one's.
    return { diagnostics: resolution.diagnostics, desired: resolution.desired && structuredClone(resolution.desired) };
  });
  const diagnostics = sortDiagnostics(
    mergeRuns(
      runs.map((run) => run.diagnostics),
      selected,
    ),
  );
  if (hasErrors(diagnostics)) throw new ManifestError(diagnostics);
  const desired = runs.map((run, i) => {
    if (run.desired === undefined) throw new UserError('environment_invalid', `environment "${selected[i]}" could not be resolved`);
    return run.desired;
  });
  return { selected, desired, warnings: diagnostics.filter((d) => d.severity === 'warning') };
}

/**
 * Parsing is most of the manifest stage (a 1,000-tool file takes far longer to parse than to
 * resolve), and `--all-environments` on a one-environment manifest reads it twice: once to count
 * the environments, once on the one-environment path. The same text is parsed once per process.
 * Sharing the parse is safe because every resolution rewrites every interpolated value it reads.
 */
let lastParse: { name: string; text: string; parsed: ParsedManifest } | undefined;

function parseOnce(read: ManifestRead): ParsedManifest {
  // The local files it names are read again by each load: the same text may name other content
  // (a file edited since, or another folder's file of the same name).
  if (lastParse?.name === read.name && lastParse.text === read.text) return withoutLocalFiles(lastParse.parsed);
  const parsed = parseManifestRead(read);
  lastParse = { name: read.name, text: read.text, parsed };
  return withoutLocalFiles(parsed);
}

function withoutLocalFiles(parsed: ParsedManifest): ParsedManifest {
  const { localFiles: _read, ...copy } = parsed;
  return copy;
}

/** Without -e, a well-formed manifest with several environments is a question to answer, not an invalid manifest. */
function assertOneEnvironment(parsed: ParsedManifest): void {
  if (hasErrors(parsed.diagnostics)) return;
  const envs = parsed.value?.environments;
  const names = envs !== null && typeof envs === 'object' && !Array.isArray(envs) ? Object.keys(envs) : [];
  if (names.length > 1) {
    throw new UserError('environment_invalid', `${parsed.file} defines several environments; choose an environment with -e: ${names.join(', ')}`, { environments: names });
  }
}
