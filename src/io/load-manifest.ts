// The manifest stage as plan and apply use it: read the file, parse, resolve, and either return
// the Desired model (with warnings) or throw one ManifestError holding every error.
import { hasErrors, ManifestError, type Diagnostic } from '../core/diagnostics.js';
import type { Desired } from '../core/desired.js';
import { UserError } from '../core/errors.js';
import { parseManifest, type ParsedManifest } from '../core/parse.js';
import { resolveManifest, type ResolveMode } from '../core/resolve.js';
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
  const parsed = parseManifest(file, text);
  if (options.environment === undefined) assertOneEnvironment(parsed);
  const resolution = resolveManifest(parsed, {
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

/** Without -e, a well-formed manifest with several environments is a question to answer, not an invalid manifest. */
function assertOneEnvironment(parsed: ParsedManifest): void {
  if (hasErrors(parsed.diagnostics)) return;
  const envs = parsed.value?.environments;
  const names = envs !== null && typeof envs === 'object' && !Array.isArray(envs) ? Object.keys(envs) : [];
  if (names.length > 1) {
    throw new UserError('environment_invalid', `${parsed.file} defines several environments; choose an environment with -e: ${names.join(', ')}`, { environments: names });
  }
}
