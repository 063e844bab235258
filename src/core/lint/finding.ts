// What lint reports, on its own so that the public types (library/lint.ts) carry no YAML types.
import type { Diagnostic } from '../diagnostics.js';
import type { LintRuleId } from './rule-ids.js';

/**
 * A diagnostic that names the rule that found it: `parse` and `lint-config` for the file itself,
 * `invalid` for an error `validate` reports (app/lint.ts).
 */
export interface LintFinding extends Diagnostic {
  rule: LintRuleId | 'parse' | 'lint-config' | 'invalid';
}
