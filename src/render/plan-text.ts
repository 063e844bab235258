// The plan as a person reads it in a terminal, in Terraform's conventions: a legend of the symbols
// used, one block per changed resource with its field diffs, warnings, then the one summary line.
import type { Change, DeleteChange, ForgetChange, Plan, PlanTarget, UpdateChange, WebsiteReport } from '../core/plan.js';
import { hasChanges } from '../core/plan.js';
import { palette, type Palette } from './color.js';
import { massRemovalWarning } from './mass-removal.js';
import type { DiffLine } from './line-diff.js';
import type { DriftEntry } from '../core/refresh.js';
import {
  adoptText,
  conflictText,
  deleteText,
  DELETED_ON_SERVER,
  FINAL_NEWLINE_TEXT,
  FORGET_GONE,
  replaceText,
  DRIFT_HEADING,
  moveText,
  shownCreateFields,
  noChangesLine,
  pendingWarningText,
  printableLine,
  printableText,
  REMOTE_ID_LABEL,
  skippedText,
  summaryLine,
  undeletableText,
  UNREADABLE_HEADING,
  unreadableText,
  viewField,
  type FieldView,
} from './plan-fields.js';
import { appendAll, maxOf } from '../core/arrays.js';

export interface PlanTextOptions {
  color: boolean;
}

const RESOURCE_INDENT = '  ';
const FIELD_INDENT = '      ';
const LINE_INDENT = '          ';

/** The whole plan as text, ending with a newline; the last line is the summary or "No changes.". */
export function renderPlanText(plan: Plan, { color }: PlanTextOptions): string {
  const paint = palette(color);
  const out: string[] = [];
  const changed = plan.changes.filter((change) => change.action !== 'no-op');
  if (plan.target) out.push(targetLine(plan, plan.target, paint), '');
  for (const warning of plan.warnings) out.push(paint.yellow(`${paint.bold('Warning:')} ${printableLine(warning)}`), '');
  if (plan.unreadable?.length) {
    out.push(paint.red(paint.bold(UNREADABLE_HEADING)));
    appendAll(
      out,
      plan.unreadable.map((u) => `${RESOURCE_INDENT}${paint.red('!')} ${printableLine(unreadableText(u))}`),
    );
    out.push('');
  }
  if (plan.drift.length > 0) appendAll(out, [...driftLines(plan.drift, paint), '']);
  if (changed.length > 0) {
    appendAll(out, [...legend(changed, paint), '']);
    // With a target line above, the environment is already named.
    out.push(plan.target ? 'agentsync will perform the following actions:' : `agentsync will perform the following actions in environment ${whereText(plan)}:`, '');
    for (const change of changed) appendAll(out, [...resourceBlock(change, paint), '']);
  }
  if (plan.moves?.length) appendAll(out, [...plan.moves.map((move) => `${RESOURCE_INDENT}${paint.yellow('→')} ${paint.bold(printableText(moveText(move)))}`), '']);
  if (plan.reports?.website?.length) appendAll(out, [...websiteLines(plan.reports.website, paint), '']);
  for (const pending of plan.pending) out.push(paint.yellow(`${paint.bold('Warning:')} ${printableLine(pendingWarningText(pending))}`), '');
  const mass = massRemovalWarning(plan);
  if (mass !== undefined) out.push(paint.yellow(`${paint.bold('Warning:')} ${printableLine(mass)}`), '');
  out.push(
    hasChanges(plan)
      ? `${paint.bold('Plan:')}${summaryLine(plan.summary, plan.prune, plan.moves?.length).slice('Plan:'.length)}`
      : plan.unreadable?.length
        ? paint.yellow(noChangesLine(plan.environment, plan.unreadable.length))
        : paint.green(noChangesLine(plan.environment)),
  );
  return out.join('\n') + '\n';
}

/** `"local" (app local, region us)`: from a plan file, so any of it may be hostile. */
function whereText(plan: Plan): string {
  return `"${printableText(plan.environment)}" (app ${printableText(plan.appId)}, region ${printableText(plan.region)})`;
}

/** `Target: environment "local" (app local, region us) at http://127.0.0.1:4010/v3, from AGENTSYNC_BASE_URL`. */
function targetLine(plan: Plan, target: PlanTarget, paint: Palette): string {
  const where = `Target: environment ${whereText(plan)} at ${printableText(target.baseUrl)}`;
  return paint.dim(where) + (target.overriddenBy ? paint.yellow(`, from ${target.overriddenBy}`) : '');
}

/** Terraform's "Objects have changed outside of Terraform": from the state to the server. */
function driftLines(drift: readonly DriftEntry[], paint: Palette): string[] {
  const lines = [paint.bold(DRIFT_HEADING), ''];
  for (const entry of drift) {
    if (entry.kind === 'deleted') {
      lines.push(`${RESOURCE_INDENT}${paint.red('-')} ${paint.bold(printableText(entry.address))} ${paint.dim(DELETED_ON_SERVER)}`);
      continue;
    }
    lines.push(`${RESOURCE_INDENT}${paint.yellow('~')} ${paint.bold(printableText(entry.address))}`);
    appendAll(
      lines,
      entry.fields.flatMap((f) => fieldLines(viewField(f), paint)),
    );
  }
  return lines;
}

