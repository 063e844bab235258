// The manifest stage as plan and apply use it: read the file, parse, resolve, and either return
// the Desired model (with warnings) or throw one ManifestError holding every error.
import { hasErrors, ManifestError, type Diagnostic } from '../core/diagnostics.js';
import type { Desired } from '../core/desired.js';
import { UserError } from '../core/errors.js';
import { parseManifest } from '../core/parse.js';
import { resolveManifest, type ResolveMode } from '../core/resolve.js';
import { readManifestFile } from './manifest-file.js';

export interface LoadOptions {
  file: string;
  environment?: string;
  env: Readonly<Record<string, string | undefined>>;
  mode: ResolveMode;
  /**
   * Receives the strings that must never be printed (API keys, secret values) as soon as they are
   * known, before any diagnostic is thrown, so the caller can hide them from every later output.
   */
  onSensitiveValues?: (values: readonly string[]) => void;
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
  options.onSensitiveValues?.(resolution.sensitiveValues);
  if (hasErrors(resolution.diagnostics)) throw new ManifestError(resolution.diagnostics);
  if (resolution.desired === undefined) {
    throw new UserError('environment_invalid', `choose one environment with -e (the manifest defines ${resolution.environments.join(', ')})`);
  }
  return { desired: resolution.desired, warnings: resolution.diagnostics.filter((d) => d.severity === 'warning'), text };
}
