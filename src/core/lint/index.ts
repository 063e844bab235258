// lintManifest: the rules beyond validity (docs/spec/commands.md#lint), run over a parsed manifest. Each rule
// is a pure function that returns hits; this file gives them their id, their configured severity
// and a `file:line:col`.
import { sortDiagnostics } from '../diagnostics.js';
import type { ParsedManifest } from '../parse.js';
import { readLintConfig } from './config.js';
import { commaSplitFlowMaps } from './flow-map-comma.js';
import { insecureUrls } from './insecure-url.js';
import { duplicateAgentNames, missingInstructions, shortToolDescriptions, unusedTools } from './resource-rules.js';
import type { LintRuleId } from './rule-ids.js';
import { secretLiterals } from './secret-literal.js';
import type { LintFinding, LintRule, RuleHit } from './types.js';

export type { LintFinding } from './types.js';
export { LINT_RULE_IDS } from './rule-ids.js';

const RULES: Record<LintRuleId, LintRule> = {
  'unused-tool': unusedTools,
  'duplicate-agent-name': duplicateAgentNames,
  'missing-instruction': missingInstructions,
  'short-tool-description': shortToolDescriptions,
  'comma-split-flow-map': commaSplitFlowMaps,
  'secret-literal': secretLiterals,
  'insecure-url': insecureUrls,
};

/**
 * Every finding, sorted by position. A file that cannot be parsed gives its parse errors instead
 * (rule `parse`): the rules need a document to read.
 */
export function lintManifest(parsed: ParsedManifest): LintFinding[] {
  const { locator } = parsed;
  const doc = locator.doc;
  if (parsed.value === undefined || doc === undefined || parsed.diagnostics.some((d) => d.severity === 'error')) {
    return sortFindings(parsed.diagnostics.filter((d) => d.severity === 'error').map((d) => ({ ...d, rule: 'parse' as const })));
  }
  const tree = parsed.value;
  const config = readLintConfig(tree, locator);
  const findings: LintFinding[] = [...config.problems];
  for (const id of Object.keys(RULES) as LintRuleId[]) {
    const severity = config.settings[id];
    if (severity === 'off') continue;
    for (const hit of RULES[id]({ tree, doc, locator })) findings.push({ ...toDiagnostic(hit, parsed, severity), rule: id });
  }
  return sortFindings(findings);
}

function toDiagnostic(hit: RuleHit, parsed: ParsedManifest, severity: 'error' | 'warning'): Omit<LintFinding, 'rule'> {
  const { locator } = parsed;
  const offset = hit.offset ?? locator.offsetOf(hit.path, hit.atKey === true ? 'key' : 'value');
  const diagnostic = locator.diagnosticAtOffset(offset, hit.path, hit.message, severity);
  if (hit.hideLine !== true) return diagnostic;
  const { lineText: _hidden, ...rest } = diagnostic;
  return rest;
}

function sortFindings(findings: LintFinding[]): LintFinding[] {
  return sortDiagnostics(findings) as LintFinding[];
}

export function lintHasErrors(findings: readonly LintFinding[]): boolean {
  return findings.some((f) => f.severity === 'error');
}
