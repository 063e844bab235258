// `agentsync apply`: manifest + state → plan → confirmation → execute → summary. The plan is
// computed under the state lock, so what is shown is what runs; a saved plan is accepted only
// while its manifest and state are unchanged, in which case recomputing it gives the same plan.
import { UserError } from '../core/errors.js';
import type { ApplyResult } from '../core/apply-types.js';
import type { Plan } from '../core/plan.js';
import { planTarget } from '../core/plan-target.js';
import { applyPlan } from '../app/apply.js';
import { applyVerdict } from '../app/apply-verdict.js';
import { ownConnection } from '../app/connection.js';
import { computePlan } from '../app/compute-plan.js';
import type { SavedApply, SavedPlan } from '../app/apply-saved.js';
import { applyResultDocument, applyView, type ApplyView } from '../render/apply-view.js';
import { loadManifestAndStore, type LoadedManifest } from './pipeline.js';
import { ALLOW_MASS_DELETE, massDeletionClause, printWarnings } from './render-plan.js';
import { useColor } from './options.js';
import type { ApplyOptions } from './apply-options.js';
import { parseApply } from './apply-request.js';
import { connectApi, type ApiConnection } from './api-connect.js';
import { refuseScopeWithPlanFile } from './scope-options.js';
import { watchInterrupts, type InterruptWatch } from './interrupt.js';
import type { Outcome } from './exit-codes.js';
import type { CliIo, OutputStream } from './cli-io.js';

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
  const request = parseApply(opts);
  const saved = planfile ? await (await import('../app/apply-saved.js')).readSavedPlan(planfile, io.cwd) : undefined;
  if (saved && opts.env === undefined && saved.environment !== undefined) opts.env = saved.environment;

  const loaded = await loadManifestAndStore(opts, io);
  printWarnings(io, loaded.warnings, opts);
  // Everything that can refuse does so before the lock is taken and before any call.
  const connection = connectApi(loaded.desired.environment, io.env, request);
  // A saved plan was reviewed when it was made: like Terraform, applying it does not ask again.
  const ask = !request.autoApprove && !saved;
  if (ask && io.stdin.isTTY !== true) {
    throw new UserError('refused', 'stdin is not a terminal, so apply cannot ask for confirmation; pass --auto-approve to apply without asking');
  }
  const replay = saved ? await replaySaved(loaded, saved, opts, io) : undefined;
  const view = applyView(request.view, { stdout: io.stdout, stderr: io.stderr, color: useColor(opts, io.stdout, io.env) });
  const outcome = await applyPlan({
    desired: loaded.desired,
    store: loaded.store,
    target: loaded.target,
    lockTimeoutMs: request.lockWaitMs,
    ...(replay?.salt ? { salt: replay.salt } : {}),
    connect: () => ownConnection(connection.open()),
    plan: async (state, client) => {
      // A saved plan is applied as it was made: its refresh is in the file, not read again.
      const computed = replay ? replay.plan(state) : await computePlan(loaded.desired, state, { client, scope: request.scope });
      computed.plan.target = planTarget(loaded.desired.environment, io.env);
      return computed;
    },
    concurrency: request.concurrency,
    // The question names the count, so answering it allows a mass deletion; a saved plan or --auto-approve needs the flag.
    allowMassDelete: request.allowMassDelete || ask,
    massDeleteFlag: ALLOW_MASS_DELETE,
    onPlanned: (plan) => view.planned(plan, ask),
    ...(ask ? { approve: (plan: Plan) => confirm(io, view.prompt, plan) } : {}),
    startExecution: (plan) => {
      interrupts.enterGracefulPhase();
      return view.progress(plan);
    },
    stop: interrupts.stop,
    cancel: interrupts.cancel,
  });
  // A "no" at the question: Terraform's words, and nothing was sent.
  if (outcome.kind === 'cancelled') return 'cancelled';
  if (outcome.kind === 'no-changes') view.noChanges(outcome.plan, outcome.result);
  else report(outcome.plan, outcome.result, view);
  // report() threw if anything failed; an interrupted apply does not go on to wait.
  if (request.waitTimeoutSeconds !== undefined && !interrupts.received()) await waitForWebsites(loaded, connection, opts, interrupts, io);
  return 'done';
}

/** A saved plan, checked against the manifest and the state it was made from. */
async function replaySaved(loaded: LoadedManifest, saved: SavedPlan, opts: ApplyOptions, io: CliIo): Promise<SavedApply> {
  refuseScopeWithPlanFile(opts, saved.path);
  const { prepareSavedApply } = await import('../app/apply-saved.js');
  return prepareSavedApply(loaded, saved, { maskedBaseUrl: planTarget(loaded.desired.environment, io.env).baseUrl, ...(loaded.varOverrides ? { varOverrides: loaded.varOverrides } : {}) });
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

/** The summary, then the exit: a failure is an error whose JSON (with --json) carries the result. */
function report(plan: Plan, result: ApplyResult, view: ApplyView<OutputStream>): void {
  view.summary(result);
  // runApply exits 130/143 once the lock is released; --json still gets the result.
  if (result.interrupted) return view.result(plan, result);
  const verdict = applyVerdict(result);
  if (verdict !== undefined) {
    // The notify warning was printed above the summary; point at it.
    const message = verdict.code === 'api_error' ? `${verdict.message} (see the warning above)` : verdict.message;
    // Its details are printed only in the {"error"} document of a --json run.
    throw new UserError(verdict.code, message, { result: applyResultDocument(plan, result) });
  }
  view.result(plan, result);
}
