// The line under a plan that apply would refuse (CONTRACT §8.2, §12): plan exits 1 with it, even
// with --detailed-exitcode, so a pull request's check turns red instead of passing with "changes".
import type { CreateChange } from '../core/plan.js';
import { printableLine } from './plan-fields.js';

export function conflictRefusalLine(conflicts: readonly CreateChange[]): string {
  const listed = conflicts.map((c) => `${c.address} (${c.conflict?.remoteId ?? ''})`).join(', ');
  const fix = conflicts.length === 1 ? `agentsync import ${conflicts[0]?.address ?? ''}` : 'agentsync import';
  const what = conflicts.length === 1 ? 'a resource to create already exists' : `${conflicts.length} resources to create already exist`;
  return printableLine(`Error: apply would refuse this plan: ${what} on the server but not in the state: ${listed}. Adopt ${conflicts.length === 1 ? 'it' : 'them'} with \`${fix}\`, then plan again.`) + '\n';
}
