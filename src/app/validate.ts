// The validate use case: read the manifest and resolve it in validate mode, collecting every
// diagnostic instead of stopping at the first. The CLI and the programmatic API both call it. A
// manifest that is too big or not UTF-8 is a diagnostic too; one that cannot be read at all
// (missing, a folder, no permission) still throws.
import { hasErrors, ManifestError, type Diagnostic } from '../core/diagnostics.js';
import { parseManifest } from '../core/parse.js';
import { resolveManifest } from '../core/resolve.js';
import type { VarOverrides } from '../core/var-overrides.js';
import { readManifestFile, type ManifestSource } from '../io/manifest/manifest-file.js';

export interface ValidateRequest {
  file: string;
  /** Where a relative `file` and `-f -` are read from. */
  source?: ManifestSource;
  /** Check one environment; all of them when absent. */
  environment?: string;
  /** Where `${NAME}` is looked up. */
  env: Readonly<Record<string, string | undefined>>;
  varOverrides?: VarOverrides;
  /** Told the `${secret:…}` values, so the caller can keep them out of what it prints. */
  onSensitiveValues?: (values: readonly string[]) => void;
}

export interface Validation {
  valid: boolean;
  /** Errors and warnings, each with file, line, column and YAML path. */
  diagnostics: Diagnostic[];
  /** The environments that were checked. */
  environments: string[];
  /** The manifest's name as read (`-` becomes its display name). */
  file: string;
}

export async function validateManifest(request: ValidateRequest): Promise<Validation> {
  let file = request.file;
  try {
    const read = await readManifestFile(request.file, request.source);
    file = read.file;
    const text = read.text;
    const resolution = resolveManifest(parseManifest(file, text), {
      env: request.env,
      mode: 'validate',
      ...(request.varOverrides ? { varOverrides: request.varOverrides } : {}),
      ...(request.environment === undefined ? {} : { environment: request.environment }),
    });
    request.onSensitiveValues?.(resolution.sensitiveValues);
    return { valid: !hasErrors(resolution.diagnostics), diagnostics: resolution.diagnostics, environments: resolution.environments, file };
  } catch (err) {
    if (!(err instanceof ManifestError)) throw err;
    return { valid: false, diagnostics: err.diagnostics, environments: [], file };
  }
}
