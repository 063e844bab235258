// The lint rules' ids and their default severities: the one list that the manifest schema (`lint:`),
// the rules and the documentation share. Kept free of imports so that schema.ts can use it.

export const LINT_RULES = {
  'unused-tool': 'warning',
  'unattached-source': 'warning',
  'duplicate-agent-name': 'error',
  'missing-instruction': 'warning',
  'short-tool-description': 'warning',
  'comma-split-flow-map': 'error',
  'secret-literal': 'error',
  'insecure-url': 'warning',
} as const satisfies Record<string, LintSeverity>;

export type LintRuleId = keyof typeof LINT_RULES;
export type LintSeverity = 'error' | 'warning';
/** What `lint:` in the manifest may set a rule to. */
export type LintSetting = LintSeverity | 'off';

export const LINT_RULE_IDS = Object.keys(LINT_RULES) as LintRuleId[];
export const LINT_SETTINGS: readonly LintSetting[] = ['off', 'warning', 'error'];
