// Diagnostics as text (FILE:LINE:COL lines, a code frame on a terminal, a count) or as JSON.
import { countLine, formatDiagnosticLine, sortDiagnostics, type Diagnostic } from '../core/diagnostics.js';
import { escapeControl } from '../core/terminal-safe.js';
import { appendAll } from '../core/arrays.js';

export interface TextOptions {
  /** Show the source line and a caret under each diagnostic (only on a terminal). */
  codeFrame: boolean;
  color: boolean;
}

const RED = '\u001b[31m';
const YELLOW = '\u001b[33m';
const DIM = '\u001b[2m';
const BOLD = '\u001b[1m';
const RESET = '\u001b[0m';

export function renderDiagnosticsText(diagnostics: readonly Diagnostic[], options: TextOptions): string {
  const paint = (code: string, s: string) => (options.color ? `${code}${s}${RESET}` : s);
  const lines: string[] = [];
  for (const d of sortDiagnostics(diagnostics)) {
    const line = formatDiagnosticLine(d);
    const label = `${d.severity}:`;
    lines.push(options.color ? line.replace(` ${label} `, ` ${paint(d.severity === 'error' ? RED + BOLD : YELLOW + BOLD, label)} `) : line);
    if (options.codeFrame && d.lineText !== undefined) appendAll(lines, codeFrame(d, paint));
  }
  if (diagnostics.length > 0) lines.push(countLine(diagnostics));
  return lines.length === 0 ? '' : lines.join('\n') + '\n';
}

function codeFrame(d: Diagnostic, paint: (code: string, s: string) => string): string[] {
  const gutter = String(d.line);
  const text = escapeControl((d.lineText ?? '').replace(/\t/g, ' '));
  const shown = text.length > 160 ? text.slice(0, 157) + '…' : text;
  const caretAt = Math.min(Math.max(d.column - 1, 0), shown.length);
  return [`${paint(DIM, `${gutter} |`)} ${shown}`, `${paint(DIM, `${' '.repeat(gutter.length)} |`)} ${' '.repeat(caretAt)}${paint(d.severity === 'error' ? RED : YELLOW, '^')}`];
}

export interface DiagnosticsJson {
  valid: boolean;
  diagnostics: { file: string; line: number; column: number; path: string; message: string; severity: Diagnostic['severity'] }[];
}

export function diagnosticsJson(diagnostics: readonly Diagnostic[]): DiagnosticsJson {
  return {
    valid: !diagnostics.some((d) => d.severity === 'error'),
    diagnostics: sortDiagnostics(diagnostics).map(({ file, line, column, path, message, severity }) => ({ file, line, column, path, message, severity })),
  };
}

export function renderDiagnosticsJson(diagnostics: readonly Diagnostic[]): string {
  return JSON.stringify(diagnosticsJson(diagnostics), null, 2) + '\n';
}
