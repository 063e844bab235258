// The one rule every backend applies when `state migrate` copies into it: a destination that
// already manages something is never replaced silently.
import { UserError } from '../../core/errors.js';
import type { State } from '../../core/state.js';

export function assertCopyAllowed(existing: State | null, location: string, force: boolean): void {
  if (existing === null || force) return;
  const resources = Object.keys(existing.resources).length;
  const pending = Object.keys(existing.pending).length;
  if (resources + pending === 0) return;
  const what = [plural(resources, 'resource'), ...(pending > 0 ? [plural(pending, 'pending create')] : [])].join(' and ');
  throw new UserError('refused', `${location} already holds a state with ${what} (lineage ${existing.lineage}, serial ${existing.serial}); pass --force to replace it`, {
    state: location,
  });
}

function plural(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? '' : 's'}`;
}
