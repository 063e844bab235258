// `agentsync apply`: manifest + state → plan → confirmation → execute → summary. The plan is
// computed under the state lock, so what is shown is what runs; a saved plan is accepted only
// while its manifest and state are unchanged, in which case recomputing it gives the same plan.
import { UserError } from '../core/errors.js';
import type { ApplyResult } from '../core/apply-types.js';
import { changeCount, type Plan } from '../core/plan.js';
import { applyPlan, type ExecutionWatch } from '../app/apply.js';
import { applyVerdict } from '../app/apply-verdict.js';
import { ownConnection } from '../app/connection.js';
import { computePlan } from '../app/compute-plan.js';
import type { SavedApply } from '../app/apply-saved.js';
import { createProgress } from '../render/progress.js';
import { applyResultToJson, renderApplySummary } from '../render/apply-summary.js';
import { massRemovalJson } from '../render/mass-removal.js';
import { loadManifestAndStore, type LoadedManifest } from './pipeline.js';
import { ALLOW_MASS_DELETE, formatPlan, massDeletionClause, printMassRemovalWarning, printWarnings } from './render-plan.js';
import { lockTimeoutMs, parseCount, responseTimeoutMs, useColor } from './options.js';
import type { ApplyOptions } from './apply-options.js';
import { connectApi, type ApiConnection } from './api-connect.js';
import { refuseScopeWithPlanFile, scopeOf } from './scope-options.js';
import { planTarget } from '../core/plan-target.js';
import { watchInterrupts, type InterruptWatch } from './interrupt.js';
import type { Outcome } from './exit-codes.js';
import type { CliIo, OutputStream } from './cli-io.js';
import { renderNoChangesJson } from '../render/command-json.js';
import { jsonDocument } from '../render/json-document.js';

export async function runApply(planfile: string | undefined, opts: ApplyOptions, io: CliIo): Promise<Outcome> {
  const interrupts = watchInterrupts(io, { say: (text) => io.stderr.write(text) });
  let ended: Outcome;
  try {
    // A signal before any change ends the run at once, whatever it was waiting for.
    ended = await Promise.race([applyWatched(planfile, opts, io, interrupts), interrupts.halted]);
  } finally {
    interrupts.dispose();
  }
  // The summary was printed; a stopped apply exits as the shell expects (130 or 143).
  return ended === 'done' ? (interrupts.received() ?? 'done') : ended;
}

async function applyWatched(planfile: string | undefined, opts: ApplyOptions, io: CliIo, interrupts: InterruptWatch): Promise<Outcome> {
  const concurrency = parseCount(opts.concurrency, '--concurrency', 1, 256);
  const retries = parseCount(opts.retries, '--retries', 0, 100);
  const timeoutMs = responseTimeoutMs(opts.timeout);
  const lockWaitMs = lockTimeoutMs(opts.lockTimeout);
  if (opts.wait === true) (await import('./apply-wait.js')).waitTimeoutSeconds(opts); // a bad value refuses before any call
  const saved = planfile ? await (await import('../app/apply-saved.js')).readSavedPlan(planfile, io.cwd) : undefined;
  if (saved && opts.env === undefined && saved.environment !== undefined) opts.env = saved.environment;

  const loaded = await loadManifestAndStore(opts, io);
  printWarnings(io, loaded.warnings, opts);
  // Everything that can refuse does so before the lock is taken and before any call.
  const connection = connectApi(loaded.desired.environment, io.env, { concurrency, retries, timeoutMs });
  // A saved plan was reviewed when it was made: like Terraform, applying it does not ask again.
  const ask = !opts.autoApprove && !saved;
  if (ask && io.stdin.isTTY !== true) {
    throw new UserError('refused', 'stdin is not a terminal, so apply cannot ask for confirmation; pass --auto-approve to apply without asking');
  }
  let replay: SavedApply | undefined;
  if (saved) {
    refuseScopeWithPlanFile(opts, saved.path);
    const { prepareSavedApply } = await import('../app/apply-saved.js');
    replay = await prepareSavedApply(loaded, saved, { maskedBaseUrl: planTarget(loaded.desired.environment, io.env).baseUrl, ...(loaded.varOverrides ? { varOverrides: loaded.varOverrides } : {}) });
  }

  const json = opts.json === true;
  const { stop, cancel } = interrupts;
  const outcome = await applyPlan({
    desired: loaded.desired,
    store: loaded.store,
    target: loaded.target,
    lockTimeoutMs: lockWaitMs,
    ...(replay?.salt ? { salt: replay.salt } : {}),
    connect: () => ownConnection(connection.open()),
    plan: async (state, client) => {
      // A saved plan is applied as it was made: its refresh is in the file, not read again.
      const computed = replay ? replay.plan(state) : await computePlan(loaded.desired, state, { client, scope: scopeOf(opts) });
      computed.plan.target = planTarget(loaded.desired.environment, io.env);
      return computed;
    },
    concurrency,
    // The question names the count, so answering it allows a mass deletion; a saved plan or --auto-approve needs the flag.
    allowMassDelete: opts.allowMassDelete === true || ask,
    massDeleteFlag: ALLOW_MASS_DELETE,
    // With --json, stdout carries only the result; a plan to confirm is shown on stderr.
    onPlanned: (plan) => {
      if (!json) io.stdout.write(formatPlan(plan, 'text', opts, io));
      else if (ask) io.stderr.write(formatPlan(plan, 'text', { color: false }, io));
      else printMassRemovalWarning(plan, io);
    },
    ...(ask ? { approve: (plan: Plan) => confirm(io, json ? io.stderr : io.stdout, plan) } : {}),
    startExecution: (plan) => {
      interrupts.enterGracefulPhase();
      return showProgress(plan, json, opts, io);
    },
    stop,
    cancel,
  });
  // A "no" at the question: Terraform's words, and nothing was sent.
  if (outcome.kind === 'cancelled') return 'cancelled';
  if (outcome.kind === 'no-changes') {
    // The plan's own last line, "No changes. …", says it all; a line of zero counts would only repeat it.
    if (json) io.stdout.write(renderNoChangesJson(outcome.plan.environment, outcome.result.counts));
    if (opts.wait === true) await waitForWebsites(loaded, connection, opts, interrupts, io);
    return 'done';
  }
  report(outcome.result, json, opts, io, massRemovalJson(outcome.plan));
  // report() threw if anything failed; an interrupted apply does not go on to wait.
  if (opts.wait === true && !interrupts.received()) await waitForWebsites(loaded, connection, opts, interrupts, io);
  return 'done';
}

