// Output of a plan or apply over several environments
// (docs/spec/state.md#output-with-several-environments): the header line of each environment's
// section, the `[env] ` prefix of plain CI lines, the closing table with one row per environment,
// and the combined JSON documents. The markdown is in multi-env-markdown.ts.
import { changeCount, type Plan } from '../core/plan.js';
import type { ApplyResult } from '../core/apply-types.js';
import { applyResultToJson } from './apply-summary.js';
import { palette, type Palette } from './color.js';
import { planToJson, PLAN_FORMAT_VERSION } from './plan-json.js';
import { printableLine } from './plan-fields.js';
import { maxOf } from '../core/arrays.js';
import { jsonDocument } from './json-document.js';

export interface EnvironmentInfo {
  name: string;
  appId: string;
  region: string;
}

/** Why an environment did not finish: the one line its error would have printed on its own. */
export interface EnvironmentFailure {
  code: string;
  message: string;
}

/** How one environment's run ended. An apply may have a result and a failure (it failed part-way). */
export interface EnvironmentOutcome<T> {
  environment: EnvironmentInfo;
  value?: T;
  failure?: EnvironmentFailure;
}

/** The first line of an environment's section. */
export function environmentHeader(environment: EnvironmentInfo, options: { color: boolean }): string {
  const paint = palette(options.color);
  return paint.bold(`=== Environment "${printableLine(environment.name)}" (app ${printableLine(environment.appId)}, region ${environment.region}) ===`);
}

/** An environment's warning or error: `Error: [env] …` on a terminal, elsewhere every line `[env] `-prefixed. */
export function environmentNotice(level: 'Warning' | 'Error', environment: string, message: string, terminal: boolean): string {
  return terminal ? `${level}: [${environment}] ${message}\n` : prefixLines(`${level}: ${message}`, environment);
}

/** Every line starts with `[env] `, so interleaved CI logs stay readable (an empty line gets just `[env]`). */
export function prefixLines(text: string, environment: string): string {
  const tag = `[${printableLine(environment)}]`;
  const body = text.endsWith('\n') ? text.slice(0, -1) : text;
  return (
    body
      .split('\n')
      .map((line) => (line === '' ? tag : `${tag} ${line}`))
      .join('\n') + '\n'
  );
}

/** The closing table of `plan`: what each environment would change, or why it failed. */
export function renderPlanTable(outcomes: readonly EnvironmentOutcome<Plan>[], options: { color: boolean }): string {
  const summaries = outcomes.map((o) => (o.value ? planToJson(o.value).summary : undefined));
  const withReplace = summaries.some((s) => (s?.replace ?? 0) > 0);
  const withDelete = summaries.some((s) => (s?.delete ?? 0) > 0);
  const titles = ['Create', 'Update', ...(withReplace ? ['Replace'] : []), ...(withDelete ? ['Delete'] : []), 'Forget', 'Unchanged'];
  const rows = outcomes.map((outcome, i) => {
    const s = summaries[i];
    if (outcome.failure || !s) return { name: outcome.environment.name, failure: failureText(outcome.failure) };
    return { name: outcome.environment.name, cells: [s.create, s.update, ...(withReplace ? [s.replace] : []), ...(withDelete ? [s.delete] : []), s.forget, s.noop].map(String) };
  });
  const failed = outcomes.filter((o) => o.failure).length;
  const changed = summaries.filter((s, i) => s && !outcomes[i]?.failure && changeCount(s) > 0).length;
  const last = `${count(outcomes.length, 'environment')}: ${changed} with changes, ${outcomes.length - changed - failed} without${failed > 0 ? `, ${failed} failed` : ''}.`;
  return table(titles, rows, palette(options.color)) + (failed > 0 ? palette(options.color).red(last) : last) + '\n';
}