function legend(changed: readonly Change[], paint: Palette): string[] {
  const used = new Set(changed.map((change) => change.action));
  const lines = ['Resource actions are indicated with the following symbols:'];
  if (used.has('create')) lines.push(`  ${paint.green('+')} create`);
  if (changed.some((change) => change.action === 'update' && change.replace !== true)) lines.push(`  ${paint.yellow('~')} update in-place`);
  if (changed.some((change) => change.action === 'update' && change.replace === true))
    lines.push(`  ${paint.red('-')}/${paint.green('+')} replace (the new one is made first, then the old one deleted)`);
  if (used.has('delete')) lines.push(`  ${paint.red('-')} delete`);
  if (changed.some((change) => change.action === 'forget' && change.gone !== true)) lines.push(`  ${paint.red('-')} forget (stays on the server; only dropped from state)`);
  if (changed.some((change) => change.action === 'forget' && change.gone === true)) lines.push(`  ${paint.red('-')} forget (already deleted on the server; only dropped from state)`);
  return lines;
}

function resourceBlock(change: Change, paint: Palette): string[] {
  switch (change.action) {
    case 'create':
      return [
        `${RESOURCE_INDENT}${paint.green('+')} ${paint.bold(printableText(change.address))}`,
        ...(change.conflict ? [`${FIELD_INDENT}${paint.red(paint.bold(printableText(conflictText(change))))}`] : []),
        ...(change.adopt ? [`${FIELD_INDENT}${paint.dim(printableText(adoptText(change.type, change.adopt.remoteId)))}`] : []),
        ...shownCreateFields(change).flatMap((f) => fieldLines(viewField(f), paint)),
      ];
    case 'update':
      if (change.replace === true) {
        return [
          `${RESOURCE_INDENT}${paint.red('-')}/${paint.green('+')} ${paint.bold(printableText(change.address))} ${remoteIdNote(change, paint)} ${paint.yellow(replaceText(change.type))}`,
          ...change.fields.flatMap((f) => fieldLines(viewField(f), paint)),
        ];
      }
      return [`${RESOURCE_INDENT}${paint.yellow('~')} ${paint.bold(printableText(change.address))} ${remoteIdNote(change, paint)}`, ...change.fields.flatMap((f) => fieldLines(viewField(f), paint))];
    case 'delete':
      return [`${RESOURCE_INDENT}${paint.red('-')} ${paint.bold(printableText(change.address))} ${remoteIdNote(change, paint)} ${paint.red(deleteText(change))}`];
    case 'forget': {
      const why = change.gone ? ` ${paint.dim(FORGET_GONE)}` : change.undeletable ? ` ${paint.dim(undeletableText(change.type))}` : '';
      return [`${RESOURCE_INDENT}${paint.red('-')} ${paint.bold(printableText(change.address))} ${remoteIdNote(change, paint)}${why}`];
    }
    case 'no-op':
      return [];
    default: {
      const _exhaustive: never = change;
      throw new Error(`unknown change ${JSON.stringify(_exhaustive)}`);
    }
  }
}

function remoteIdNote(change: UpdateChange | DeleteChange | ForgetChange, paint: Palette): string {
  return paint.dim(`(${REMOTE_ID_LABEL[change.type]} ${printableText(change.remoteId)})`);
}

function fieldLines(view: FieldView, paint: Palette): string[] {
  switch (view.kind) {
    case 'added':
      return [`${FIELD_INDENT}${paint.green('+')} ${view.path}: ${view.value}`];
    case 'removed':
      return [`${FIELD_INDENT}${paint.red('-')} ${view.path}: ${view.value}`];
    case 'changed':
      return [`${FIELD_INDENT}${paint.yellow('~')} ${view.path}: ${view.before} ${paint.dim('→')} ${view.after}`];
    case 'lines':
      return [`${FIELD_INDENT}${signPaint(view.sign, paint)} ${view.path}:`, ...view.lines.map((line) => textLine(line, paint))];
    default: {
      const _exhaustive: never = view;
      throw new Error(`unknown field view ${JSON.stringify(_exhaustive)}`);
    }
  }
}

function signPaint(sign: '+' | '-' | '~', paint: Palette): string {
  return sign === '+' ? paint.green(sign) : sign === '-' ? paint.red(sign) : paint.yellow(sign);
}

/** One line of a multi-line value: the sign sits two columns left of the text, like a diff. */
function textLine(line: DiffLine, paint: Palette): string {
  const margin = LINE_INDENT.slice(2);
  switch (line.kind) {
    case 'same':
      return `${LINE_INDENT}${printableLine(line.text)}`;
    case 'removed':
      return `${margin}${paint.red(`- ${printableLine(line.text)}`)}`;
    case 'added':
      return `${margin}${paint.green(`+ ${printableLine(line.text)}`)}`;
    case 'skipped':
      return `${LINE_INDENT}${paint.dim(skippedText(line.count))}`;
    case 'final-newline':
      return `${margin}${line.change === 'added' ? paint.green('+') : paint.red('-')} ${paint.dim(FINAL_NEWLINE_TEXT)}`;
    default: {
      const _exhaustive: never = line;
      throw new Error(`unknown line ${JSON.stringify(_exhaustive)}`);
    }
  }
}

/** Per website declared by URL: its discovered URLs and what each exclude glob matches (docs/spec/knowledge-base.md#apply). */
function websiteLines(reports: readonly WebsiteReport[], paint: Palette): string[] {
  const out = ['Knowledge base (discovered URLs on the server):'];
  for (const report of reports) {
    out.push(`${RESOURCE_INDENT}${paint.bold(printableText(report.address))}: ${report.urls} URL${report.urls === 1 ? '' : 's'}, ${report.excluded} excluded`);
    const width = maxOf(report.globs.map(({ glob }) => JSON.stringify(glob).length));
    for (const { glob, excludes } of report.globs) {
      const line = `${FIELD_INDENT}${printableText(JSON.stringify(glob)).padEnd(width)}  excludes ${excludes}`;
      out.push(excludes === 0 ? paint.yellow(`${line} (matches nothing)`) : line);
    }
  }
  return out;
}
