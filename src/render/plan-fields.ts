// What the text and markdown plans share: how a field change reads, independent of color and
// markup. Values print as JSON (so control characters are escaped and cannot drive a terminal),
// sensitive ones as "(sensitive)", and multi-line strings as line diffs.
import { movedEntryText, stateMvCommand } from '../core/moved.js';
import type { JsonValue } from '../core/api-types.js';
import { canonicalJson } from '../core/canonical.js';
import { kindOf, RESOURCE_TYPES, type ResourceType } from '../core/kinds/index.js';
import { replacementAddressOf } from '../core/kinds/kind.js';
import { escapeControl, escapeControlKeepLines } from '../core/terminal-safe.js';
import { SENSITIVE_PLACEHOLDER, type CreateChange, type DeleteChange, type FieldChange, type PendingWarning, type PlanSummary, type UnreadableResource } from '../core/plan.js';
import { diffLines, textLines, type DiffLine } from './line-diff.js';

export type FieldView =
  | { kind: 'added' | 'removed'; path: string; value: string }
  | { kind: 'changed'; path: string; before: string; after: string }
  | { kind: 'lines'; sign: '+' | '-' | '~'; path: string; lines: DiffLine[] };

/** The remote id's name in the API, shown beside updates and forgets. */
export const REMOTE_ID_LABEL = Object.fromEntries(RESOURCE_TYPES.map((type) => [type, kindOf(type).remoteIdLabel])) as Record<ResourceType, string>;

export function viewField(field: FieldChange): FieldView {
  const { before, after } = field;
  // A path names free-form keys (metaData's), which a manifest or a server chose.
  const path = printableText(field.path);
  if (!field.sensitive && (isMultiline(before) || isMultiline(after))) {
    const oldText = typeof before === 'string' ? before : undefined;
    const newText = typeof after === 'string' ? after : undefined;
    if (oldText !== undefined && newText !== undefined) return { kind: 'lines', sign: '~', path, lines: diffLines(oldText, newText) };
    if (before === undefined && newText !== undefined) return { kind: 'lines', sign: '+', path, lines: allLines('added', newText) };
    if (after === undefined && oldText !== undefined) return { kind: 'lines', sign: '-', path, lines: allLines('removed', oldText) };
  }
  const sensitive = field.sensitive === true;
  if (field.item === true) return { kind: before === undefined ? 'added' : 'removed', path, value: itemText(String(before ?? after)) };
  if (before === undefined) return { kind: 'added', path, value: formatValue(after, sensitive) };
  if (after === undefined) return { kind: 'removed', path, value: formatValue(before, sensitive) };
  return { kind: 'changed', path, before: formatValue(before, sensitive), after: formatValue(after, sensitive) };
}

/**
 * An address in a set (`knowledge:`). A source the plan replaces stands in the agent's old list as
 * `file.handbook~<old id>`: it reads as the old one, which its delete takes off the agent.
 */
function itemText(item: string): string {
  const address = replacementAddressOf(item);
  if (address === undefined) return printableText(item);
  let oldId = item.slice(address.length + 1);
  try {
    oldId = decodeURIComponent(oldId);
  } catch {
    // A plan file written by hand may hold anything there: it is shown as it is.
  }
  return printableText(`${address} (the replaced one, ${oldId}; its delete detaches it)`);
}

/** A create's fields as the text and markdown plans list them: without the empty defaults the manifest did not write. */
export function shownCreateFields(change: CreateChange): FieldChange[] {
  const defaulted = change.defaulted;
  if (!defaulted?.length) return change.fields;
  return change.fields.filter((field) => !defaulted.includes(field.path));
}

export function formatValue(value: JsonValue | undefined, sensitive: boolean): string {
  if (sensitive) return SENSITIVE_PLACEHOLDER;
  if (value === undefined) return 'null';
  return typeof value === 'string' ? JSON.stringify(value) : canonicalJson(value);
}

function allLines(kind: 'added' | 'removed', text: string): DiffLine[] {
  return textLines(text).map((line) => ({ kind, text: line }));
}

function isMultiline(value: JsonValue | undefined): value is string {
  return typeof value === 'string' && value.includes('\n');
}

/** `quote` escapes the parts that come from data (markdown needs it; text does not). */
export function pendingWarningText(pending: PendingWarning, quote: (text: string) => string = (text) => text): string {
  if (pending.action === 'delete') {
    return (
      `${quote(pending.address)}: a delete was sent at ${quote(pending.since)} but its result was never recorded; ` +
      'the resource may already be gone from the server. `agentsync apply` sends it again, which is harmless.'
    );
  }
  return (
    `${quote(pending.address)}: a create was sent at ${quote(pending.since)} but its result was never recorded, so a duplicate may exist on the server; ` +
    'apply looks for it there first and adopts it instead of creating it again.'
  );
}

