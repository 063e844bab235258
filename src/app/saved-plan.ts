// Applying a saved plan (`agentsync apply plan.json`, the library's applySavedPlan). The file is a
// claim about what will happen, and anyone can edit it and recompute its digest (an unkeyed
// sha256), so nothing in it is trusted on its own word:
// - it must come from the same manifest and state (the staleness checks of io/files/plan-file.ts);
// - the plan recomputed from that manifest, that state and the file's refresh must be exactly the
//   changes the file lists, which are what `show` displays; any difference refuses the file;
// - a plan with a conflict (a create whose name the server already has) is refused, as apply
//   refuses it without a file.
// So applying a file does what `show` shows, or nothing.
import type { JsonValue } from '../core/api-types.js';
import { jsonEqual } from '../core/json-equal.js';
import { UserError } from '../core/errors.js';
import type { State } from '../core/state.js';
import { assertPlanCurrent, planChecksOf, type PlanBasis, type PlanFile } from '../io/files/plan-file.js';
import { newSalt } from '../io/state/digest.js';
import { planToJson } from '../render/plan-json.js';
import { planBasisOf, replanSaved, type ComputedPlan } from './compute-plan.js';
import type { LoadedEnvironment } from './load.js';

/**
 * Before the lock: the file was made from this manifest (and its variables) and this state, for
 * this target. `maskedBaseUrl` is the target as plans name it.
 */
export async function assertSavedPlanCurrent(loaded: LoadedEnvironment, saved: PlanFile, path: string, maskedBaseUrl: string, varOverrides?: Readonly<Record<string, unknown>>): Promise<void> {
  const state = await loaded.store.read(loaded.target);
  // No state and no salt in the plan: the plan came from a state that is gone, which
  // assertPlanCurrent reports; any salt will do for the digest it will not get to compare.
  const salt = state?.salt ?? saved.savedPlan.basis.salt ?? newSalt();
  assertPlanCurrent(saved, { ...planBasisOf(loaded.desired, state, salt), checks: planChecksOf(loaded.text, maskedBaseUrl, varOverrides, { desired: loaded.desired, salt }) }, path);
}

/**
 * Under the lock: the plan the file stands for, recomputed from the manifest, the locked state and
 * the file's refresh (the server is not read again), refused unless it is the file's own.
 */
export function planFromSavedFile(loaded: LoadedEnvironment, state: State, saved: PlanFile, path: string): ComputedPlan {
  assertSessionMatches(state, saved.savedPlan.basis, path);
  const computed = replanSaved(loaded.desired, state, saved.savedPlan.refresh ?? { refreshed: false, overlay: {}, adopt: {} });
  const conflicted = conflictedAddresses(saved);
  if (conflicted.length > 0) {
    throw new UserError(
      'conflict',
      `saved plan ${path} holds a plan apply refuses: ${conflicted.join(', ')} already exist on the server but not in the state. Nothing was changed; adopt them with \`agentsync import\`, then plan again`,
    );
  }
  // applyPlan refuses any conflict the recomputed plan still has, as without a file.
  const difference = firstDifference(saved, planToJson(computed.plan));
  if (difference !== undefined) {
    throw new UserError(
      'plan_invalid',
      `saved plan ${path} does not match what applying it would do (${difference}); it was edited, or made by another version of agentsync. Nothing was changed; run \`agentsync plan --out ${path}\` again`,
    );
  }
  return computed;
}

/** The lock was taken after the staleness check; make sure nobody applied in between. */
function assertSessionMatches(state: State, basis: PlanBasis, path: string): void {
  const fresh = basis.lineage === null ? Object.keys(state.resources).length === 0 && state.serial === 0 : state.lineage === basis.lineage && state.serial === basis.serial;
  if (!fresh) throw new UserError('plan_stale', `saved plan ${path} is stale: the state changed while waiting for the lock; run \`agentsync plan --out ${path}\` again`);
}

/** The creates the file itself marks as conflicts: `plan --out` no longer saves such a plan, but an older or edited file may hold one. */
function conflictedAddresses(saved: PlanFile): string[] {
  const changes = Array.isArray(saved.changes) ? (saved.changes as unknown[]) : [];
  return changes.flatMap((c) => {
    const change = typeof c === 'object' && c !== null ? (c as { address?: unknown; conflict?: unknown }) : {};
    return change.conflict !== undefined && typeof change.address === 'string' ? [change.address] : [];
  });
}

/**
 * What the file shows against what would run, compared as JSON data (jsonEqual, not a generic deep
 * equal: the file is untrusted, and a key such as `valueOf` must stay data): the first address (or
 * part) that differs.
 */
function firstDifference(saved: PlanFile, recomputed: object): string | undefined {
  const equal = (a: unknown, b: unknown): boolean => jsonEqual(a as JsonValue | undefined, b as JsonValue | undefined);
  const now = JSON.parse(JSON.stringify(recomputed)) as Record<string, unknown>;
  for (const part of ['environment', 'appId', 'region', 'prune', 'moves'] as const) {
    if (!equal(saved[part], now[part])) return `its ${part} differs`;
  }
  const shown = Array.isArray(saved.changes) ? (saved.changes as unknown[]) : [];
  const running = Array.isArray(now.changes) ? (now.changes as unknown[]) : [];
  const addressOf = (change: unknown): string =>
    typeof change === 'object' && change !== null && typeof (change as { address?: unknown }).address === 'string' ? (change as { address: string }).address : '?';
  for (let i = 0; i < Math.max(shown.length, running.length); i++) {
    if (!equal(shown[i], running[i])) return `the change to ${addressOf(running[i] ?? shown[i])} differs`;
  }
  return undefined;
}
