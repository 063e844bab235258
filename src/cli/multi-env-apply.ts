// `agentsync apply` over several environments (CONTRACT §9.2). Each environment takes its own lock,
// plans under it with its own client (its own key and rate budget), and executes, `--parallel` at a
// time. Without --auto-approve every environment is planned first and the question is asked once.
// A failure in one environment is that environment's row in the closing table: the others finish,
// and everything they did is recorded in their own states.
import { scopeOf } from './scope-options.js';
import type { PlanScope } from '../core/plan-scope.js';
import { UserError } from '../core/errors.js';
import { hasChanges, type Plan } from '../core/plan.js';
import type { ApiClient } from '../io/api/client.js';
import type { ApplyResult } from '../core/apply-types.js';
import type { StateSession } from '../io/state/index.js';
import { multiApplyJson, renderApplyTable, renderPlanTable, type EnvironmentFailure, type EnvironmentOutcome } from '../render/multi-env.js';
import { connectApi, parseCount } from './api-connect.js';
import { refuseConflicts } from './apply-run.js';
import type { ManyApplyOptions } from './apply-options.js';
import { createLimiter, createMultiOutput, failureOf, loadEnvironments, parseParallel, type EnvironmentOutput, type EnvironmentRun } from './multi-env.js';
import { lockTimeoutMs, useColor } from './options.js';
import { computePlan } from '../app/compute-plan.js';
import { formatPlan } from './render-plan.js';
import { ExitRequest } from './run.js';

interface ApplySettings {
  concurrency: number;
  retries: number;
  timeoutMs: number;
  lockWaitMs: number;
  json: boolean;
  color: boolean;
  autoApprove: boolean;
  limit: Place;
  /** `--prune` and `--target`, the same for every environment. */
  scope: PlanScope;
}

/** What an environment reports once it has planned (and holds its lock), or why it could not. */
type Planned = { plan: Plan } | { failure: EnvironmentFailure };

export async function runApplyMany(planfile: string | undefined, opts: ManyApplyOptions, runOne: (environment: string) => Promise<void>): Promise<void> {
  const settings: ApplySettings = {
    concurrency: parseCount(opts.concurrency, '--concurrency', 1, 256),
    retries: parseCount(opts.retries, '--retries', 0, 100),
    timeoutMs: parseCount(opts.timeout, '--timeout', 1, 3600) * 1000,
    lockWaitMs: lockTimeoutMs(opts.lockTimeout),
    json: opts.json === true,
    color: opts.json === true ? false : useColor(opts, process.stdout),
    autoApprove: opts.autoApprove === true,
    limit: createLimiter(parseParallel(opts.parallel)),
    scope: scopeOf(opts),
  };
  // With --json, stdout carries only the result document; everything else goes to stderr.
  const output = createMultiOutput({ stream: settings.json ? process.stderr : process.stdout, color: settings.color });
  const outputs = new Map<string, EnvironmentOutput>();
  const loaded = await loadEnvironments(opts, (environment, message) => outputs.get(environment)?.warning(message));
  if (loaded.single !== undefined) return runOne(loaded.single);
  if (planfile !== undefined) {
    throw new UserError('usage', `a saved plan holds one environment; apply ${planfile} on its own (agentsync apply ${planfile}), without several -e or --all-environments`);
  }
  if (!settings.autoApprove && process.stdin.isTTY !== true) {
    throw new UserError('refused', 'stdin is not a terminal, so apply cannot ask for confirmation; pass --auto-approve to apply without asking');
  }
  for (const run of loaded.runs) outputs.set(run.info.name, output.forEnvironment(run.info));

  // Each environment reports its plan (or its failure); the gate opens once the question is answered.
  const planned = loaded.runs.map(() => deferred<Planned>());
  const gate = deferred<boolean>();
  if (settings.autoApprove) gate.resolve(true);
  const tasks = loaded.runs.map((run, i) => applyOne(run, settings, outputs.get(run.info.name)!, planned[i]!, gate.promise));
  if (!settings.autoApprove) {
    const plans = await Promise.all(planned.map((p) => p.promise));
    const shown = loaded.runs.map((run, i): EnvironmentOutcome<Plan> => {
      const p = plans[i]!;
      return 'plan' in p ? { environment: run.info, value: p.plan } : { environment: run.info, failure: p.failure };
    });
    const withChanges = shown.filter((o) => o.value && hasChanges(o.value)).map((o) => o.environment.name);
    let approved = false;
    try {
      approved = withChanges.length > 0 && (await confirm(shown, withChanges, settings));
    } finally {
      // Whatever happened to the question, every environment learns the answer and lets go of its lock.
      gate.resolve(approved);
    }
  }
  const outcomes = await Promise.all(tasks);

  if (outcomes.some((o) => o === 'cancelled')) throw new UserError('refused', 'apply cancelled; nothing was changed');
  const finished = outcomes.filter((o): o is EnvironmentOutcome<ApplyResult> => o !== 'cancelled');
  if (settings.json) process.stdout.write(JSON.stringify(multiApplyJson(finished), null, 2) + '\n');
  else output.print(`\n${renderApplyTable(finished, { color: settings.color })}`);
  if (finished.some((o) => o.failure)) throw new ExitRequest(1);
}