/** What happens to a resource `--prune` removes, after its address and remote id. */
export function deleteText(change: DeleteChange): string {
  if (change.gone === true) return 'already deleted on the server; only dropped from the state';
  const detaches = change.detaches?.length ? ` (detaches it from ${change.detaches.map(printableText).join(', ')})` : '';
  return `will be deleted from the server${detaches}`;
}

/** Why `--prune` forgets a resource instead of deleting it. */
export function undeletableText(type: ResourceType): string {
  return `${type}s cannot be deleted through the API, so it is only forgotten and stays on the server`;
}

export const DRIFT_HEADING = 'Changed outside agentsync:';
export const DELETED_ON_SERVER = '(deleted on the server)';
/** What a replacement (-/+) does, in the order it happens. */
export function replaceText(type: ResourceType): string {
  return type === 'website' ? '(re-crawled as a new website; the old website is deleted after the new one is processed)' : `(a new ${type} is made, then the old one deleted)`;
}

/** A forget of what left both the manifest and the server. */
export const FORGET_GONE = 'already deleted on the server; only dropped from the state';

/** A create's conflict: somebody else's record, or a rename without `moved:` (docs/spec/plan-and-apply.md#renames), with the fix. */
export function conflictText(change: CreateChange): string {
  const remoteId = change.conflict?.remoteId;
  const movedFrom = change.conflict?.movedFrom;
  if (movedFrom !== undefined) {
    const move = { from: movedFrom, to: change.address };
    return `! renamed from ${move.from} (${remoteId ?? 'no id listed'})? creating it would make a second one; add \`${movedEntryText(move)}\` to the manifest, or run \`${stateMvCommand(move)}\``;
  }
  if (remoteId !== undefined) return `! already exists on the server (${remoteId}); adopt it with \`agentsync import\` before applying`;
  // The server listed it without its id (one public version does): only the user can tell which it is.
  const label = REMOTE_ID_LABEL[change.type];
  return `! already exists on the server, listed without its ${label}; find the ${label} and adopt it with \`agentsync import ${change.address} <${label}>\` before applying`;
}

/** `agent.support → agent.helpdesk (moved)`. */
export function moveText(move: { from: string; to: string }): string {
  return `${move.from} → ${move.to} (moved)`;
}

export function adoptText(type: ResourceType, remoteId: string): string {
  return `an interrupted earlier apply created it (${REMOTE_ID_LABEL[type]} ${remoteId}); it will be updated in place, not created again`;
}

/** The plan's summary line (docs/spec/plan-and-apply.md#text-plan); with --prune (docs/spec/plan-and-apply.md#deleting) it counts deletions too, and replacements when there are any. */
export function summaryLine(summary: PlanSummary, prune: boolean, moves = 0): string {
  const replaces = summary.replace > 0 ? ` ${summary.replace} to replace,` : '';
  const deletes = prune ? ` ${summary.delete} to delete,` : '';
  const moved = moves > 0 ? `, ${moves} to move` : '';
  return `Plan: ${summary.create} to create, ${summary.update} to update,${replaces}${deletes} ${summary.forget} to forget${moved}.`;
}

export function noChangesLine(environment: string, unreadable = 0): string {
  if (unreadable > 0)
    return `No changes in what could be read; ${unreadable === 1 ? '1 resource' : `${unreadable} resources`} of environment "${printableText(environment)}" could not be read from the server, so nothing is planned for ${unreadable === 1 ? 'it' : 'them'}.`;
  return `No changes. Environment "${printableText(environment)}" matches the manifest.`;
}

export const UNREADABLE_HEADING = 'Could not be read from the server (nothing is planned for these; apply fails until they can be read):';

/** `website.docs: why`; the reason often starts with the address already. */
export function unreadableText(entry: UnreadableResource): string {
  const reason = entry.reason.startsWith(`${entry.address}: `) ? entry.reason.slice(entry.address.length + 2) : entry.reason;
  // The reason quotes the server: one printable line, as every outside string.
  return printableText(`${entry.address}: ${reason}`);
}

/** Where a text's last newline is the only thing that differs, or one of them. */
export const FINAL_NEWLINE_TEXT = '(newline at end of text)';

export function skippedText(count: number): string {
  return `… ${count} unchanged line${count === 1 ? '' : 's'}`;
}

/**
 * Text from outside that may span lines (a warning, a message), with control characters (ESC, CR,
 * …) made visible instead of obeyed, and no line a GitHub workflow command.
 */
export const printableLine = escapeControlKeepLines;

/** One piece of text from outside inside a line (an address, an environment name, a remote id): one line, inert. */
export const printableText = escapeControl;
