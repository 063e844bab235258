// `agentsync apply`: manifest + state → plan → confirmation → execute → summary. The plan is
// computed under the state lock, so what is shown is what runs; a saved plan is accepted only
// while its manifest and state are unchanged, in which case recomputing it gives the same plan.
import { isUserError, UserError } from '../core/errors.js';
import { conflictRefusal } from '../core/conflict-refusal.js';
import { changeCount, hasChanges, type Plan } from '../core/plan.js';
import type { State } from '../core/state.js';
import type { ApiClient } from '../io/api/client.js';
import type { PlanFile } from '../io/files/plan-file.js';
import type { StateSession } from '../io/state/index.js';
import { newSalt } from '../io/state/digest.js';
import { computePlan, planBasisOf, replanSaved, type ComputedPlan } from '../app/compute-plan.js';
import { loadManifestAndStore, type LoadedManifest } from './pipeline.js';
import { formatPlan, printWarnings } from './render-plan.js';
import { lockTimeoutMs, useColor } from './options.js';
import type { ApplyOptions } from './apply-options.js';
import { connectApi, parseCount } from './api-connect.js';
import { refuseScopeWithPlanFile, scopeOf } from './scope-options.js';
import { planTarget } from './plan-target.js';
import { watchInterrupts, type InterruptWatch } from './interrupt.js';
import { ExitRequest } from './run.js';
import { countOf } from '../core/plural.js';

export async function runApply(planfile: string | undefined, opts: ApplyOptions): Promise<void> {
  const interrupts = watchInterrupts({ say: (text) => process.stderr.write(text) });
  try {
    await applyWatched(planfile, opts, interrupts);
  } finally {
    interrupts.dispose();
  }
  // The summary was printed; a stopped apply exits as the shell expects (130 or 143).
  if (interrupts.received()) throw new ExitRequest(interrupts.exitCode());
}

async function applyWatched(planfile: string | undefined, opts: ApplyOptions, interrupts: InterruptWatch): Promise<void> {
  const concurrency = parseCount(opts.concurrency, '--concurrency', 1, 256);
  const retries = parseCount(opts.retries, '--retries', 0, 100);
  const timeoutMs = parseCount(opts.timeout, '--timeout', 1, 3600) * 1000;
  const lockWaitMs = lockTimeoutMs(opts.lockTimeout);
  if (opts.wait === true) (await import('./apply-wait.js')).waitTimeoutSeconds(opts); // a bad value refuses before any call
  const saved = planfile ? await (await import('../io/files/plan-file.js')).readPlanFile(planfile) : undefined;
  if (saved && opts.env === undefined && typeof saved.environment === 'string') opts.env = saved.environment;

  const loaded = await loadManifestAndStore(opts);
  printWarnings(loaded.warnings, opts);
  // Everything that can refuse does so before the lock is taken and before any call.
  const connection = connectApi(loaded.desired.environment, { concurrency, retries, timeoutMs });
  // A saved plan was reviewed when it was made: like Terraform, applying it does not ask again.
  const ask = !opts.autoApprove && !saved;
  if (ask && process.stdin.isTTY !== true) {
    throw new UserError('refused', 'stdin is not a terminal, so apply cannot ask for confirmation; pass --auto-approve to apply without asking');
  }
  if (saved && planfile) {
    refuseScopeWithPlanFile(opts, planfile);
    await checkSavedPlan(loaded, saved, planfile);
  }

  const session = await loaded.store.open(loaded.target, { lockTimeoutMs: lockWaitMs, ...(saved?.savedPlan.basis.salt ? { salt: saved.savedPlan.basis.salt } : {}) });
  let client: ApiClient | undefined;
  let failure: unknown;
  try {
    client = await connection.open();
    let computed: ComputedPlan;
    if (saved && planfile) {
      assertSessionMatches(session.state, saved.savedPlan.basis, planfile);
      // A saved plan is applied as it was made: its refresh is in the file, not read again.
      computed = replanSaved(loaded.desired, session.state, saved.savedPlan.refresh ?? { refreshed: false, overlay: {}, adopt: {} });
    } else {
      computed = await computePlan(loaded.desired, session.state, { client, scope: scopeOf(opts) });
    }
    computed.plan.target = planTarget(loaded.desired.environment);
    const json = opts.json === true;
    // With --json, stdout carries only the result; a plan to confirm is shown on stderr.
    if (!json) process.stdout.write(formatPlan(computed.plan, 'text', opts));
    else if (ask) process.stderr.write(formatPlan(computed.plan, 'text', { color: false }));
    refuseConflicts(computed.plan);
    if (!hasChanges(computed.plan)) {
      await recordRefresh(session, computed);
      // Same last line as any successful apply, so scripts can rely on it.
      const none = { created: 0, updated: 0, deleted: 0, forgotten: 0 };
      if (json) process.stdout.write(JSON.stringify({ ok: true, environment: computed.plan.environment, summary: none }) + '\n');
      else process.stdout.write(`\n${(await import('../render/apply-summary.js')).applyCompleteLine(none, computed.plan.prune)}\n`);
      if (opts.wait === true) await (await import('./apply-wait.js')).waitAfterApply(loaded, session, client, opts, interrupts.stop);
      return;
    }
    if (ask && !(await confirm(json ? process.stderr : process.stdout))) cancelled(json);
    interrupts.enterGracefulPhase();
    await recordRefresh(session, computed);
    await execute(loaded, computed, session, { concurrency, json, opts, client, interrupts });
    if (opts.wait === true && !interrupts.received()) await (await import('./apply-wait.js')).waitAfterApply(loaded, session, client, opts, interrupts.stop);
  } catch (err) {
    failure = err;
    throw err;
  } finally {
    await client?.close();
    // The lock is released either way. When the run already failed (a full disk, say), the
    // state's last write failing again is that same failure, and must not hide its summary.
    await session.close().catch((err: unknown) => {
      if (failure === undefined) throw err;
    });
  }
}

