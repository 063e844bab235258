// lint's findings as text (the diagnostics' `FILE:LINE:COL: severity: message [rule]` lines, a code
// frame on a terminal, a count) or as JSON.
import { sortDiagnostics } from '../core/diagnostics.js';
import type { LintFinding } from '../core/lint/index.js';
import { renderDiagnosticsText, type TextOptions } from './diagnostics.js';

export function renderLintText(findings: readonly LintFinding[], file: string, ruleCount: number, options: TextOptions): string {
  if (findings.length === 0) return `${file}: no lint findings (${ruleCount} rules).\n`;
  return renderDiagnosticsText(
    findings.map((f) => ({ ...f, message: `${f.message} [${f.rule}]` })),
    options,
  );
}

export interface LintJson {
  valid: boolean;
  summary: { errors: number; warnings: number };
  findings: Pick<LintFinding, 'rule' | 'severity' | 'file' | 'line' | 'column' | 'path' | 'message'>[];
}

export function renderLintJson(findings: readonly LintFinding[]): string {
  const errors = findings.filter((f) => f.severity === 'error').length;
  const json: LintJson = {
    valid: errors === 0,
    summary: { errors, warnings: findings.length - errors },
    findings: sortDiagnostics(findings).map(({ rule, severity, file, line, column, path, message }) => ({ rule, severity, file, line, column, path, message })),
  };
  return JSON.stringify(json, null, 2) + '\n';
}
