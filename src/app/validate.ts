// The validate use case: read the manifest and resolve it in validate mode, collecting every
// diagnostic instead of stopping at the first. The CLI and the programmatic API both call it. A
// manifest that is too big or not UTF-8 is a diagnostic too; one that cannot be read at all
// (missing, a folder, no permission) still throws.
import { hasErrors, ManifestError, type Diagnostic } from '../core/diagnostics.js';
import { attachLocalFiles } from '../io/manifest/local-files.js';
import { resolveManifest } from '../core/resolve.js';
import type { VarOverrides } from '../core/var-overrides.js';
import type { ManifestSource } from '../io/manifest/manifest-file.js';
import { parseManifestRead, readManifest } from '../io/manifest/manifest-parts.js';
import { manifestName, type ManifestLocation } from '../io/manifest/manifest-location.js';

export interface ValidateRequest {
  /** A file, a folder of parts, or several. */
  file: ManifestLocation;
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
  let file = manifestName(request.file);
  try {
    const read = await readManifest(request.file, request.source);
    file = read.name;
    const parsed = parseManifestRead(read);
    await attachLocalFiles(parsed, request.source?.cwd);
    const resolution = resolveManifest(parsed, {
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
