// Diagnostics: what every stage of the manifest pipeline reports about agents.yaml. Each one points
// at a place in the file (1-based line and column) and names the YAML path, so a user can find it.
import { UserError } from './errors.js';
import { escapeControl } from './terminal-safe.js';

export type Severity = 'error' | 'warning';

export interface Diagnostic {
  file: string;
  line: number;
  column: number;
  /** The YAML path, e.g. `tools.get_weather.parameters` or `agents.support.tools[1]`; '' for the document. */
  path: string;
  message: string;
  severity: Severity;
  /** The source line, for a code frame. */
  lineText?: string;
}

export type PathSegment = string | number;

const PLAIN_KEY = /^[A-Za-z_$][A-Za-z0-9_$-]*$/;

/** Formats a key path the way users write it: dots for plain keys, brackets for indices and odd keys. */
export function formatPath(path: readonly PathSegment[]): string {
  let out = '';
  for (const segment of path) {
    if (typeof segment === 'number') out += `[${segment}]`;
    else if (PLAIN_KEY.test(segment)) out += out === '' ? segment : `.${segment}`;
    else out += `[${JSON.stringify(segment)}]`;
  }
  return out;
}

export function hasErrors(diagnostics: readonly Diagnostic[]): boolean {
  return diagnostics.some((d) => d.severity === 'error');
}

/** Stable reading order: by file (a manifest may be many), line, then column, errors before warnings at the same place. */
export function sortDiagnostics<D extends Diagnostic>(diagnostics: readonly D[]): D[] {
  return [...diagnostics].sort(
    (a, b) =>
      (a.file === b.file ? 0 : a.file < b.file ? -1 : 1) ||
      a.line - b.line ||
      a.column - b.column ||
      (a.severity === b.severity ? 0 : a.severity === 'error' ? -1 : 1) ||
      (a.message < b.message ? -1 : a.message > b.message ? 1 : 0),
  );
}

/**
 * `FILE:LINE:COL: error: message (at path)`: the one-line form, without colour or code frame. A
 * message quotes manifest keys and values as written, so it is made one inert line here, once for
 * every printer (a key may hold a newline, ESC, or a line that would be a GitHub workflow command).
 */
export function formatDiagnosticLine(d: Diagnostic): string {
  const where = d.path === '' ? '' : ` (at ${escapeControl(d.path)})`;
  return `${escapeControl(d.file)}:${d.line}:${d.column}: ${d.severity}: ${escapeControl(d.message)}${where}`;
}

export function countLine(diagnostics: readonly Diagnostic[]): string {
  const errors = diagnostics.filter((d) => d.severity === 'error').length;
  const warnings = diagnostics.length - errors;
  const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
  return `${plural(errors, 'error')}, ${plural(warnings, 'warning')}`;
}

/**
 * A manifest that cannot be used. The message lists every error on its own `FILE:LINE:COL:` line,
 * so a command that lets it propagate still shows them all; `details.diagnostics` carries them
 * for `--json` error output.
 */
export class ManifestError extends UserError {
  constructor(readonly diagnostics: Diagnostic[]) {
    const errors = sortDiagnostics(diagnostics.filter((d) => d.severity === 'error'));
    const file = errors[0]?.file ?? 'manifest';
    const head = `${file} is not valid (${errors.length} error${errors.length === 1 ? '' : 's'}):`;
    super('manifest_invalid', [head, ...errors.map(formatDiagnosticLine)].join('\n'), {
      diagnostics: errors.map(({ lineText: _lineText, ...rest }) => rest),
    });
  }
}

/** How many diagnostics of one kind are shown; the rest are counted in one more line. */
export const MAX_DIAGNOSTICS_OF_A_KIND = 100;

/**
 * The diagnostics in reading order (sortDiagnostics), with only the first MAX_DIAGNOSTICS_OF_A_KIND
 * of each kind (the same message but for the names and numbers it quotes), and for a kind with
 * more, one line at the next one's place saying how many more there are. A list of 200,000 unknown
 * names is one mistake, not 200,000.
 */
export function capDiagnostics<D extends Diagnostic>(diagnostics: readonly D[]): D[] {
  const seen = new Map<string, { count: number; next?: D }>();
  const kept: D[] = [];
  for (const d of sortDiagnostics(diagnostics)) {
    const key = `${d.severity}\0${d.message.replace(/"(?:[^"\\]|\\.)*"/g, '""').replace(/\d+/g, '0')}`;
    const kind = seen.get(key) ?? { count: 0 };
    kind.count++;
    seen.set(key, kind);
    if (kind.count <= MAX_DIAGNOSTICS_OF_A_KIND) kept.push(d);
    else kind.next ??= d;
  }
  for (const { count, next } of seen.values()) if (next !== undefined) kept.push(moreOfAKind(next, count - MAX_DIAGNOSTICS_OF_A_KIND));
  return sortDiagnostics(kept);
}

/** The line that stands for `more` diagnostics not shown, at the place of the first of them (`next`). */
export function moreOfAKind<D extends Diagnostic>(next: D, more: number): D {
  return { ...next, message: `and ${more.toLocaleString('en-US')} more like the ${MAX_DIAGNOSTICS_OF_A_KIND} above, not shown (the next: ${next.message})` };
}