/**
 * `--wait` (docs/spec/knowledge-base.md#waiting-for-indexing): after the apply, with the state lock
 * already released (indexing can take many minutes, and nothing here writes the state), poll the
 * websites the state now records.
 */
async function waitForWebsites(loaded: LoadedManifest, connection: ApiConnection, opts: ApplyOptions, interrupts: InterruptWatch, io: CliIo): Promise<void> {
  const state = await loaded.store.read(loaded.target);
  if (state === null) return;
  const { waitAfterApply } = await import('./apply-wait.js');
  const client = await connection.open();
  try {
    await waitAfterApply(loaded, state, client, opts, io, interrupts.stop);
  } finally {
    await client.close();
  }
}

/** Asks on the terminal. Ctrl-C or Ctrl-D at the question is a "no", as any answer but yes is. */
async function confirm(io: CliIo, output: OutputStream, plan: Plan): Promise<boolean> {
  const { createInterface } = await import('node:readline/promises');
  const rl = createInterface({ input: io.stdin, output });
  try {
    output.write('\n');
    const answer = await rl.question(`Do you want to apply these changes${massDeletionClause(plan)}? Only 'yes' will be accepted: `);
    return answer.trim() === 'yes';
  } catch (err) {
    if ((err as { code?: unknown }).code !== 'ABORT_ERR') throw err;
    output.write('\n');
    return false;
  } finally {
    rl.close();
  }
}

/** The progress of the changes as they run; with --json it goes to stderr, as stdout carries only the result. */
function showProgress(plan: Plan, json: boolean, opts: ApplyOptions, io: CliIo): ExecutionWatch {
  const out = json ? io.stderr : io.stdout;
  const progress = createProgress({
    tty: out.isTTY === true,
    color: json ? false : useColor(opts, io.stdout, io.env),
    total: changeCount(plan.summary),
    write: (text) => out.write(text),
    ...(out.isTTY && out.columns !== undefined ? { columns: out.columns } : {}),
  });
  if (!json) io.stdout.write('\n');
  return { onEvent: progress.onEvent, finish: () => progress.finish() };
}

/** The summary, then the exit: a failure is an error whose JSON (with --json) carries the result. */
function report(result: ApplyResult, json: boolean, opts: ApplyOptions, io: CliIo, extra: Record<string, unknown>): void {
  const asJson = { ...applyResultToJson(result), ...extra };
  if (!json) io.stdout.write('\n' + renderApplySummary(result, { color: useColor(opts, io.stdout, io.env) }));
  if (result.interrupted) {
    // runApply exits 130/143 once the lock is released; --json still gets the result.
    if (json) io.stdout.write(jsonDocument(asJson));
    return;
  }
  const verdict = applyVerdict(result);
  if (verdict !== undefined) {
    // The notify warning was printed above the summary; point at it.
    const message = verdict.code === 'api_error' ? `${verdict.message} (see the warning above)` : verdict.message;
    throw new UserError(verdict.code, message, json ? { result: asJson } : {});
  }
  if (json) io.stdout.write(jsonDocument(asJson));
}
