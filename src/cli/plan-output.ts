// What `plan` prints and what `--out` writes. The rule (README, "Saved plans"):
//   - `--format` (or `--json`) chooses the rendering; `--json` together with another --format is an error.
//   - `--out FILE` writes the saved plan, the one file `apply FILE` accepts: the JSON plan plus what
//     proves it is still current. That is what it writes without --format, or with --format json.
//   - `--out FILE` with an explicit `--format text` or `--format markdown` writes that rendering
//     instead, for reading (a pull-request comment, a job summary); apply refuses such a file.
import { UserError } from '../core/errors.js';
import { didYouMean } from '../core/suggest.js';
import type { CliIo } from './cli-io.js';

export const PLAN_FORMATS = ['text', 'json', 'markdown'] as const;
export type PlanFormat = (typeof PLAN_FORMATS)[number];

export interface PlanOutputFlags {
  json?: boolean;
  format?: string;
  /** True when --format was given on the command line (not the default). */
  formatGiven: boolean;
  out?: string;
}

export interface PlanOutput {
  format: PlanFormat;
  /** What --out writes: the saved plan (appliable), a rendering for reading, or nothing. */
  out: { kind: 'saved-plan' | 'rendering'; path: string } | null;
}

export function choosePlanOutput(flags: PlanOutputFlags): PlanOutput {
  const chosen = flags.formatGiven ? parseFormat(flags.format ?? 'text') : undefined;
  if (flags.json && chosen !== undefined && chosen !== 'json') {
    throw new UserError('usage', `--json means --format json, so it cannot be combined with --format ${chosen}; pass one of them`);
  }
  const format: PlanFormat = flags.json ? 'json' : (chosen ?? 'text');
  if (flags.out === undefined) return { format, out: null };
  const rendering = chosen === 'text' || chosen === 'markdown';
  return { format, out: { kind: rendering ? 'rendering' : 'saved-plan', path: flags.out } };
}

function parseFormat(value: string): PlanFormat {
  if ((PLAN_FORMATS as readonly string[]).includes(value)) return value as PlanFormat;
  throw new UserError('usage', `--format must be one of ${PLAN_FORMATS.join(', ')} (got "${value}")${didYouMean(value, PLAN_FORMATS)}`);
}

/**
 * `--out FILE` for a rendering: the target is checked before anything is printed (as for a saved
 * plan); `-` and /dev/stdout print it instead.
 */
export async function prepareRenderingOut(path: string, cli: CliIo): Promise<{ save(text: string, format: PlanFormat): Promise<void> }> {
  const io = await import('../io/files/plan-file.js');
  if (io.isStdoutTarget(path)) return { save: async (text) => void cli.stdout.write(text) };
  await io.checkPlanOutTarget(path, cli.cwd);
  return {
    async save(text, format) {
      await io.writeRenderedPlan(path, text, cli.cwd);
      cli.stdout.write(renderingSavedLine(format, path));
    },
  };
}

/** The line after a rendering was written to a file: it cannot be applied, and what can. */
function renderingSavedLine(format: PlanFormat, path: string): string {
  return `Saved the ${format} plan to ${path}. It is for reading; to apply exactly this plan, save it with \`agentsync plan --out plan.json\` (no --format) and run \`agentsync apply plan.json\`.\n`;
}
