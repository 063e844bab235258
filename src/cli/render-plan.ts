// Picks the renderer for a plan and the color setting for this terminal.
import type { Diagnostic } from '../core/diagnostics.js';
import type { Plan } from '../core/plan.js';
import { useColor, type ManifestOptions } from './options.js';
import type { CliIo } from './cli-io.js';
import { renderDiagnosticsText } from '../render/diagnostics.js';
import { planToJson } from '../render/plan-json.js';
import { renderPlanMarkdown } from '../render/plan-markdown.js';
import { renderPlanText } from '../render/plan-text.js';

export type OutputOptions = Pick<ManifestOptions, 'color'>;

/** `io`: whose stdout decides the colour of a text plan. */
export function formatPlan(plan: Plan, format: 'text' | 'json' | 'markdown', opts: OutputOptions, io: Pick<CliIo, 'stdout' | 'env'>): string {
  switch (format) {
    case 'json':
      return JSON.stringify(planToJson(plan), null, 2) + '\n';
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
