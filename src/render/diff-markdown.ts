// `agentsync diff --format markdown`: a table for a pull-request or issue comment (a nightly job's).
// GitHub refuses comments over 65,536 characters, so rows are added while they fit and the rest is
// counted in a closing note.
import type { EnvironmentsDiff, FieldRow, FieldSide, ResourceDiff } from '../core/env-diff/types.js';
import { diffSummaryLine, fixLines, groupLabel, sideDrifts, valueText } from './diff-common.js';
import { codeSpan as inlineCode, markdownText } from './markdown-safe.js';
import { appendAll } from '../core/arrays.js';

/** A code span inside a table cell: a `|` would end the cell even there. */
function codeSpan(text: string): string {
  return inlineCode(text).replaceAll('|', '\\|');
}

export const DEFAULT_DIFF_MARKDOWN_MAX_LENGTH = 60_000;
/** Room kept for the fixes heading and the "not shown" note. */
const NOTE_RESERVE = 400;

export function renderDiffMarkdown(diff: EnvironmentsDiff, { maxLength = DEFAULT_DIFF_MARKDOWN_MAX_LENGTH }: { maxLength?: number } = {}): string {
  const [a, b] = diff.environments;
  const head = [`### agentsync diff: ${codeSpan(a.name)} and ${codeSpan(b.name)}${diff.mode === 'live-only' ? ' (live only)' : ''}`, '', `**${markdownText(diffSummaryLine(diff))}**`, ''];
  for (const warning of diff.warnings) head.push(`> [!WARNING]\n> ${markdownText(`[${warning.environment}] ${warning.message}`)}`, '');
  if (diff.unreadable.length > 0) {
    head.push('> [!CAUTION]\n> Could not be read from the server, so not compared:');
    appendAll(head, unreadableLines(diff, Math.floor((maxLength - NOTE_RESERVE) / 2)));
    head.push('');
  }
  if (diff.resources.length === 0) return head.join('\n');
  head.push(`| Resource | Difference | Field | ${markdownText(a.name)} | ${markdownText(b.name)} |`, '|---|---|---|---|---|');
  let text = head.join('\n');
  const budget = maxLength - NOTE_RESERVE;
  const fixes = new Set<string>();
  for (const [i, resource] of diff.resources.entries()) {
    const rows = resourceRows(resource, diff);
    const addition = '\n' + rows.join('\n');
    if (text.length + addition.length > budget) {
      const left = diff.resources.length - i;
      text += `\n\n_… ${left} more resource${left === 1 ? '' : 's'} not shown; run \`agentsync diff\` for the whole comparison._`;
      break;
    }
    text += addition;
    for (const fix of fixLines(resource)) fixes.add(fix);
  }
  const fixBlock = fixes.size === 0 ? '' : `\n\n**To fix:**\n${[...fixes].map((fix) => `- ${markdownText(fix)}`).join('\n')}`;
  if (text.length + fixBlock.length <= maxLength) text += fixBlock;
  return text + '\n';
}

/** The unreadable resources, one line each, within `budget` characters (the rest only counted: there may be thousands). */
function unreadableLines(diff: EnvironmentsDiff, budget: number): string[] {
  const lines: string[] = [];
  let used = 0;
  for (const [i, entry] of diff.unreadable.entries()) {
    const line = `> - ${markdownText(`[${entry.environment}] ${entry.address}: ${entry.message}`)}`;
    if (used + line.length + 1 > budget) {
      lines.push(`> … and ${diff.unreadable.length - i} more; run \`agentsync diff\` for the whole list.`);
      break;
    }
    lines.push(line);
    used += line.length + 1;
  }
  return lines;
}

function resourceRows(resource: ResourceDiff, diff: EnvironmentsDiff): string[] {
  const label = markdownText(groupLabel(resource, diff.mode));
  const address = codeSpan(resource.address);
  if (resource.fields.length === 0) {
    const presence = resource.sides.map((side) => (side.present ? (side.declared ? 'present' : 'present (unmanaged)') : side.declared ? '**missing**' : 'absent'));
    return [`| ${address} | ${label} | | ${presence[0]} | ${presence[1]} |`];
  }
  return resource.fields.map((row, i) => `| ${i === 0 ? address : ''} | ${i === 0 ? label : ''} | ${fieldName(row, resource)} | ${sideCell(row, row.sides[0])} | ${sideCell(row, row.sides[1])} |`);
}

function fieldName(row: FieldRow, resource: ResourceDiff): string {
  return `${codeSpan(row.path)}${row.sensitive ? ' (sensitive, differs)' : ''}${row.group === 'intended' && resource.group !== 'intended' ? ' (intended)' : ''}`;
}

/** One side's value; where its server drifted, its manifest value and its live one. */
function sideCell(row: FieldRow, side: FieldSide): string {
  if (sideDrifts(row, side)) return `manifest ${codeSpan(valueText(side.manifest, 200))}, **live** ${codeSpan(valueText(side.live, 200))}`;
  const value = side.live === undefined && side.manifest !== undefined ? side.manifest : side.live;
  return codeSpan(valueText(value, 200));
}
