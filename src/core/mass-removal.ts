// A plan that takes most of what the state manages out of it deserves a second look: it is what a
// wrong manifest looks like (an agents.yaml beside the agents/ folder that was the manifest, a
// filter that matched nothing), and with --prune it deletes on the server what no undo brings back.
// Pure: the counts come from the plan alone, so a saved plan and `show` see the same warning.
// docs/spec/plan-and-apply.md#mass-deletion.
import { UserError } from './errors.js';
import type { Plan } from './plan.js';
import { countOf } from './plural.js';

/** Fewer removals than this never warn: a small state losing two entries is ordinary. */
export const MASS_REMOVAL_MINIMUM = 3;

export interface MassRemoval {
  /** Resources the plan takes out of the state: deleted on the server, or forgotten. */
  removed: number;
  /** Of those, the ones deleted on the server (`--prune`). */
  deleted: number;
  /** The resources the state manages that the plan covers. */
  managed: number;
}

/**
 * The plan's removals when they are more than half of the managed resources and at least
 * MASS_REMOVAL_MINIMUM; undefined otherwise. A resource already gone from the server is not
 * counted: dropping it from the state loses nothing.
 */
export function massRemovalOf(plan: Pick<Plan, 'changes' | 'unreadable'>): MassRemoval | undefined {
  let removed = 0;
  let deleted = 0;
  // Every change but a create is a state entry; so is a resource the refresh could not read.
  let managed = plan.unreadable?.length ?? 0;
  for (const change of plan.changes) {
    if (change.action === 'create') continue;
    managed++;
    if ((change.action === 'delete' || change.action === 'forget') && change.gone !== true) {
      removed++;
      if (change.action === 'delete') deleted++;
    }
  }
  return isMass(removed, managed) ? { removed, deleted, managed } : undefined;
}

/** Whether apply must be told it is meant: the deletions on the server alone are a mass removal. */
export function isMassDeletion(mass: MassRemoval | undefined): mass is MassRemoval {
  return mass !== undefined && isMass(mass.deleted, mass.managed);
}

function isMass(count: number, managed: number): boolean {
  return count >= MASS_REMOVAL_MINIMUM && count * 2 > managed;
}

/** The one sentence of the warning: how many, of how many, and the likely cause. */
export function massRemovalText(mass: MassRemoval, environment: string): string {
  const of = `${mass.removed} of the ${countOf(mass.managed, 'resource')} agentsync manages in environment "${environment}"`;
  const forgotten = mass.removed - mass.deleted;
  const what =
    forgotten === 0
      ? `deletes ${of} from the server`
      : mass.deleted === 0
        ? `forgets ${of} (they stay on the server, unmanaged)`
        : `removes ${of} (${mass.deleted} deleted from the server, ${forgotten} forgotten)`;
  return `this plan ${what}; check that this is the right manifest`;
}

/**
 * An apply that would delete most of what it manages, without being told it is meant. `how` names
 * the way to say so: `--allow-mass-delete` on the command line, `allowMassDelete` in the library.
 */
export function massDeletionRefusal(mass: MassRemoval, environment: string, how: string): UserError {
  return new UserError(
    'refused',
    `apply would delete ${mass.deleted} of the ${countOf(mass.managed, 'resource')} agentsync manages in environment "${environment}" from the server; nothing was changed. Check that this is the right manifest, and pass ${how} if the deletions are meant`,
    { massRemoval: { ...mass } },
  );
}
