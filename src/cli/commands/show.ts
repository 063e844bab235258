// agentsync show PLANFILE: a saved plan rendered again as text, markdown or JSON. Reads only the
// file: no manifest, no state, no network, no API key.
import { Option, type Command } from 'commander';
import { nonEmptyPath, useColor } from '../options.js';
import type { CliIo } from '../cli-io.js';

export interface ShowOptions {
  format: 'text' | 'markdown' | 'json';
  json?: boolean;
  color?: boolean;
}

export function registerShowCommand(program: Command, io: CliIo): void {
  program
    .command('show')
    .argument('<planfile>', 'a plan saved with `agentsync plan --out FILE`', nonEmptyPath('PLANFILE'))
    .description('Render a saved plan as text, markdown or JSON, offline.')
    .addOption(new Option('--format <format>', 'text, markdown or json').choices(['text', 'markdown', 'json']).default('text'))
    .option('--json', 'the same as --format json')
    .option('--no-color', 'no colours')
    .action(async (planfile: string, options: ShowOptions) => runShow(planfile, options, io));
}

async function runShow(path: string, options: ShowOptions, io: CliIo): Promise<void> {
  const [{ readPlanFile }, { planFromJson }, { renderPlanText }, { renderPlanMarkdown }, { savedPlanHeader }, { renderSavedPlanJson }] = await Promise.all([
    import('../../io/files/plan-file.js'),
    import('../../core/plan-from-json.js'),
    import('../../render/plan-text.js'),
    import('../../render/plan-markdown.js'),
    import('../../render/saved-plan.js'),
    import('../../render/plan-json.js'),
  ]);
  const { savedPlan, ...planJson } = await readPlanFile(path, io.cwd);
  if (options.json === true || options.format === 'json') {
    io.stdout.write(renderSavedPlanJson(planJson));
    return;
  }
  const plan = planFromJson(planJson, path);
  if (savedPlan.checks) plan.target = { baseUrl: savedPlan.checks.baseUrl };
  if (options.format === 'markdown') {
    io.stdout.write(renderPlanMarkdown(plan));
    return;
  }
  io.stdout.write(savedPlanHeader({ path, createdAt: savedPlan.createdAt, agentsyncVersion: savedPlan.agentsyncVersion }));
  io.stdout.write(renderPlanText(plan, { color: useColor(options, io.stdout, io.env) }));
}
