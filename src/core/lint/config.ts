// `lint:` in the manifest: each rule id may be set to off, warning or error. An unknown id or
// setting is itself a finding (validate reports it too, through the schema).
import { didYouMean } from '../suggest.js';
import type { ManifestLocator } from '../yaml-locate.js';
import { LINT_RULE_IDS, LINT_RULES, LINT_SETTINGS, type LintRuleId, type LintSetting } from './rule-ids.js';
import { isPlainObject, type LintFinding } from './types.js';

export interface LintConfig {
  settings: Record<LintRuleId, LintSetting>;
  problems: LintFinding[];
}

export function readLintConfig(tree: Record<string, unknown>, locator: ManifestLocator): LintConfig {
  const settings = { ...LINT_RULES } as Record<LintRuleId, LintSetting>;
  const problems: LintFinding[] = [];
  const section = tree.lint;
  const problem = (path: (string | number)[], message: string, anchor: 'key' | 'value'): void => {
    problems.push({ ...locator.diagnostic(path, message, 'error', anchor), rule: 'lint-config' });
  };
  if (section === undefined || section === null) return { settings, problems };
  if (!isPlainObject(section)) {
    problem(['lint'], 'lint must be a map of rule ids to off, warning or error', 'value');
    return { settings, problems };
  }
  for (const [id, value] of Object.entries(section)) {
    if (!(LINT_RULE_IDS as string[]).includes(id)) {
      const hint = didYouMean(id, LINT_RULE_IDS);
      problem(['lint', id], `unknown lint rule "${id}"${hint === '' ? `; the rules are ${LINT_RULE_IDS.join(', ')}` : hint}`, 'key');
      continue;
    }
    if (typeof value !== 'string' || !(LINT_SETTINGS as string[]).includes(value)) {
      problem(['lint', id], `lint.${id} must be off, warning or error${typeof value === 'string' ? didYouMean(value, LINT_SETTINGS) : ''}`, 'value');
      continue;
    }
    settings[id as LintRuleId] = value as LintSetting;
  }
  return { settings, problems };
}
