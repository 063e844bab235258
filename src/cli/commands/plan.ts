import type { Command } from 'commander';
import { addManifestOptions, addResponseTimeoutOption, addVarOptions, responseTimeoutMs, environmentChoice, nonEmptyPath, type ManifestOptions } from '../options.js';
import type { PlanOptions } from '../plan-options.js';
import { addScopeOptions, scopeOf } from '../scope-options.js';
import type * as SavePlan from '../../app/save-plan.js';
import type { PlanOut } from '../../app/save-plan.js';
import type { PlanScope } from '../../core/plan-scope.js';
import { choosePlanOutput, type PlanFormat, type PlanOutput } from '../plan-output.js';
import type { CliIo } from '../cli-io.js';
import { endsWith, type Outcome } from '../exit-codes.js';

/** The options of a plan of one environment. */
type OnePlanOptions = Omit<PlanOptions, 'env'> & Pick<ManifestOptions, 'env'>;

export function registerPlanCommand(program: Command, io: CliIo): void {
  const cmd = program
    .command('plan')
    .description('Read the server, compare it and the state with the manifest, and show what apply would change.')
    .option(
      '--out <file>',
      'save the plan for `agentsync apply <file>` (- prints it to stdout); with --format text or markdown, write that rendering instead (for reading, not for apply)',
      nonEmptyPath('--out'),
    )
    .option('--detailed-exitcode', 'exit 0 when nothing changes, 2 when the plan has changes, 1 on error')
    .option('--format <format>', 'text, json or markdown', 'text')
    .option('--offline', 'do not read the server: compare the manifest with the state only (needs no API key)');
  addScopeOptions(cmd);
  addVarOptions(cmd);
  addManifestOptions(addResponseTimeoutOption(cmd), { manyEnvironments: true }).action(
    endsWith(async (opts: PlanOptions, command: Command) => runPlan(opts, command.getOptionValueSource('format') === 'cli', io)),
  );
}

async function runPlan(opts: PlanOptions, formatGiven: boolean, io: CliIo): Promise<Outcome> {
  responseTimeoutMs(opts.timeout); // a bad value is refused before anything is read
  const choice = environmentChoice(opts);
  if (choice.kind === 'one') return runPlanOne({ ...opts, env: choice.env }, formatGiven, io);
  // Several environments (docs/spec/state.md#many-environments); a selection that comes down to one runs the plan below.
  const { runPlanMany } = await import('../multi-env-plan.js');
  return runPlanMany(opts, io, (env) => runPlanOne({ ...opts, env }, formatGiven, io));
}

interface PlanRequest {
  readonly format: PlanFormat;
  /** What --out writes, if given. */
  readonly out: PlanOutput['out'];
  readonly offline: boolean;
  /** --timeout for each response, in milliseconds. */
  readonly timeoutMs: number;
  /** --prune and --target. */
  readonly scope: PlanScope;
  readonly detailedExitcode: boolean;
}

/** The flags of a plan of one environment, checked before anything is read (plan-output.ts has the rule for --format and --out). */
export function parsePlan(opts: OnePlanOptions, formatGiven: boolean): PlanRequest {
  const { format, out } = choosePlanOutput({ ...opts, formatGiven });
  return { format, out, offline: opts.offline === true, timeoutMs: responseTimeoutMs(opts.timeout), scope: scopeOf(opts), detailedExitcode: opts.detailedExitcode === true };
}

