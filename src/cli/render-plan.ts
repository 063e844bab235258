// Picks the renderer for a plan and the color setting for this terminal.
import type { Diagnostic } from '../core/diagnostics.js';
import type { Plan } from '../core/plan.js';
import { useColor, type ManifestOptions } from './options.js';
import { renderDiagnosticsText } from '../render/diagnostics.js';
import { planToJson } from '../render/plan-json.js';
import { renderPlanMarkdown } from '../render/plan-markdown.js';
import { renderPlanText } from '../render/plan-text.js';

export type OutputOptions = Pick<ManifestOptions, 'color'>;

export function formatPlan(plan: Plan, format: 'text' | 'json' | 'markdown', opts: OutputOptions): string {
  switch (format) {
    case 'json':
      return JSON.stringify(planToJson(plan), null, 2) + '\n';
    case 'markdown':
      return renderPlanMarkdown(plan);
    case 'text':
      return renderPlanText(plan, { color: useColor(opts, process.stdout) });
    default: {
      const _exhaustive: never = format;
      return _exhaustive;
    }
  }
}

export function printWarnings(warnings: readonly Diagnostic[], opts: OutputOptions): void {
  if (warnings.length === 0) return;
  process.stderr.write(renderDiagnosticsText(warnings, { color: useColor(opts, process.stderr), codeFrame: false }));
}

/** Stale-lock takeovers and journal recoveries: worth a line, never an error. */
export function printStateWarning(warning: { message: string }): void {
  process.stderr.write(`Warning: ${warning.message}\n`);
}
