// Picks the renderer for a plan and the color setting for this terminal.
import type { Diagnostic } from '../core/diagnostics.js';
import type { Plan } from '../core/plan.js';
import { colorEnabled } from '../render/color.js';
import { renderDiagnosticsText } from '../render/diagnostics.js';
import { planToJson } from '../render/plan-json.js';
import { renderPlanMarkdown } from '../render/plan-markdown.js';
import { renderPlanText } from '../render/plan-text.js';

export interface OutputOptions {
  color?: boolean;
}

export function stdoutColor(opts: OutputOptions): boolean {
  return colorEnabled({ isTTY: process.stdout.isTTY === true, noColorFlag: opts.color === false, env: process.env });
}

export function formatPlan(plan: Plan, format: 'text' | 'json' | 'markdown', opts: OutputOptions): string {
  switch (format) {
    case 'json':
      return JSON.stringify(planToJson(plan), null, 2) + '\n';
    case 'markdown':
      return renderPlanMarkdown(plan);
    case 'text':
      return renderPlanText(plan, { color: stdoutColor(opts) });
    default: {
      const _exhaustive: never = format;
      return _exhaustive;
    }
  }
}

export function printWarnings(warnings: readonly Diagnostic[], opts: OutputOptions): void {
  if (warnings.length === 0) return;
  const color = colorEnabled({ isTTY: process.stderr.isTTY === true, noColorFlag: opts.color === false, env: process.env });
  process.stderr.write(renderDiagnosticsText(warnings, { color, codeFrame: false }));
}

/** Stale-lock takeovers and journal recoveries: worth a line, never an error. */
export function printStateWarning(warning: { message: string }): void {
  process.stderr.write(`Warning: ${warning.message}\n`);
}
