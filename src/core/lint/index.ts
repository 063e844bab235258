// lintManifest: the rules beyond validity (docs/spec/commands.md#lint), run over a parsed manifest. Each rule
// is a pure function that returns hits; this file gives them their id, their configured severity
// and a `file:line:col`.
import { sortDiagnostics } from '../diagnostics.js';
import type { ParsedManifest } from '../parse.js';
import { readLintConfig } from './config.js';
import { commaSplitFlowMaps } from './flow-map-comma.js';
import { insecureUrls } from './insecure-url.js';
import { duplicateAgentNames, missingInstructions, shortToolDescriptions, unattachedSources, unusedTools } from './resource-rules.js';
import type { LintRuleId } from './rule-ids.js';
import { secretLiterals } from './secret-literal.js';
import type { ManifestLocator, YamlLocator } from '../yaml-locate.js';
import type { DocLintRule, LintFinding, RuleHit, TreeLintRule } from './types.js';

export type { LintFinding } from './types.js';
export { LINT_RULE_IDS } from './rule-ids.js';

/** Rules about the resources: they read the whole manifest, merged from all its files. */
const TREE_RULES: Partial<Record<LintRuleId, TreeLintRule>> = {
  'unused-tool': unusedTools,
  'unattached-source': unattachedSources,
  'duplicate-agent-name': duplicateAgentNames,
  'missing-instruction': missingInstructions,
  'short-tool-description': shortToolDescriptions,
};

/** Rules about how the YAML is written: they read each file's document on its own. */
const DOC_RULES: Partial<Record<LintRuleId, DocLintRule>> = {
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
  if (parsed.value === undefined || locator.parts.some((part) => part.doc === undefined) || parsed.diagnostics.some((d) => d.severity === 'error')) {
    return sortFindings(parsed.diagnostics.filter((d) => d.severity === 'error').map((d) => ({ ...d, rule: 'parse' as const })));
  }
  const tree = parsed.value;
  const config = readLintConfig(tree, locator);
  const findings: LintFinding[] = [...config.problems];
  for (const id of Object.keys(config.settings) as LintRuleId[]) {
    const severity = config.settings[id];
    if (severity === 'off') continue;
    const treeRule = TREE_RULES[id];
    if (treeRule) for (const hit of treeRule({ tree, locator })) findings.push({ ...toDiagnostic(hit, locator, severity), rule: id });
    const docRule = DOC_RULES[id];
    if (docRule === undefined) continue;
    for (const part of locator.parts) {
      if (part.doc === undefined) continue;
      for (const hit of docRule({ doc: part.doc, locator: part })) findings.push({ ...toDiagnostic(hit, part, severity), rule: id });
    }
  }
  return sortFindings(findings);
}

/** A hit with an offset is inside the one file its rule read; a hit with a path is wherever that path is written. */
function toDiagnostic(hit: RuleHit, locator: ManifestLocator | YamlLocator, severity: 'error' | 'warning'): Omit<LintFinding, 'rule'> {
  const anchor = hit.atKey === true ? 'key' : 'value';
  const diagnostic =
    hit.offset === undefined ? locator.diagnostic(hit.path, hit.message, severity, anchor) : locator.partAt(hit.path).locator.diagnosticAtOffset(hit.offset, hit.path, hit.message, severity);
  if (hit.hideLine !== true) return diagnostic;
  const { lineText: _hidden, ...rest } = diagnostic;
  return rest;
}

function sortFindings(findings: LintFinding[]): LintFinding[] {
  return sortDiagnostics(findings);
}

export function lintHasErrors(findings: readonly LintFinding[]): boolean {
  return findings.some((f) => f.severity === 'error');
}
