// Why apply refuses a plan with conflicts (docs/spec/server.md#no-silent-duplicates,
// docs/spec/plan-and-apply.md#renames), as one error the CLI and the programmatic API both throw:
// nothing is sent while a create would make a second copy of something on the server. A rename
// without `moved:` gets the exact entry or command that fixes it. plan says the same under a plan
// that apply would refuse (render/plan-conflicts.ts), through conflictReason.
import { UserError } from './errors.js';
import { escapeControl } from './terminal-safe.js';
import { stateMvCommand } from './moved.js';
import { kindOf } from './kinds/index.js';
import { conflictsOf, type CreateChange, type Plan } from './plan.js';

export function conflictRefusal(plan: Plan): UserError | undefined {
  const conflicts = conflictsOf(plan);
  if (conflicts.length === 0) return undefined;
  const details = { conflicts: conflicts.map((c) => ({ address: c.address, remoteId: c.conflict?.remoteId, ...(c.conflict?.movedFrom ? { movedFrom: c.conflict.movedFrom } : {}) })) };
  return new UserError('conflict', `refusing to apply: ${conflictReason(conflicts)}`, details);
}

/**
 * What is wrong and the command or `moved:` entry that fixes it, as one sentence with no final
 * stop: a key renamed without `moved:` gets the entry or `state mv`, never an import that would
 * then fail; anything else, the import that adopts it.
 */
export function conflictReason(conflicts: readonly CreateChange[]): string {
  const renames = conflicts.flatMap((c) => (c.conflict?.movedFrom === undefined ? [] : [{ from: c.conflict.movedFrom, to: c.address }]));
  if (renames.length > 0) {
    const listed = renames.map((move) => `${move.to} has the name of ${move.from}, which leaves the manifest`).join('; ');
    const entries = renames.map((move) => `{ from: ${move.from}, to: ${move.to} }`).join(', ');
    const commands = renames.map(stateMvCommand).join(' && ');
    return `${listed}, so creating it would make a second one. If it was renamed, add \`moved: [${entries}]\` to the manifest, or run \`${commands}\`, then plan again`;
  }
  // The ids are the server's: a line break or escape in one is shown, so the error stays one line.
  const listed = conflicts.map((c) => `${c.address} (${c.conflict?.remoteId === undefined ? `listed without its ${kindOf(c.type).remoteIdLabel}` : escapeControl(c.conflict.remoteId)})`).join(', ');
  const what = conflicts.length === 1 ? 'a resource to create already exists' : `${conflicts.length} resources to create already exist`;
  return `${what} on the server but not in the state: ${listed}. Adopt ${conflicts.length === 1 ? 'it' : 'them'} with \`${importCommandFor(conflicts)}\`, then plan again`;
}

/** A record listed without its id needs the id from the user: `agentsync import agent.x <uid>`. */
function importCommandFor(conflicts: readonly CreateChange[]): string {
  const [only] = conflicts;
  if (conflicts.length !== 1 || only === undefined) return 'agentsync import';
  return only.conflict?.remoteId === undefined ? `agentsync import ${only.address} <${kindOf(only.type).remoteIdLabel}>` : `agentsync import ${only.address}`;
}
