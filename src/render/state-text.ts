// What the state commands print: the listing as columns, one entry, and the one-line receipts of
// rm, mv and migrate. Addresses and ids may come from a user or a server and may hold escape
// sequences: they are shown, not obeyed.
import { countOf } from '../core/plural.js';
import type { MigrateResult } from '../core/state.js';
import { escapeControl as safe } from '../core/terminal-safe.js';
import type { Forgotten, Moved, StateEntry, StateListing } from '../app/state.js';
import { maxOf } from '../core/arrays.js';

export function renderStateList(listing: StateListing, location: string): { stdout: string; stderr: string } {
  if (listing.resources.length === 0 && listing.pending.length === 0) {
    return { stdout: '', stderr: listing.state ? `No resources in ${location}.\n` : `No state at ${location}: nothing has been applied yet.\n` };
  }
  const rows = [
    ...listing.resources.map((r) => [safe(r.address), r.type, safe(r.remoteId)]),
    ...listing.pending.map((p) => [
      safe(p.address),
      p.type,
      p.action === 'delete' ? `(pending delete since ${p.since}; it may be gone from the server)` : `(pending create since ${p.since}; it may exist on the server)`,
    ]),
  ];
  return { stdout: formatColumns(rows), stderr: '' };
}

export function stateListJson(listing: StateListing, location: string): string {
  const { state } = listing;
  const header = state ? { exists: true, environment: state.environment, appId: state.appId, region: state.region, lineage: state.lineage, serial: state.serial } : { exists: false };
  return JSON.stringify({ formatVersion: 1, state: location, ...header, resources: listing.resources, pending: listing.pending }, null, 2) + '\n';
}

export function renderStateEntry({ address, resource, pending }: StateEntry): string {
  const lines = [`# ${safe(address)}${resource ? '' : ' (pending create)'}`];
  if (resource) {
    lines.push(`type      = ${resource.type}`, `remoteId  = ${safe(resource.remoteId)}`, `appliedAt = ${resource.appliedAt}`);
    lines.push(`spec      = ${JSON.stringify(resource.spec, null, 2)}`);
  }
  if (pending) {
    const what =
      pending.action === 'delete'
        ? `a delete sent at ${pending.since} was never confirmed; the ${pending.type} may be gone from the server`
        : `a create sent at ${pending.since} was never confirmed; the ${pending.type} may exist on the server`;
    lines.push(`pending   = ${what}`);
  }
  return lines.join('\n') + '\n';
}

export function renderForgotten(removed: Forgotten, location: string): string {
  const id = removed.remoteId === null ? 'a pending create' : `remote id ${safe(removed.remoteId)}`;
  return `Removed ${safe(removed.address)} (${id}) from ${location}. It still exists on the server; agentsync no longer manages it.\n`;
}

export function renderMoved(moved: Moved, location: string): string {
  return `Moved ${safe(moved.from)} to ${safe(moved.to)}${moved.remoteId ? ` (remote id ${safe(moved.remoteId)})` : ''} in ${location}. Nothing on the server changed.\n`;
}

export function renderMigrated(result: MigrateResult): string {
  const pending = result.pending > 0 ? ` and ${countOf(result.pending, 'pending create')}` : '';
  return (
    `Copied the state of environment "${result.environment}" (lineage ${result.lineage}, serial ${result.serial}, ${countOf(result.resources, 'resource')}${pending}) ` +
    `from ${result.from} to ${result.to}.\nThe source is unchanged. Point --state, AGENTSYNC_STATE_URL or state.url at the new location to use it.\n`
  );
}

/** Left-aligned columns separated by two spaces; the last column is not padded. */
function formatColumns(rows: string[][]): string {
  const widths = rows[0]?.map((_, col) => maxOf(rows.map((r) => (r[col] ?? '').length))) ?? [];
  return rows.map((r) => r.map((cell, col) => (col === r.length - 1 ? cell : cell.padEnd(widths[col] ?? 0))).join('  ')).join('\n') + '\n';
}
