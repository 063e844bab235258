// `agentsync apply` over several environments (docs/spec/state.md#many-environments). Each
// environment takes its own lock, plans under it with its own client (its own key and rate budget),
// and executes, `--parallel` at a time. Without --auto-approve every environment is planned first
// and the question is asked once. A failure in one environment is that environment's row in the
// closing table: the others finish, and everything they did is recorded in their own states.
import { scopeOf } from './scope-options.js';
import type { PlanScope } from '../core/plan-scope.js';
import { UserError } from '../core/errors.js';
import { changeCount, hasChanges, type Plan } from '../core/plan.js';
import type { ApplyResult } from '../core/apply-types.js';
import { applyPlan } from '../app/apply.js';
import { applyVerdict } from '../app/apply-verdict.js';
import { ownConnection } from '../app/connection.js';
import { renderApplySummary } from '../render/apply-summary.js';
import { massRemovalWarning } from '../render/mass-removal.js';
import { renderMultiApplyJson, renderApplyTable, renderPlanTable, type EnvironmentFailure, type EnvironmentOutcome } from '../render/multi-env.js';
import { connectApi } from './api-connect.js';
import type { ManyApplyOptions } from './apply-options.js';
import { createLimiter, createMultiOutput, failureOf, loadEnvironments, parseParallel, type EnvironmentOutput, type EnvironmentRun } from './multi-env.js';
import { lockTimeoutMs, parseCount, responseTimeoutMs, useColor } from './options.js';
import { computePlan } from '../app/compute-plan.js';
import { ALLOW_MASS_DELETE, formatPlan, massDeletionClause } from './render-plan.js';
import type { Outcome } from './exit-codes.js';
import type { CliIo } from './cli-io.js';

interface ApplySettings {
  io: CliIo;
  concurrency: number;
  retries: number;
  timeoutMs: number;
  lockWaitMs: number;
  json: boolean;
  color: boolean;
  autoApprove: boolean;
  /** `--allow-mass-delete`; without --auto-approve the one question names each mass deletion instead. */
  allowMassDelete: boolean;
  limit: Place;
  /** `--prune` and `--target`, the same for every environment. */
  scope: PlanScope;
}

/** What an environment reports once it has planned (and holds its lock), or why it could not. */
type Planned = { plan: Plan } | { failure: EnvironmentFailure };

