import type { Command } from 'commander';
import { UserError } from '../../core/errors.js';
import { addManifestOptions, type ManifestOptions } from '../options.js';

interface PlanOptions extends ManifestOptions {
  out?: string;
  detailedExitcode?: boolean;
  format?: string;
}

const FORMATS = ['text', 'json', 'markdown'] as const;
type Format = (typeof FORMATS)[number];

export function registerPlanCommand(program: Command): void {
  const cmd = program
    .command('plan')
    .description('Compare the manifest with the state and show what apply would change.')
    .option('--out <file>', 'save the plan for `agentsync apply <file>`')
    .option('--detailed-exitcode', 'exit 0 when nothing changes, 2 when the plan has changes, 1 on error')
    .option('--format <format>', 'text, json or markdown', 'text');
  addManifestOptions(cmd).action(async (opts: PlanOptions) => runPlan(opts));
}

async function runPlan(opts: PlanOptions): Promise<void> {
  const format: Format = opts.json ? 'json' : parseFormat(opts.format ?? 'text');
  const [{ loadManifestAndStore, computePlan, planBasisOf }, { hasChanges }, render, { ExitRequest }] = await Promise.all([
    import('../pipeline.js'),
    import('../../core/plan.js'),
    import('../render-plan.js'),
    import('../run.js'),
  ]);
  const loaded = await loadManifestAndStore(opts);
  render.printWarnings(loaded.warnings, opts);
  const state = await loaded.store.read(loaded.target);
  const computed = computePlan(loaded.desired, state);
  process.stdout.write(render.formatPlan(computed.plan, format, opts));
  if (opts.out) {
    const { buildPlanFile, writePlanFile } = await import('../../io/plan-file.js');
    const { planToJson } = await import('../../render/plan-json.js');
    const { PACKAGE_VERSION } = await import('../../io/package-version.js');
    await writePlanFile(
      opts.out,
      buildPlanFile(planToJson(computed.plan), {
        agentsyncVersion: PACKAGE_VERSION,
        createdAt: new Date().toISOString(),
        ...planBasisOf(loaded.desired, state, computed.salt),
      }),
    );
    if (format === 'text') process.stdout.write(`\nSaved the plan to ${opts.out}. Apply exactly it with: agentsync apply ${opts.out}\n`);
  }
  if (opts.detailedExitcode && hasChanges(computed.plan)) throw new ExitRequest(2);
}

function parseFormat(value: string): Format {
  if ((FORMATS as readonly string[]).includes(value)) return value as Format;
  throw new UserError('usage', `--format must be one of ${FORMATS.join(', ')} (got "${value}")`);
}