/** The closing table of `apply`: what each environment did, or why it failed (and what it did before). */
export function renderApplyTable(outcomes: readonly EnvironmentOutcome<ApplyResult>[], options: { color: boolean }): string {
  const paint = palette(options.color);
  // `replaced` arrives with a replacement, `deleted` with --prune, `adopted` after an interrupted create; each shows only when non-zero.
  const counts = outcomes.map((o): Record<string, number> | undefined => (o.value ? { ...o.value.counts } : undefined));
  const withReplaced = counts.some((c) => (c?.replaced ?? 0) > 0);
  const withDelete = counts.some((c) => (c?.deleted ?? 0) > 0);
  const withAdopted = counts.some((c) => (c?.adopted ?? 0) > 0);
  const keys = ['created', 'updated', ...(withReplaced ? ['replaced'] : []), ...(withDelete ? ['deleted'] : []), 'forgotten', ...(withAdopted ? ['adopted'] : [])];
  const titles = keys.map((key) => key[0]!.toUpperCase() + key.slice(1));
  const rows = outcomes.map((outcome, i) => {
    const c = counts[i];
    if (outcome.failure || !c) return { name: outcome.environment.name, failure: failureText(outcome.failure) };
    return { name: outcome.environment.name, cells: keys.map((key) => String(c[key] ?? 0)) };
  });
  const total = (key: string) => counts.reduce((sum, c, i) => sum + (outcomes[i]?.failure ? 0 : (c?.[key] ?? 0)), 0);
  const done = keys.map((key) => `${total(key)} ${key}`).join(', ');
  const failed = outcomes.filter((o) => o.failure);
  const last =
    failed.length === 0
      ? paint.bold(paint.green(`Apply complete in ${count(outcomes.length, 'environment')}: ${done}.`))
      : paint.bold(paint.red(`Apply failed in ${failed.length} of ${count(outcomes.length, 'environment')} (${failed.map((o) => printableLine(o.environment.name)).join(', ')}).`)) +
        (failed.length < outcomes.length ? ` The others completed: ${done}.` : '');
  return table(titles, rows, paint) + last + '\n';
}

/** `plan --json` over several environments, as printed. */
export function renderMultiPlanJson(outcomes: readonly EnvironmentOutcome<Plan>[]): string {
  return jsonDocument(multiPlanJson(outcomes));
}

/** `apply --json` over several environments, as printed. */
export function renderMultiApplyJson(outcomes: readonly EnvironmentOutcome<ApplyResult>[]): string {
  return jsonDocument(multiApplyJson(outcomes));
}

/** `plan --json` over several environments: each entry is the plan JSON of one, or its error. */
export function multiPlanJson(outcomes: readonly EnvironmentOutcome<Plan>[]): Record<string, unknown> {
  return {
    formatVersion: PLAN_FORMAT_VERSION,
    environments: outcomes.map((o) => (o.value && !o.failure ? planToJson(o.value) : failedEntry(o))),
  };
}

/** `apply --json` over several environments: each entry is the apply result of one, with its error if it failed. */
export function multiApplyJson(outcomes: readonly EnvironmentOutcome<ApplyResult>[]): Record<string, unknown> {
  return {
    formatVersion: PLAN_FORMAT_VERSION,
    environments: outcomes.map((o) => {
      if (!o.value) return failedEntry(o);
      const result = applyResultToJson(o.value);
      return o.failure ? { ...result, ok: false, error: { ...o.failure } } : result;
    }),
  };
}

function failedEntry(outcome: EnvironmentOutcome<unknown>): Record<string, unknown> {
  const { name, appId, region } = outcome.environment;
  return { formatVersion: PLAN_FORMAT_VERSION, environment: name, appId, region, ok: false, error: { ...(outcome.failure ?? { code: 'unknown', message: 'did not finish' }) } };
}

export function failureText(failure: EnvironmentFailure | undefined): string {
  return `failed: ${printableLine(failure?.message ?? 'did not finish').split('\n')[0]}`;
}

interface Row {
  name: string;
  cells?: string[];
  /** Instead of the cells: one text across them. */
  failure?: string;
}

/** Names left-aligned, numbers right-aligned under their titles; a failure runs across the number columns. */
function table(titles: readonly string[], rows: readonly Row[], paint: Palette): string {
  const first = Math.max('Environment'.length, maxOf(rows.map((r) => printableLine(r.name).length)));
  const widths = titles.map((title, i) => Math.max(title.length, maxOf(rows.map((r) => r.cells?.[i]?.length ?? 0))));
  const lines = [['Environment'.padEnd(first), ...titles.map((t, i) => t.padStart(widths[i] ?? 0))].join('  ')];
  for (const row of rows) {
    const name = printableLine(row.name).padEnd(first);
    lines.push(row.cells ? [name, ...row.cells.map((c, i) => c.padStart(widths[i] ?? 0))].join('  ') : `${name}  ${paint.red(row.failure ?? '')}`);
  }
  return lines.join('\n') + '\n';
}

function count(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}
