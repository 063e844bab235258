// Picks the renderer for a plan and the color setting for this terminal.
import type { Diagnostic } from '../core/diagnostics.js';
import type { Plan } from '../core/plan.js';
import { useColor, type ManifestOptions } from './options.js';
import type { CliIo } from './cli-io.js';
import { renderDiagnosticsText } from '../render/diagnostics.js';
import { renderPlanJson } from '../render/plan-json.js';
import { renderPlanMarkdown } from '../render/plan-markdown.js';
import { renderPlanText } from '../render/plan-text.js';
import { massRemovalWarning } from '../render/mass-removal.js';
import { printableLine, printableText } from '../render/plan-fields.js';
import { isMassDeletion, massRemovalOf } from '../core/mass-removal.js';
import { countOf } from '../core/plural.js';

export type OutputOptions = Pick<ManifestOptions, 'color'>;

/** `io`: whose stdout decides the colour of a text plan. */
export function formatPlan(plan: Plan, format: 'text' | 'json' | 'markdown', opts: OutputOptions, io: Pick<CliIo, 'stdout' | 'env'>): string {
  switch (format) {
    case 'json':
      return renderPlanJson(plan);
    case 'markdown':
      return renderPlanMarkdown(plan);
    case 'text':
      return renderPlanText(plan, { color: useColor(opts, io.stdout, io.env) });
    default: {
      const _exhaustive: never = format;
      return _exhaustive;
    }
  }
}

export function printWarnings(io: CliIo, warnings: readonly Diagnostic[], opts: OutputOptions): void {
  if (warnings.length === 0) return;
  io.stderr.write(renderDiagnosticsText(warnings, { color: useColor(opts, io.stderr, io.env), codeFrame: false }));
}

/** Stale-lock takeovers and journal recoveries: worth a line, never an error. */
export function printStateWarning(io: CliIo, warning: { message: string }): void {
  io.stderr.write(`Warning: ${warning.message}\n`);
}

/** The flag that lets apply delete most of what the state manages without asking (docs/spec/plan-and-apply.md#mass-deletion). */
export const ALLOW_MASS_DELETE = '--allow-mass-delete';

/** The warning on stderr, where the plan itself is not printed (apply --json, a plan in JSON or markdown). */
export function printMassRemovalWarning(plan: Plan, io: CliIo): void {
  const warning = massRemovalWarning(plan);
  if (warning !== undefined) io.stderr.write(`Warning: ${printableLine(warning)}\n`);
}

/** `, deleting 9 of the 11 resources agentsync manages in environment "dev"`: the count in apply's question. */
export function massDeletionClause(plan: Plan): string {
  const mass = massRemovalOf(plan);
  return isMassDeletion(mass) ? `, deleting ${mass.deleted} of the ${countOf(mass.managed, 'resource')} agentsync manages in environment "${printableText(plan.environment)}" from the server` : '';
}