async function runPlanOne(opts: OnePlanOptions, formatGiven: boolean, io: CliIo): Promise<Outcome> {
  const output = await import('../plan-output.js');
  const request = parsePlan(opts, formatGiven);
  const { format, out: outChoice } = request;
  const [{ loadManifestAndStore }, planUseCase, { conflictsOf, hasChanges }, render] = await Promise.all([
    import('../pipeline.js'),
    import('../../app/plan.js'),
    import('../../core/plan.js'),
    import('../render-plan.js'),
  ]);
  const loaded = await loadManifestAndStore(opts, io);
  render.printWarnings(io, loaded.warnings, opts);
  const out = outChoice?.kind === 'saved-plan' ? await prepareOut(outChoice.path, io) : null;
  const rendering = outChoice?.kind === 'rendering' ? await output.prepareRenderingOut(outChoice.path, io) : null;
  if (outChoice) await refuseOutOverRunInputs(outChoice.path, opts, loaded.store.location, io);
  // Refresh needs the key; checking it before reading the state keeps a missing key a one-line error.
  const connection = request.offline
    ? undefined
    : (await import('../api-connect.js')).connectApi(loaded.desired.environment, io.env, { concurrency: 2, retries: 5, timeoutMs: request.timeoutMs }, { offlineHint: true });
  const { ownConnection } = await import('../../app/connection.js');
  const computed = await planUseCase.planEnvironment({
    desired: loaded.desired,
    store: loaded.store,
    target: loaded.target,
    ...(connection ? { connect: () => ownConnection(connection.open()) } : {}),
    scope: request.scope,
  });
  computed.plan.target = (await import('../../core/plan-target.js')).planTarget(loaded.desired.environment, io.env);
  const rendered = render.formatPlan(computed.plan, format, opts, io);
  // With --out - the plan file goes to stdout, so the readable plan moves to stderr (and a JSON
  // plan is not printed twice: the plan file is the JSON plan plus `savedPlan`).
  if (rendering) await rendering.save(render.formatPlan(computed.plan, format, { color: false }, io), format);
  else if (!out?.toStdout) io.stdout.write(rendered);
  else if (format !== 'json') io.stderr.write(rendered);
  // The JSON plan carries it as `massRemoval`; a log still shows it.
  if (format === 'json') render.printMassRemovalWarning(computed.plan, io);
  // A plan apply would refuse is not saved: a file is a promise that `apply FILE` carries it out.
  const conflicts = conflictsOf(computed.plan);
  if (out && conflicts.length === 0) {
    const planFile = out.save.planFileOf(loaded, computed, {
      maskedBaseUrl: computed.plan.target.baseUrl,
      ...(loaded.varOverrides ? { varOverrides: loaded.varOverrides } : {}),
      createdAt: new Date().toISOString(),
    });
    if (out.toStdout) io.stdout.write((await import('../../io/files/plan-file.js')).serializePlanFile(planFile));
    else {
      await out.save.writeSavedPlan(out, planFile, io.cwd);
      if (format === 'text') io.stdout.write(`\nSaved the plan to ${out.path}. Apply exactly it with: agentsync apply ${out.path}\n`);
    }
  }
  // A plan apply would refuse fails, with or without --detailed-exitcode: a PR check must turn red.
  if (conflicts.length > 0) {
    const refusal = (await import('../../render/plan-conflicts.js')).conflictRefusalLine(conflicts);
    return { ending: 'failed', stderr: refusal + (out ? `The plan was not saved to ${out.path}.\n` : '') };
  }
  // What could not be read was not planned: the plan is incomplete, so the check fails (after the plan is shown).
  if ((computed.plan.unreadable?.length ?? 0) > 0) return 'failed';
  return request.detailedExitcode && hasChanges(computed.plan) ? 'changes' : 'done';
}

/** Where --out goes; a target that cannot be written is refused before the plan is printed. */
async function prepareOut(path: string | undefined, io: CliIo): Promise<(PlanOut & { save: typeof SavePlan }) | null> {
  if (path === undefined) return null;
  const save = await import('../../app/save-plan.js');
  return { ...(await save.preparePlanOut(path, io.cwd)), save };
}

/** `--out` over the manifest, one of its parts, the state (or a file beside it) or the var file is refused. */
async function refuseOutOverRunInputs(out: string, opts: OnePlanOptions, stateLocation: string, io: CliIo): Promise<void> {
  const { refuseOutOverRunInputs: refuse } = await import('../../app/save-plan.js');
  await refuse(out, { manifest: opts.file, ...(opts.varFile === undefined ? {} : { varFile: opts.varFile }), stateLocation, cwd: io.cwd });
}
