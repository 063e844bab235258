// The line under a plan that apply would refuse (docs/spec/server.md#no-silent-duplicates,
// docs/spec/plan-and-apply.md#reviewing-changes): plan exits 1 with it, even with
// --detailed-exitcode, so a pull request's check turns red instead of passing with "changes". It
// gives the same fix apply's refusal gives (core/conflict-refusal.ts): for a key renamed without
// `moved:`, the `moved:` entry or `state mv`, never an import that would then fail.
import { stateMvCommand } from '../core/moved.js';
import type { CreateChange } from '../core/plan.js';
import { kindOf } from '../core/kinds/index.js';
import { escapeControl } from '../core/terminal-safe.js';
import { printableLine } from './plan-fields.js';

export function conflictRefusalLine(conflicts: readonly CreateChange[]): string {
  const renames = conflicts.flatMap((c) => (c.conflict?.movedFrom === undefined ? [] : [{ from: c.conflict.movedFrom, to: c.address }]));
  if (renames.length > 0) {
    const listed = renames.map((move) => `${move.to} has the name of ${move.from}, which leaves the manifest`).join('; ');
    const entries = renames.map((move) => `{ from: ${move.from}, to: ${move.to} }`).join(', ');
    const commands = renames.map(stateMvCommand).join(' && ');
    return (
      printableLine(
        `Error: apply would refuse this plan: ${listed}, so creating it would make a second one. If it was renamed, add \`moved: [${entries}]\` to the manifest, or run \`${commands}\`, then plan again.`,
      ) + '\n'
    );
  }
  // The ids are the server's: a line break or escape in one is shown, so the error stays one line.
  const listed = conflicts.map((c) => `${c.address} (${c.conflict?.remoteId === undefined ? `listed without its ${kindOf(c.type).remoteIdLabel}` : escapeControl(c.conflict.remoteId)})`).join(', ');
  const fix = importCommandFor(conflicts);
  const what = conflicts.length === 1 ? 'a resource to create already exists' : `${conflicts.length} resources to create already exist`;
  return (
    printableLine(`Error: apply would refuse this plan: ${what} on the server but not in the state: ${listed}. Adopt ${conflicts.length === 1 ? 'it' : 'them'} with \`${fix}\`, then plan again.`) +
    '\n'
  );
}

/**
 * The command that fixes it, as apply's refusal gives it (core/conflict-refusal.ts): a record listed
 * without its id cannot be imported by name, so the id is asked for.
 */
function importCommandFor(conflicts: readonly CreateChange[]): string {
  const [only] = conflicts;
  if (conflicts.length !== 1 || only === undefined) return 'agentsync import';
  return only.conflict?.remoteId === undefined ? `agentsync import ${only.address} <${kindOf(only.type).remoteIdLabel}>` : `agentsync import ${only.address}`;
}
