// The plan as GitHub-flavoured markdown, for pull-request comments and $GITHUB_STEP_SUMMARY: a
// summary table, then one collapsible block per changed resource. GitHub rejects comments over
// 65,536 characters, so the output is budgeted and says what it left out.
import type { Change, PendingWarning, Plan } from '../core/plan.js';
import { hasChanges } from '../core/plan.js';
import type { DiffLine } from './line-diff.js';
import { changedGraphMarkdown } from './plan-graph.js';
import { massRemovalWarning } from './mass-removal.js';
import { codeSpan, htmlText, longestRun, markdownText } from './markdown-safe.js';
import {
  adoptText,
  conflictText,
  deleteText,
  DELETED_ON_SERVER,
  FINAL_NEWLINE_TEXT,
  FORGET_GONE,
  replaceText,
  DRIFT_HEADING,
  noChangesLine,
  shownCreateFields,
  pendingWarningText,
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
import { appendAll } from '../core/arrays.js';

export interface PlanMarkdownOptions {
  /** Hard limit on the output's length in UTF-16 code units. */
  maxLength?: number;
}

export const DEFAULT_MARKDOWN_MAX_LENGTH = 60_000;
/** Room kept for the "not shown" notes when the output has to be cut. */
const NOTE_RESERVE = 400;

export function renderPlanMarkdown(plan: Plan, { maxLength = DEFAULT_MARKDOWN_MAX_LENGTH }: PlanMarkdownOptions = {}): string {
  const changed = plan.changes.filter((change) => change.action !== 'no-op');
  const head = [`### agentsync plan for environment ${codeSpan(plan.environment)}`, ''];
  if (hasChanges(plan)) {
    head.push(`**${markdownText(summaryLine(plan.summary, plan.prune, plan.moves?.length))}**`, '');
    appendAll(head, summaryTable(plan));
    head.push('');
  } else head.push(markdownText(noChangesLine(plan.environment, plan.unreadable?.length)), '');
  if (plan.unreadable?.length) head.push(`> [!CAUTION]\n> ${markdownText(UNREADABLE_HEADING)}\n${plan.unreadable.map((u) => `> - ${markdownText(unreadableText(u))}`).join('\n')}`, '');

  const mass = massRemovalWarning(plan);
  if (mass !== undefined) head.push(`> [!CAUTION]\n> ${markdownText(mass)}`, '');
  for (const warning of plan.warnings) head.push(`> [!WARNING]\n> ${markdownText(warning)}`, '');
  if (plan.drift.length > 0) {
    appendAll(head, driftSection(plan));
    head.push('');
  }
  appendAll(head, changedGraphMarkdown(plan));
  const sections = [head.join('\n')];
  const budget = maxLength - NOTE_RESERVE;
  const warning = (i: number): string => `> [!WARNING]\n> ${pendingWarningText(plan.pending[i] as PendingWarning, markdownText)}\n`;
  const afterWarnings = appendWithin(
    sections,
    plan.pending.length,
    warning,
    sections[0]?.length ?? 0,
    budget,
    (n) => `_… ${n} more pending-create warnings not shown; run \`agentsync plan\` to see them all._\n`,
  );
  const resourcesNote = (n: number): string => `_… ${n} more resource${n === 1 ? '' : 's'} not shown; run \`agentsync plan\` for the full plan._\n`;
  // Once the warnings were cut there is no room left, but the reader still learns what is missing.
  if (afterWarnings.cut) sections.push(resourcesNote(changed.length));
  else appendWithin(sections, changed.length, (i) => detailsBlock(changed[i] as Change), afterWarnings.length, budget, resourcesNote);
  const text = sections.join('\n');
  // Only a maxLength smaller than the fixed head can get here; keep the promise anyway.
  return text.length <= maxLength ? text : text.slice(0, maxLength);
}

/**
 * Appends items in order while the joined length stays within budget; at the first that does not
 * fit, appends a note and stops. Items are built on demand, so a huge plan costs only what fits.
 * Returns the joined length so far and whether it cut.
 */
function appendWithin(sections: string[], count: number, item: (index: number) => string, length: number, budget: number, note: (left: number) => string): { length: number; cut: boolean } {
  for (let i = 0; i < count; i++) {
    const text = item(i);
    if (length + 1 + text.length > budget) {
      const cutNote = note(count - i);
      sections.push(cutNote);
      return { length: length + 1 + cutNote.length, cut: true };
    }
    sections.push(text);
    length += 1 + text.length;
  }
  return { length, cut: false };
}

/** Drift is short by nature (it is what someone clicked); one table row per resource. */
function driftSection(plan: Plan): string[] {
  const rows = plan.drift.map((entry) => {
    const what = entry.kind === 'deleted' ? DELETED_ON_SERVER : entry.fields.map((f) => f.path).join(', ');
    return `| ${codeSpan(entry.address)} | ${markdownText(what)} |`;
  });
  return [`**${markdownText(DRIFT_HEADING)}**`, '', '| Resource | Changed on the server |', '| :-- | :-- |', ...rows];
}

function summaryTable(plan: Plan): string[] {
  const { create, update, replace, delete: deletes, forget, noop } = plan.summary;
  return [
    '| Action | Resources |',
    '| :-- | --: |',
    `| \`+\` create | ${create} |`,
    `| \`~\` update in-place | ${update} |`,
    ...(replace > 0 ? [`| \`-/+\` replace | ${replace} |`] : []),
    ...(plan.prune ? [`| \`-\` delete | ${deletes} |`] : []),
    `| \`-\` forget (stays on the server) | ${forget} |`,
    `| unchanged | ${noop} |`,
  ];
}

function detailsBlock(change: Change): string {
  const { sign, label, lines } = describe(change);
  const summary = `<code>${htmlText(`${sign} ${change.address}`)}</code> ${htmlText(label)}`;
  return `<details><summary>${summary}</summary>\n\n${fencedDiff(lines)}\n\n</details>\n`;
}

function describe(change: Change): { sign: string; label: string; lines: string[] } {
  switch (change.action) {
    case 'create':
      return {
        sign: '+',
        label: change.conflict ? `create — ${conflictText(change)}` : change.adopt ? `create — ${adoptText(change.type, change.adopt.remoteId)}` : 'create',
        lines: shownCreateFields(change).flatMap((f) => diffBlockLines(viewField(f))),
      };
    case 'update':
      return {
        sign: change.replace === true ? '-/+' : '~',
        label:
          change.replace === true
            ? `replace (${REMOTE_ID_LABEL[change.type]} ${change.remoteId}): ${replaceText(change.type)}`
            : `update in-place (${REMOTE_ID_LABEL[change.type]} ${change.remoteId})`,
        lines: change.fields.flatMap((f) => diffBlockLines(viewField(f))),
      };
    case 'delete':
      return {
        sign: '-',
        label: `delete (${REMOTE_ID_LABEL[change.type]} ${change.remoteId})`,
        lines: [`- ${printableText(change.address)}`, `  ${deleteText(change)}`],
      };
    case 'forget':
      return {
        sign: '-',
        label: `forget (${REMOTE_ID_LABEL[change.type]} ${change.remoteId})`,
        lines: [`- ${printableText(change.address)}`, change.gone ? `  ${FORGET_GONE}` : change.undeletable ? `  ${undeletableText(change.type)}` : '  stays on the server; only dropped from state'],
      };
    case 'no-op':
      return { sign: ' ', label: 'no change', lines: [] };
    default: {
      const _exhaustive: never = change;
      throw new Error(`unknown change ${JSON.stringify(_exhaustive)}`);
    }
  }
}

/** Lines for a ```diff block: GitHub colors by the first column, so an update is a -/+ pair. */
function diffBlockLines(view: FieldView): string[] {
  switch (view.kind) {
    case 'added':
      return [`+ ${view.path}: ${view.value}`];
    case 'removed':
      return [`- ${view.path}: ${view.value}`];
    case 'changed':
      return [`- ${view.path}: ${view.before}`, `+ ${view.path}: ${view.after}`];
    case 'lines':
      return [`${view.sign === '~' ? ' ' : view.sign} ${view.path}:`, ...view.lines.map(diffBlockLine)];
    default: {
      const _exhaustive: never = view;
      throw new Error(`unknown field view ${JSON.stringify(_exhaustive)}`);
    }
  }
}

function diffBlockLine(line: DiffLine): string {
  switch (line.kind) {
    case 'same':
      return `      ${printableText(line.text)}`;
    case 'removed':
      return `-     ${printableText(line.text)}`;
    case 'added':
      return `+     ${printableText(line.text)}`;
    case 'skipped':
      return `      ${skippedText(line.count)}`;
    case 'final-newline':
      return `${line.change === 'added' ? '+' : '-'}     ${FINAL_NEWLINE_TEXT}`;
    default: {
      const _exhaustive: never = line;
      throw new Error(`unknown line ${JSON.stringify(_exhaustive)}`);
    }
  }
}

/** A fenced block whose fence is longer than any backtick run inside, so content cannot close it. */
function fencedDiff(lines: readonly string[]): string {
  const body = lines.join('\n');
  const fence = '`'.repeat(Math.max(3, longestRun(body, '`') + 1));
  return `${fence}diff\n${body}\n${fence}`;
}