/**
 * With --auto-approve an environment takes one of the --parallel places from its lock to its end.
 * Otherwise it holds a place while planning and again while executing, so every environment can be
 * planned (and its lock held) before the one question; an environment whose plan is done then goes
 * ahead of those still waiting.
 */
function applyOne(
  run: EnvironmentRun,
  settings: ApplySettings,
  out: EnvironmentOutput,
  planned: Deferred<Planned>,
  gate: Promise<boolean>,
): Promise<EnvironmentOutcome<ApplyResult> | 'cancelled'> {
  if (settings.autoApprove) return settings.limit(() => lockPlanExecute(run, settings, out, planned, gate, (task) => task()));
  return lockPlanExecute(run, settings, out, planned, gate, settings.limit);
}

type Place = <T>(task: () => Promise<T>, options?: { first?: boolean }) => Promise<T>;

/** One environment: lock, plan, (wait for the answer), execute, unlock. Never throws: an error is its outcome. */
async function lockPlanExecute(
  run: EnvironmentRun,
  settings: ApplySettings,
  out: EnvironmentOutput,
  planned: Deferred<Planned>,
  gate: Promise<boolean>,
  place: Place,
): Promise<EnvironmentOutcome<ApplyResult> | 'cancelled'> {
  let session: StateSession | undefined;
  let client: ApiClient | undefined;
  try {
    const plan = await place(async () => {
      const connection = connectApi(run.desired.environment, { concurrency: settings.concurrency, retries: settings.retries, timeoutMs: settings.timeoutMs });
      session = await run.store.open(run.target, { lockTimeoutMs: settings.lockWaitMs });
      client = await connection.open();
      return (await computePlan(run.desired, session.state, { client, scope: settings.scope })).plan;
    });
    if (!settings.json || !settings.autoApprove) out.section(formatPlan(plan, 'text', { color: settings.color }));
    refuseConflicts(plan);
    planned.resolve({ plan });
    if (!hasChanges(plan)) return { environment: run.info, value: nothingToDo(run.info.name, plan.prune) };
    if (!(await gate)) return 'cancelled';
    const result = await place(() => execute(run, plan, session!, client!, settings, out), { first: true });
    const failure = resultFailure(result);
    if (failure) out.error(failure.message);
    return { environment: run.info, value: result, ...(failure ? { failure } : {}) };
  } catch (err) {
    const failure = failureOf(err);
    planned.resolve({ failure });
    out.error(failure.message);
    return { environment: run.info, failure };
  } finally {
    await client?.close();
    await session?.close();
  }
}

async function execute(run: EnvironmentRun, plan: Plan, session: StateSession, client: ApiClient, settings: ApplySettings, out: EnvironmentOutput): Promise<ApplyResult> {
  const [{ executePlan }, { renderApplySummary }] = await Promise.all([import('../io/apply/executor.js'), import('../render/apply-summary.js')]);
  const progress = out.progress(plan.summary.create + plan.summary.update + plan.summary.forget);
  let result: ApplyResult;
  try {
    result = await executePlan({ plan, desired: run.desired, session, client, concurrency: settings.concurrency, onEvent: progress.onEvent });
  } finally {
    progress.finish();
  }
  if (!settings.json) out.section(renderApplySummary(result, { color: settings.color }));
  return result;
}

/** The same sentences a one-environment apply ends with when it fails. */
function resultFailure(result: ApplyResult): EnvironmentFailure | undefined {
  if (!result.ok) {
    return { code: 'apply_failed', message: `apply failed: ${result.failed.length} failed, ${result.notAttempted.length} not attempted; ${result.done.length} changes were applied and recorded` };
  }
  if (result.notify.status === 'failed') return { code: 'api_error', message: 'the changes were applied and recorded, but the notify message was not sent' };
  return undefined;
}

function nothingToDo(environment: string, prune: boolean): ApplyResult {
  return { environment, ok: true, prune, counts: { created: 0, updated: 0, deleted: 0, forgotten: 0 }, done: [], failed: [], notAttempted: [], notify: { status: 'skipped', reason: 'nothing-changed' }, total: 0 };
}

/** One question for every environment that has changes, after every plan is shown. */
async function confirm(plans: EnvironmentOutcome<Plan>[], withChanges: readonly string[], settings: ApplySettings): Promise<boolean> {
  const out = settings.json ? process.stderr : process.stdout;
  out.write(`\n${renderPlanTable(plans, { color: settings.color })}`);
  const { createInterface } = await import('node:readline/promises');
  const rl = createInterface({ input: process.stdin, output: out });
  try {
    const which = withChanges.length === 1 ? `environment ${withChanges[0]}` : `${withChanges.length} environments (${withChanges.join(', ')})`;
    const answer = await rl.question(`\nDo you want to apply these changes to ${which}? Only 'yes' will be accepted: `);
    return answer.trim() === 'yes';
  } finally {
    rl.close();
  }
}

interface Deferred<T> {
  promise: Promise<T>;
  resolve(value: T): void;
}

function deferred<T>(): Deferred<T> {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}
