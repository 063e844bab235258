// `agentsync diff -e A -e B` (docs/spec/commands.md#diff): two environments compared live through the
// manifest (app/diff.ts), printed as text, JSON or markdown.
import type { Command } from 'commander';
import { UserError } from '../../core/errors.js';
import { addFileOption, addResponseTimeoutOption, addVarOptions, responseTimeoutMs, type ManifestOptions } from '../options.js';
import type { CliIo } from '../cli-io.js';
import { endsWith, type Outcome } from '../exit-codes.js';

interface DiffOptions extends Omit<ManifestOptions, 'env' | 'state'> {
  env?: string[];
  format?: string;
  detailedExitcode?: boolean;
  liveOnly?: boolean;
}

export function registerDiffCommand(program: Command, io: CliIo): void {
  const cmd = program
    .command('diff')
    .description('Compare two environments live, through the manifest: intended differences, drift, and what only one server holds.')
    .option('-e, --env <name>', 'an environment to compare; give exactly two (-e us -e eu, or -e us,eu)', collectEnvironments)
    .option('--detailed-exitcode', 'exit 0 when the environments differ only as the manifest intends, 2 on drift or a resource on one server only, 1 on error')
    .option('--format <format>', 'text, json or markdown', 'text')
    .option('--live-only', 'compare the two servers directly (tools and agents by name), for an app not yet under agentsync');
  addFileOption(cmd);
  addVarOptions(cmd);
  addResponseTimeoutOption(cmd)
    .option('--json', 'machine-readable output on stdout')
    .option('--no-color', 'no colours')
    .action(endsWith(async (opts: DiffOptions, command: Command) => runDiff(opts, command.getOptionValueSource('format') === 'cli', io)));
}

function collectEnvironments(value: string, previous: string[] | undefined): string[] {
  const names = value.split(',').map((name) => name.trim());
  if (names.some((name) => name === '')) throw new UserError('usage', `-e needs environment names (got "${value}")`);
  return [...(previous ?? []), ...names];
}

async function runDiff(opts: DiffOptions, formatGiven: boolean, io: CliIo): Promise<Outcome> {
  const [
    { choosePlanOutput },
    { diffEnvironments },
    { hasDifferences },
    { connectApi },
    { ownConnection },
    { readVarOverrides },
    { hideInOutput },
    { manifestSource },
    { printStateWarning },
    { useColor },
  ] = await Promise.all([
    import('../plan-output.js'),
    import('../../app/diff.js'),
    import('../../core/env-diff/types.js'),
    import('../api-connect.js'),
    import('../../app/connection.js'),
    import('../../io/manifest/var-overrides.js'),
    import('../../io/api/outside-text.js'),
    import('../cli-io.js'),
    import('../render-plan.js'),
    import('../options.js'),
  ]);
  const { format } = choosePlanOutput({ ...(opts.json === undefined ? {} : { json: opts.json }), ...(opts.format === undefined ? {} : { format: opts.format }), formatGiven });
  const timeoutMs = responseTimeoutMs(opts.timeout);
  const varOverrides = await readVarOverrides(opts, io.cwd);
  const diff = await diffEnvironments({
    file: opts.file,
    source: manifestSource(io),
    environments: opts.env ?? [],
    env: io.env,
    ...(varOverrides ? { varOverrides } : {}),
    liveOnly: opts.liveOnly === true,
    connector: (environment) => {
      const connection = connectApi(environment, io.env, { concurrency: 2, retries: 5, timeoutMs });
      return () => ownConnection(connection.open());
    },
    onSensitiveValues: hideInOutput,
    onStateWarning: (environment, warning) => printStateWarning(io, { message: `[${environment}] ${warning.message}` }),
  });
  if (format === 'json') io.stdout.write((await import('../../render/diff-json.js')).renderDiffJson(diff));
  else if (format === 'markdown') io.stdout.write((await import('../../render/diff-markdown.js')).renderDiffMarkdown(diff));
  else io.stdout.write((await import('../../render/diff-text.js')).renderDiffText(diff, { color: useColor(opts, io.stdout, io.env) }));
  // What could not be read was not compared: never "no differences".
  if (diff.unreadable.length > 0) return 'failed';
  return opts.detailedExitcode === true && hasDifferences(diff) ? 'changes' : 'done';
}
