// GitHub Actions workflow commands (`::error file=…,line=…,col=…::message`), which the runner turns
// into annotations on the pull request's lines. Printed by validate and lint when GITHUB_ACTIONS=true.
import { sortDiagnostics, type Diagnostic } from '../core/diagnostics.js';
import { escapeControl } from '../core/terminal-safe.js';

export interface Annotated extends Diagnostic {
  /** The lint rule, shown in the annotation's title. */
  rule?: string;
}

/** One line per diagnostic; '' when there are none. */
export function renderGithubAnnotations(diagnostics: readonly Annotated[], command: 'validate' | 'lint'): string {
  return sortDiagnostics(diagnostics)
    .map((d) => {
      const rule = (d as Annotated).rule;
      const title = rule === undefined ? `agentsync ${command}` : `agentsync ${command} (${rule})`;
      const where = d.path === '' ? '' : ` (at ${d.path})`;
      const properties = [`file=${escapeProperty(d.file)}`, `line=${d.line}`, `col=${d.column}`, `title=${escapeProperty(title)}`].join(',');
      return `::${d.severity} ${properties}::${escapeData(d.message + where)}\n`;
    })
    .join('');
}

export function isGithubActions(env: Readonly<Record<string, string | undefined>>): boolean {
  return env.GITHUB_ACTIONS === 'true';
}

/**
 * The runner's own escaping (actions/toolkit `escapeData`), after every control character (a
 * newline and CR included) is shown as `\uXXXX`: the runner would decode `%0A` back into the
 * annotation, and an ESC would reach the log and the PR's annotation as it is.
 */
function escapeData(text: string): string {
  return escapeControl(text).replaceAll('%', '%25').replaceAll('\r', '%0D').replaceAll('\n', '%0A');
}

function escapeProperty(text: string): string {
  return escapeData(text).replaceAll(':', '%3A').replaceAll(',', '%2C');
}
