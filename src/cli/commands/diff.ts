// `agentsync diff -e A -e B` (docs/spec/commands.md#diff): two environments compared live through the
// manifest (app/diff.ts), printed as text, JSON or markdown.
import type { Command } from 'commander';
import { UserError } from '../../core/errors.js';
import { addFileOption, addResponseTimeoutOption, addVarOptions, responseTimeoutMs, type ManifestOptions } from '../options.js';
import { choosePlanOutput, type PlanFormat } from '../plan-output.js';
import type { CliIo } from '../cli-io.js';
import { endsWith, type Outcome } from '../exit-codes.js';

export interface DiffOptions extends Omit<ManifestOptions, 'env' | 'state'> {
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

interface DiffRequest {
  readonly format: PlanFormat;
  readonly environments: readonly string[];
  /** --timeout for each response, in milliseconds. */
  readonly timeoutMs: number;
  readonly liveOnly: boolean;
  readonly detailedExitcode: boolean;
}

/** `diff`'s flags, checked in this order before anything is read. */
export function parseDiff(opts: DiffOptions, formatGiven: boolean): DiffRequest {
  const { format } = choosePlanOutput({ ...(opts.json === undefined ? {} : { json: opts.json }), ...(opts.format === undefined ? {} : { format: opts.format }), formatGiven });
  return { format, environments: opts.env ?? [], timeoutMs: responseTimeoutMs(opts.timeout), liveOnly: opts.liveOnly === true, detailedExitcode: opts.detailedExitcode === true };
}

async function runDiff(opts: DiffOptions, formatGiven: boolean, io: CliIo): Promise<Outcome> {
  const [{ diffEnvironments }, { hasDifferences }, { connectApi }, { ownConnection }, { readVarOverrides }, { hideInOutput }, { manifestSource }, { printStateWarning }, { useColor }, { DIFF_VIEWS }] =
    await Promise.all([
      import('../../app/diff.js'),
      import('../../core/env-diff/types.js'),
      import('../api-connect.js'),
      import('../../app/connection.js'),
      import('../../io/manifest/var-overrides.js'),
      import('../../io/api/outside-text.js'),
      import('../cli-io.js'),
      import('../render-plan.js'),
      import('../options.js'),
      import('../../render/diff-view.js'),
    ]);
  const request = parseDiff(opts, formatGiven);
  const view = DIFF_VIEWS[request.format];
  const varOverrides = await readVarOverrides(opts, io.cwd);
  const diff = await diffEnvironments({
    file: opts.file,
    source: manifestSource(io),
    environments: request.environments,
    env: io.env,
    ...(varOverrides ? { varOverrides } : {}),
    liveOnly: request.liveOnly,
    connector: (environment) => {
      const connection = connectApi(environment, io.env, { concurrency: 2, retries: 5, timeoutMs: request.timeoutMs });
      return () => ownConnection(connection.open());
    },
    onSensitiveValues: hideInOutput,
    onStateWarning: (environment, warning) => printStateWarning(io, { message: `[${environment}] ${warning.message}` }),
  });
  io.stdout.write(view(diff, { color: useColor(opts, io.stdout, io.env) }));
  // What could not be read was not compared: never "no differences".
  if (diff.unreadable.length > 0) return 'failed';
  return request.detailedExitcode && hasDifferences(diff) ? 'changes' : 'done';
}
