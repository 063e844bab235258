// `agentsync lint` as a function: the rules beyond validity and the manifest's validity errors.
import { lintManifestFile } from '../app/lint.js';
import type { LintFinding } from '../core/lint/finding.js';
import { hideInOutput } from '../io/api/outside-text.js';
import { cwdOf, envOf, inCall, manifestOf, type LoadOptions } from './call.js';

export type { LintFinding };

export interface LintResult {
  /** No finding of severity error: what makes `agentsync lint` exit 0. */
  passed: boolean;
  /** Sorted by file and position. `rule` is a rule id, or `parse`, `lint-config` or `invalid` (an error `validate` reports). */
  findings: LintFinding[];
}

/** `agentsync lint`: never throws for a bad manifest, only for one that cannot be read. `environment` is ignored: every one is checked. */
export function lint(options: LoadOptions = {}): Promise<LintResult> {
  return inCall(options, async () => {
    const { findings } = await lintManifestFile({ file: manifestOf(options), source: { cwd: cwdOf(options) }, env: envOf(options), onSensitiveValues: hideInOutput });
    return { passed: !findings.some((finding) => finding.severity === 'error'), findings };
  });
}