export async function runApplyMany(planfile: string | undefined, opts: ManyApplyOptions, io: CliIo, runOne: (environment: string) => Promise<Outcome>): Promise<Outcome> {
  const settings: ApplySettings = {
    io,
    concurrency: parseCount(opts.concurrency, '--concurrency', 1, 256),
    retries: parseCount(opts.retries, '--retries', 0, 100),
    timeoutMs: responseTimeoutMs(opts.timeout),
    lockWaitMs: lockTimeoutMs(opts.lockTimeout),
    json: opts.json === true,
    color: opts.json === true ? false : useColor(opts, io.stdout, io.env),
    autoApprove: opts.autoApprove === true,
    allowMassDelete: opts.allowMassDelete === true,
    limit: createLimiter(parseParallel(opts.parallel)),
    scope: scopeOf(opts),
  };
  // With --json, stdout carries only the result document; everything else goes to stderr.
  const output = createMultiOutput({ stream: settings.json ? io.stderr : io.stdout, stderr: io.stderr, color: settings.color });
  const outputs = new Map<string, EnvironmentOutput>();
  const loaded = await loadEnvironments(opts, io, (environment, message) => outputs.get(environment)?.warning(message));
  if (loaded.single !== undefined) return runOne(loaded.single);
  if (opts.wait === true) {
    // Each environment's indexing progress would share one terminal line; waiting is per environment.
    throw new UserError('usage', '--wait follows the indexing of one environment; with several, run agentsync apply -e NAME --wait for each (or agentsync kb status -e NAME afterwards)');
  }
  if (planfile !== undefined) {
    throw new UserError('usage', `a saved plan holds one environment; apply ${planfile} on its own (agentsync apply ${planfile}), without several -e or --all-environments`);
  }
  if (!settings.autoApprove && io.stdin.isTTY !== true) {
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
  if (settings.json) io.stdout.write(renderMultiApplyJson(finished));
  else output.print(`\n${renderApplyTable(finished, { color: settings.color })}`);
  // Each failed environment's row says why.
  return finished.some((o) => o.failure) ? 'failed' : 'done';
}

/**
 * With --auto-approve an environment takes one of the --parallel places from its lock to its end.
 * Otherwise it holds a place while planning and again while executing, so every environment can be
 * planned (and its lock held) before the one question; an environment whose plan is done then goes
 * ahead of those still waiting.
 */
function applyOne(run: EnvironmentRun, settings: ApplySettings, out: EnvironmentOutput, planned: Deferred<Planned>, gate: Promise<boolean>): Promise<EnvironmentOutcome<ApplyResult> | 'cancelled'> {
  if (settings.autoApprove) return settings.limit(() => lockPlanExecute(run, settings, out, planned, gate, (task) => task()));
  return lockPlanExecute(run, settings, out, planned, gate, settings.limit);
}

type Place = <T>(task: () => Promise<T>, options?: { first?: boolean }) => Promise<T>;

/** One environment through the apply use case: lock, plan, (wait for the answer), execute, unlock. Never throws: an error is its outcome. */
async function lockPlanExecute(
  run: EnvironmentRun,
  settings: ApplySettings,
  out: EnvironmentOutput,
  planned: Deferred<Planned>,
  gate: Promise<boolean>,
  place: Place,
): Promise<EnvironmentOutcome<ApplyResult> | 'cancelled'> {
  try {
    // The key is checked before the lock, as with one environment.
    const connection = connectApi(run.desired.environment, settings.io.env, { concurrency: settings.concurrency, retries: settings.retries, timeoutMs: settings.timeoutMs });
    const outcome = await applyPlan({
      desired: run.desired,
      store: run.store,
      target: run.target,
      lockTimeoutMs: settings.lockWaitMs,
      connect: () => ownConnection(connection.open()),
      plan: async (state, client) => computePlan(run.desired, state, { client, scope: settings.scope }),
      concurrency: settings.concurrency,
      allowMassDelete: settings.allowMassDelete || !settings.autoApprove,
      massDeleteFlag: ALLOW_MASS_DELETE,
      phase: (name, task) => (name === 'plan' ? place(task) : place(task, { first: true })),
      onPlanned: (plan) => {
        if (!settings.json || !settings.autoApprove) out.section(formatPlan(plan, 'text', { color: settings.color }, settings.io));
        else {
          // The plan is not shown; its mass-removal warning still is (on stderr).
          const warning = massRemovalWarning(plan);
          if (warning !== undefined) out.warning(warning);
        }
      },
      approve: (plan) => {
        planned.resolve({ plan });
        return gate;
      },
      startExecution: (plan) => out.progress(changeCount(plan.summary)),
    });
    if (outcome.kind === 'cancelled') return 'cancelled';
    if (outcome.kind === 'no-changes') {
      planned.resolve({ plan: outcome.plan });
      return { environment: run.info, value: outcome.result };
    }
    const { result } = outcome;
    if (!settings.json) out.section(renderApplySummary(result, { color: settings.color }));
    const failure = applyVerdict(result);
    if (failure) out.error(failure.message);
    return { environment: run.info, value: result, ...(failure ? { failure } : {}) };
  } catch (err) {
    const failure = failureOf(err, settings.io);
    planned.resolve({ failure });
    out.error(failure.message);
    return { environment: run.info, failure };
  }
}

/** One question for every environment that has changes, after every plan is shown. */
async function confirm(plans: EnvironmentOutcome<Plan>[], withChanges: readonly string[], settings: ApplySettings): Promise<boolean> {
  const out = settings.json ? settings.io.stderr : settings.io.stdout;
  out.write(`\n${renderPlanTable(plans, { color: settings.color })}`);
  const { createInterface } = await import('node:readline/promises');
  const rl = createInterface({ input: settings.io.stdin, output: out });
  try {
    const which = withChanges.length === 1 ? `environment ${withChanges[0]}` : `${withChanges.length} environments (${withChanges.join(', ')})`;
    const deleting = plans.map((p) => (p.value ? massDeletionClause(p.value) : '')).join('');
    const answer = await rl.question(`\nDo you want to apply these changes to ${which}${deleting}? Only 'yes' will be accepted: `);
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
