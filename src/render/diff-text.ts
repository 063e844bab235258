// `agentsync diff` as text: one block per resource that is not identical, the two environments
// side by side, the command that fixes each difference, then the summary line.
import type { EnvironmentsDiff, FieldSide, ResourceDiff } from '../core/env-diff/types.js';
import { escapeControl as printableText } from '../core/terminal-safe.js';
import { palette, type Palette } from './color.js';
import { diffSummaryLine, fixLines, groupLabel, sideDrifts, valueText } from './diff-common.js';
import { appendAll, maxOf } from '../core/arrays.js';

const SIGN: Record<ResourceDiff['group'], string> = { drift: '!', only: '+', differs: '~', intended: '=' };

export function renderDiffText(diff: EnvironmentsDiff, options: { color?: boolean } = {}): string {
  const paint = palette(options.color === true);
  const [a, b] = diff.environments;
  const how = diff.mode === 'live-only' ? 'server against server (--live-only)' : 'through the manifest';
  const lines = [
    `Comparing "${printableText(a.name)}" (app ${printableText(a.appId)}, region ${a.region}) with "${printableText(b.name)}" (app ${printableText(b.appId)}, region ${b.region}), ${how}.`,
    '',
  ];
  for (const resource of diff.resources) {
    appendAll(lines, resourceBlock(resource, diff, paint));
    lines.push('');
  }
  for (const warning of diff.warnings) lines.push(paint.yellow(`Warning: [${printableText(warning.environment)}] ${printableText(warning.message)}`));
  if (diff.unreadable.length > 0) {
    lines.push(paint.red('Could not be read from the server, so not compared (the diff fails until they can be read):'));
    for (const entry of diff.unreadable) lines.push(`  [${printableText(entry.environment)}] ${printableText(entry.address)}: ${printableText(entry.message)}`);
  }
  if (diff.warnings.length > 0 || diff.unreadable.length > 0) lines.push('');
  lines.push(paint.bold(diffSummaryLine(diff)));
  return lines.join('\n') + '\n';
}

function resourceBlock(resource: ResourceDiff, diff: EnvironmentsDiff, paint: Palette): string[] {
  const color = resource.group === 'intended' ? paint.cyan : resource.group === 'only' ? paint.green : paint.yellow;
  const lines = [color(`${SIGN[resource.group]} ${printableText(resource.address)}: ${printableText(groupLabel(resource, diff.mode))}`)];
  if (resource.fields.length > 0) appendAll(lines, fieldTable(resource, diff, paint));
  else if (resource.group !== 'intended') lines.push(`    ${resource.sides.map((side) => `${printableText(side.environment)}: ${side.present ? 'present' : 'absent'}`).join('   ')}`);
  for (const fix of fixLines(resource)) lines.push(paint.dim(`    → ${printableText(fix)}`));
  return lines;
}

/** Columns: the field, what the value is (manifest or live, when they differ), then one column per environment. */
function fieldTable(resource: ResourceDiff, diff: EnvironmentsDiff, paint: Palette): string[] {
  const table: string[][] = [['field', '', printableText(diff.environments[0].name), printableText(diff.environments[1].name)]];
  const marks: boolean[][] = [[false, false]];
  for (const row of resource.fields) {
    const path = printableText(row.path) + (row.sensitive ? ' (sensitive, differs)' : '') + (row.group === 'intended' && resource.group !== 'intended' ? ' (intended)' : '');
    const split = row.group === 'drift';
    if (!split) {
      table.push([path, diff.mode === 'live-only' || row.group === 'differs' ? 'live' : 'manifest', ...row.sides.map((side) => cell(side, 'both'))]);
      marks.push([false, false]);
      continue;
    }
    table.push([path, 'manifest', ...row.sides.map((side) => cell(side, 'manifest'))]);
    table.push(['', 'live', ...row.sides.map((side) => cell(side, 'live'))]);
    marks.push(
      [false, false],
      row.sides.map((side) => sideDrifts(row, side)),
    );
  }
  const widths = [0, 1, 2].map((col) => maxOf(table.map((r) => (r[col] ?? '').length)));
  return table.map((r, i) => {
    const cells = r.map((text, col) => {
      const padded = col < 3 ? text.padEnd(widths[col] ?? 0) : text;
      return col >= 2 && marks[i]?.[col - 2] === true ? paint.red(padded) : padded;
    });
    return `    ${cells.join('  ')}`.trimEnd();
  });
}

function cell(side: FieldSide, which: 'manifest' | 'live' | 'both'): string {
  if (which === 'manifest' || (which === 'both' && side.live === undefined && side.manifest !== undefined)) return printableText(valueText(side.manifest));
  return printableText(valueText(side.live));
}
