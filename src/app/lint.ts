// The lint use case: the rules beyond validity (core/lint), and the manifest's validity errors
// beside them, so that a manifest `validate` rejects never passes `lint` (docs/spec/commands.md#lint).
// The CLI and the programmatic API both call it.
import { capDiagnostics } from '../core/diagnostics.js';
import { lintManifest, type LintFinding } from '../core/lint/index.js';
import { resolveManifest } from '../core/resolve.js';
import { attachLocalFiles } from '../io/manifest/local-files.js';
import type { ManifestSource } from '../io/manifest/manifest-file.js';
import { parseManifestRead, readManifest } from '../io/manifest/manifest-parts.js';
import type { ManifestLocation } from '../io/manifest/manifest-location.js';

export interface LintRequest {
  /** A file, a folder of parts, or several. */
  file: ManifestLocation;
  /** Where a relative `file` and `-f -` are read from. */
  source?: ManifestSource;
  /** Where `${NAME}` is looked up, as `validate` looks it up. */
  env: Readonly<Record<string, string | undefined>>;
  /** Told the `${secret:…}` values, so the caller can keep them out of what it prints. */
  onSensitiveValues?: (values: readonly string[]) => void;
}

export interface LintReport {
  /** Every finding, sorted by file and position; validity errors have the rule `invalid`. */
  findings: LintFinding[];
  /** The manifest's name as read (`-` becomes its display name). */
  file: string;
}

/** Throws only for a manifest that cannot be read at all, as validate does. */
export async function lintManifestFile(request: LintRequest): Promise<LintReport> {
  const read = await readManifest(request.file, request.source);
  const parsed = parseManifestRead(read);
  // The rules read the tree as written (a `${secret:…}` is still visible); resolving writes the
  // interpolated values into it, so it comes second.
  const findings = lintManifest(parsed);
  if (findings.some((finding) => finding.rule === 'parse')) return { findings: capDiagnostics(findings), file: read.name };
  // Every environment, as `validate` without -e checks them. Only errors: validate's warnings
  // (a secret not set here) are about the run, not the manifest.
  await attachLocalFiles(parsed, request.source?.cwd);
  const resolution = resolveManifest(parsed, { env: request.env, mode: 'validate' });
  request.onSensitiveValues?.(resolution.sensitiveValues);
  // The `lint:` section is lint's own settings, which the rule `lint-config` already reports in lint's words.
  const invalid = resolution.diagnostics.filter((d) => d.severity === 'error' && !inLintSettings(d.path)).map((d): LintFinding => ({ ...d, rule: 'invalid' }));
  return { findings: capDiagnostics([...findings, ...invalid]), file: read.name };
}

function inLintSettings(path: string): boolean {
  return path === 'lint' || path.startsWith('lint.') || path.startsWith('lint[');
}
