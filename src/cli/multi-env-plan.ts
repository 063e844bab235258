// `agentsync plan` over several environments (docs/spec/state.md#many-environments): each
// environment is planned with its own state and its own client, `--parallel` at a time; one that
// fails does not stop the others. Text output is one section per environment and a closing table;
// markdown and JSON are one document for all of them.
import { scopeOf } from './scope-options.js';
import type { PlanScope } from '../core/plan-scope.js';
import { UserError } from '../core/errors.js';
import { conflictsOf, hasChanges, type Plan } from '../core/plan.js';
import { renderMultiPlanJson, renderPlanTable, type EnvironmentOutcome } from '../render/multi-env.js';
import { renderMultiPlanMarkdown } from '../render/multi-env-markdown.js';
import { connectApi } from './api-connect.js';
import { parseFormat, type Format, type PlanOptions } from './plan-options.js';
import { createLimiter, createMultiOutput, failureOf, loadEnvironments, parseParallel, type EnvironmentOutput, type EnvironmentRun } from './multi-env.js';
import { responseTimeoutMs, useColor } from './options.js';
import { ownConnection } from '../app/connection.js';
import { planEnvironment } from '../app/plan.js';
import { planTarget } from '../core/plan-target.js';
import { formatPlan } from './render-plan.js';
import type { Outcome } from './exit-codes.js';
import type { CliIo } from './cli-io.js';

export async function runPlanMany(opts: PlanOptions, io: CliIo, runOne: (environment: string) => Promise<Outcome>): Promise<Outcome> {
  const format: Format = opts.json ? 'json' : parseFormat(opts.format ?? 'text');
  const parallel = parseParallel(opts.parallel);
  const color = useColor(opts, io.stdout, io.env);
  const output = createMultiOutput({ stream: io.stdout, stderr: io.stderr, color });
  const loaded = await loadEnvironments(opts, io, (environment, message) => warn(environment, message));
  if (loaded.single !== undefined) return runOne(loaded.single);
  if (opts.out !== undefined) {
    throw new UserError('usage', '--out saves the plan of one environment; with several, save one plan per environment (agentsync plan -e NAME --out FILE)');
  }
  const outputs = new Map(loaded.runs.map((run) => [run.info.name, output.forEnvironment(run.info)]));
  function warn(environment: string, message: string): void {
    outputs.get(environment)?.warning(message);
  }

  const limit = createLimiter(parallel);
  // Plans are made in parallel but shown in manifest order: each section waits for the ones before it.
  const inOrder = orderedSections(loaded.runs.length);
  const outcomes = await Promise.all(
    loaded.runs.map((run, index) =>
      limit(async () => {
        const output = outputs.get(run.info.name)!;
        const outcome = await planOne(run, { offline: opts.offline === true, scope: scopeOf(opts), timeoutMs: responseTimeoutMs(opts.timeout) }, output, io);
        const text = format === 'text' && outcome.value ? formatPlan(outcome.value, 'text', { color }, io) : undefined;
        inOrder.release(index, text === undefined ? undefined : () => output.section(text));
        return outcome;
      }),
    ),
  );

  if (format === 'json') io.stdout.write(renderMultiPlanJson(outcomes));
  else if (format === 'markdown') io.stdout.write(renderMultiPlanMarkdown(outcomes));
  else output.print(`\n${renderPlanTable(outcomes, { color })}`);

  if (outcomes.some((o) => o.failure)) return 'failed';
  // A plan apply would refuse fails the run, as for one environment (commands/plan.ts).
  const conflicts = outcomes.flatMap((o) => (o.value ? conflictsOf(o.value) : []));
  if (conflicts.length > 0) return { ending: 'failed', stderr: (await import('../render/plan-conflicts.js')).conflictRefusalLine(conflicts) };
  if (outcomes.some((o) => (o.value?.unreadable?.length ?? 0) > 0)) return 'failed';
  return opts.detailedExitcode && outcomes.some((o) => o.value && hasChanges(o.value)) ? 'changes' : 'done';
}

interface PlanSettings {
  offline: boolean;
  /** --timeout, in milliseconds. */
  timeoutMs: number;
  scope: PlanScope;
}

/** One environment's plan, as plan does for one; any error is kept as this environment's outcome. */
async function planOne(run: EnvironmentRun, settings: PlanSettings, out: EnvironmentOutput, io: CliIo): Promise<EnvironmentOutcome<Plan>> {
  try {
    const connection = settings.offline ? undefined : connectApi(run.desired.environment, io.env, { concurrency: 2, retries: 5, timeoutMs: settings.timeoutMs }, { offlineHint: true });
    const { plan } = await planEnvironment({
      desired: run.desired,
      store: run.store,
      target: run.target,
      ...(connection ? { connect: () => ownConnection(connection.open()) } : {}),
      scope: settings.scope,
    });
    // Each environment's plan names where it applies, as a plan of one environment does.
    plan.target = planTarget(run.desired.environment, io.env);
    return { environment: run.info, value: plan };
  } catch (err) {
    const failure = failureOf(err, io);
    out.error(failure.message);
    return { environment: run.info, failure };
  }
}

/**
 * Shows finished work in a fixed order: slot i's output runs once every slot before it has been
 * released (with output, or without when that environment failed or prints nothing).
 */
function orderedSections(count: number): { release(index: number, show: (() => void) | undefined): void } {
  const released: ((() => void) | null | undefined)[] = new Array<(() => void) | null | undefined>(count).fill(undefined);
  let next = 0;
  return {
    release(index, show) {
      released[index] = show ?? null;
      while (next < count && released[next] !== undefined) {
        released[next]?.();
        next++;
      }
    },
  };
}