/** Writes the journal's results into the state now, so the summary can say whether that worked. */
async function commitForSummary(session: StateSession): Promise<string | undefined> {
  try {
    await session.commit();
    return undefined;
  } catch (err) {
    if (!isUserError(err)) throw err;
    return err.message;
  }
}

/**
 * What the refresh learned about resources the plan leaves alone (they drifted, but to what the
 * manifest asks for) is kept, as Terraform keeps its refreshed state: otherwise the same drift
 * would be reported on every run. Changed and re-created resources get their record from the call.
 */
async function recordRefresh(session: StateSession, computed: ComputedPlan): Promise<void> {
  for (const change of computed.plan.changes) {
    if (change.action !== 'no-op') continue;
    const refreshed = computed.overlay[change.address];
    if (refreshed) await session.record({ op: 'applied', address: change.address, type: refreshed.type, remoteId: refreshed.remoteId, spec: refreshed.spec, appliedAt: refreshed.appliedAt });
  }
}

/** CONTRACT §8.2: nothing is sent while a create would make a second copy of something on the server. */
export function refuseConflicts(plan: Plan): void {
  const refusal = conflictRefusal(plan);
  if (refusal !== undefined) throw refusal;
}


async function checkSavedPlan(loaded: LoadedManifest, saved: PlanFile, planfile: string): Promise<void> {
  const { assertPlanCurrent, planChecksOf } = await import('../io/files/plan-file.js');
  const state = await loaded.store.read(loaded.target);
  // No state and no salt in the plan: the plan came from a state that is gone, which
  // assertPlanCurrent reports; any salt will do for the digest it will not get to compare.
  const salt = state?.salt ?? saved.savedPlan.basis.salt ?? newSalt();
  assertPlanCurrent(saved, { ...planBasisOf(loaded.desired, state, salt), checks: planChecksOf(loaded.text, planTarget(loaded.desired.environment).baseUrl) }, planfile);
}

/** The lock was taken after the staleness check; make sure nobody applied in between. */
function assertSessionMatches(state: State, basis: { lineage: string | null; serial: number }, planfile: string): void {
  const fresh = basis.lineage === null ? Object.keys(state.resources).length === 0 && state.serial === 0 : state.lineage === basis.lineage && state.serial === basis.serial;
  if (!fresh) throw new UserError('plan_stale', `saved plan ${planfile} is stale: the state changed while waiting for the lock; run \`agentsync plan --out ${planfile}\` again`);
}

/** Asks on the terminal. Ctrl-C or Ctrl-D at the question is a "no", as any answer but yes is. */
async function confirm(output: NodeJS.WritableStream): Promise<boolean> {
  const { createInterface } = await import('node:readline/promises');
  const rl = createInterface({ input: process.stdin, output });
  try {
    output.write('\n');
    const answer = await rl.question("Do you want to apply these changes? Only 'yes' will be accepted: ");
    return answer.trim() === 'yes';
  } catch (err) {
    if ((err as { code?: unknown }).code !== 'ABORT_ERR') throw err;
    output.write('\n');
    return false;
  } finally {
    rl.close();
  }
}

/** Terraform's words for a "no": one line, exit 1, and nothing was sent. */
function cancelled(json: boolean): never {
  if (json) process.stdout.write(JSON.stringify({ error: { code: 'refused', message: 'Apply cancelled.' } }) + '\n');
  process.stderr.write('Apply cancelled.\n');
  throw new ExitRequest(1);
}

interface ExecuteContext {
  concurrency: number;
  json: boolean;
  opts: ApplyOptions;
  client: ApiClient;
  interrupts: InterruptWatch;
}

async function execute(loaded: LoadedManifest, computed: ComputedPlan, session: StateSession, ctx: ExecuteContext): Promise<void> {
  const [{ executePlan }, { createProgress }, summary] = await Promise.all([
    import('../io/apply/executor.js'),
    import('../render/progress.js'),
    import('../render/apply-summary.js'),
  ]);
  const plan: Plan = computed.plan;
  // With --json, stdout carries only the result; progress goes to stderr.
  const out = ctx.json ? process.stderr : process.stdout;
  const progress = createProgress({
    tty: out.isTTY === true,
    color: ctx.json ? false : useColor(ctx.opts, process.stdout),
    total: changeCount(plan.summary),
    write: (text) => out.write(text),
    ...(out.isTTY ? { columns: (out as NodeJS.WriteStream).columns } : {}),
  });
  if (!ctx.json) process.stdout.write('\n');
  let result;
  try {
    const { stop, cancel } = ctx.interrupts;
    result = await executePlan({ plan, desired: loaded.desired, session, client: ctx.client, concurrency: ctx.concurrency, onEvent: progress.onEvent, stop, cancel });
  } finally {
    progress.finish();
  }
  if (!result.unrecorded) {
    const stateNotWritten = await commitForSummary(session);
    if (stateNotWritten !== undefined) result.stateNotWritten = stateNotWritten;
  }
  const asJson = summary.applyResultToJson(result);
  if (!ctx.json) process.stdout.write('\n' + summary.renderApplySummary(result, { color: useColor(ctx.opts, process.stdout) }));
  if (result.interrupted) {
    // runApply exits 130/143 once the lock is released; --json still gets the result.
    if (ctx.json) process.stdout.write(JSON.stringify(asJson, null, 2) + '\n');
    return;
  }
  if (result.unrecorded) {
    const made = result.unrecorded.items.length;
    const outcome =
      result.done.length + made === 0
        ? 'nothing was applied'
        : `${countOf(result.done.length, 'change was', 'changes were')} applied and recorded, ${countOf(made, 'change was', 'changes were')} applied but not recorded`;
    throw new UserError(
      'apply_failed',
      `apply stopped: ${result.unrecorded.reason}; ${outcome}, ${result.notAttempted.length} not attempted`,
      ctx.json ? { result: asJson } : {},
    );
  }
  if (result.stateNotWritten !== undefined) {
    throw new UserError(
      'apply_failed',
      `${countOf(result.done.length, 'change was', 'changes were')} applied and kept in the journal, but the state was not written: ${result.stateNotWritten}; the next run records them`,
      ctx.json ? { result: asJson } : {},
    );
  }
  if (!result.ok) {
    // With --json the error object (printed by run.ts) carries the result: one JSON document on stdout.
    throw new UserError(
      'apply_failed',
      `apply failed: ${result.failed.length} failed, ${result.notAttempted.length} not attempted; ${countOf(result.done.length, 'change was', 'changes were')} applied and recorded`,
      ctx.json ? { result: asJson } : {},
    );
  }
  if (result.notify.status === 'failed') {
    // Every change is applied and recorded, but a failed call is still an error (exit 1), so a
    // misconfigured notify target does not hide behind a green CI run.
    throw new UserError('api_error', 'the changes were applied and recorded, but the notify message was not sent (see the warning above)', ctx.json ? { result: asJson } : {});
  }
  if (ctx.json) process.stdout.write(JSON.stringify(asJson, null, 2) + '\n');
}
