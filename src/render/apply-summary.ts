// The end of an apply: forgotten resources with their remote ids, the notify outcome, and either
// the one-line success summary or a failure summary of done / failed / not attempted.
import type { ApplyCounts, ApplyFailure, ApplyResult, DoneItem, FailedItem } from '../core/apply-types.js';
import { palette } from './color.js';
import { countOf } from '../core/plural.js';
import { escapeControl } from '../core/terminal-safe.js';
import { unreadableText } from './plan-fields.js';
import { appendAll } from '../core/arrays.js';

const SIGN: Record<DoneItem['action'], string> = { create: '+', update: '~', delete: '-', forget: '-' };

export function renderApplySummary(result: ApplyResult, options: { color: boolean }): string {
  const paint = palette(options.color);
  const lines: string[] = [];
  for (const item of result.done.filter((d) => d.action === 'forget')) {
    // Gone from the server too: there is nothing left to keep, so no "stays on the server".
    if (item.gone === true) lines.push(`Forgot ${item.address} (remote id ${escapeControl(item.remoteId)}); it was already deleted on the server.`);
    else lines.push(`Forgot ${item.address} (remote id ${escapeControl(item.remoteId)}); it stays on the server.`);
  }
  for (const item of result.done.filter((d) => d.adopted)) {
    lines.push(`Adopted ${item.address} (remote id ${escapeControl(item.remoteId)}): an interrupted earlier apply had created it, so no duplicate was made.`);
  }
  const notify = result.notify;
  if (notify.status === 'sent') lines.push(`Sent the notify message (id ${notify.messageId}).`);
  if (notify.status === 'failed') lines.push(paint.yellow(`Warning: the notify message was not sent: ${failureText(notify.failure)}. The changes above are applied and recorded.`));
  if (result.ok && result.stateNotWritten !== undefined) return [...lines, ...stateNotWrittenLines(result, result.stateNotWritten, paint)].join('\n') + '\n';
  if (result.ok) {
    lines.push(paint.bold(paint.green(applyCompleteLine(result.counts, result.prune, result.moved?.length))));
    return lines.join('\n') + '\n';
  }
  if (result.interrupted) return [...lines, ...interruptedLines(result, paint)].join('\n') + '\n';
  const unrecorded = result.unrecorded?.items ?? [];
  const notRecorded = unrecorded.length > 0 ? `, ${unrecorded.length} applied but not recorded` : '';
  const unread = result.unreadable?.length ? `, ${result.unreadable.length} not read from the server` : '';
  lines.push(
    paint.bold(
      paint.red(`Apply failed: ${result.done.length} of ${countOf(result.total, 'change')} done${notRecorded}, ${result.failed.length} failed, ${result.notAttempted.length} not attempted${unread}.`),
    ),
  );
  if (result.unrecorded) lines.push(`The results could not be recorded: ${result.unrecorded.reason}.`);
  if (result.done.length > 0) {
    lines.push(result.stateNotWritten === undefined ? 'Done (recorded in state):' : `Done (kept in the journal; the state file was not written: ${result.stateNotWritten}):`);
    for (const item of result.done) lines.push(`  ${SIGN[item.action]} ${item.address}`);
  }
  if (unrecorded.length > 0) {
    lines.push('Applied on the server but NOT recorded (the next run adopts a create it finds pending, and sends an update again):');
    for (const item of unrecorded) lines.push(`  ${SIGN[item.action]} ${item.address}${item.remoteId ? ` (remote id ${item.remoteId})` : ''}`);
  }
  if (result.failed.length > 0) lines.push('Failed:');
  for (const item of result.failed) {
    lines.push(`  ${SIGN[item.action]} ${item.address}: ${failureText(item.failure)}`);
    appendAll(lines, failedDetail(item));
  }
  if (result.notAttempted.length > 0) {
    lines.push('Not attempted:');
    for (const item of result.notAttempted) lines.push(`  ${SIGN[item.action]} ${item.address}`);
  }
  if (result.unreadable?.length) {
    lines.push('Not read from the server, so nothing was planned or done for:');
    for (const entry of result.unreadable) lines.push(`  ! ${escapeControl(unreadableText(entry))}`);
  }
  lines.push('Fix the cause and run apply again: it does only what remains.');
  return lines.join('\n') + '\n';
}

/** The last line of a successful apply (docs/spec/plan-and-apply.md#progress-and-summary); with --prune it counts deletions too. */
function applyCompleteLine(counts: ApplyCounts, prune: boolean, moved = 0): string {
  const moves = moved > 0 ? `, ${moved} moved` : '';
  const adopted = (counts.adopted ?? 0) > 0 ? `, ${counts.adopted} adopted` : '';
  return `Apply complete: ${countsText(counts, prune)}${moves}${adopted}.`;
}

/** `1 created, 0 updated, 1 replaced, 0 forgotten`: `replaced` when there are any, `deleted` with --prune. */
function countsText(counts: ApplyCounts, prune: boolean): string {
  const replaced = (counts.replaced ?? 0) > 0 ? ` ${counts.replaced} replaced,` : '';
  const deleted = prune ? ` ${counts.deleted} deleted,` : '';
  return `${counts.created} created, ${counts.updated} updated,${replaced}${deleted} ${counts.forgotten} forgotten`;
}

/** Every change was made and is in the journal, but the state file could not be rewritten. */
function stateNotWrittenLines(result: ApplyResult, reason: string, paint: ReturnType<typeof palette>): string[] {
  const counts = countsText(result.counts, result.prune);
  const lines = [paint.bold(paint.yellow(`Applied, but the state file was not written: ${counts} on the server; ${reason}.`))];
  if (result.done.length > 0) {
    lines.push('Applied and kept in the journal beside the state (the next agentsync run records them in the state once it can be written):');
    for (const item of result.done) lines.push(`  ${SIGN[item.action]} ${item.address}`);
  }
  return lines;
}

/** A run stopped by SIGINT/SIGTERM: what was done, what was cut off, what never started. */
function interruptedLines(result: ApplyResult, paint: ReturnType<typeof palette>): string[] {
  const cutOff = result.failed.filter((item) => item.failure.code === 'INTERRUPTED');
  const failed = result.failed.filter((item) => item.failure.code !== 'INTERRUPTED');
  const lines = [
    paint.bold(
      paint.yellow(
        `Apply interrupted: ${result.done.length} of ${countOf(result.total, 'change')} done, ${cutOff.length} cut off, ${failed.length} failed, ${result.notAttempted.length} not started.`,
      ),
    ),
  ];
  const section = (title: string, items: readonly { action: DoneItem['action']; address: string }[], detail?: (i: number) => string[]): void => {
    if (items.length === 0) return;
    lines.push(title);
    items.forEach((item, i) => {
      lines.push(`  ${SIGN[item.action]} ${item.address}`);
      appendAll(lines, detail?.(i) ?? []);
    });
  };
  section('Done (recorded in state):', result.done);
  section('Cut off (no answer in time; the next plan shows whether it happened):', cutOff, (i) =>
    cutOff[i]?.failure.maybeCreated ? ['    The request may have reached the server; it stays marked pending, so the next run adopts it instead of making a duplicate.'] : [],
  );
  section('Failed:', failed, (i) => [`    ${failureText(failed[i]!.failure)}`]);
  section('Not started:', result.notAttempted);
  lines.push('Run apply again to do what remains: it does only that.');
  return lines;
}

/** What the server holds after a failed change, beyond the failed call itself. */
function failedDetail(item: FailedItem): string[] {
  const old = item.superseded;
  const replaced =
    old === undefined
      ? []
      : [`    The ${item.type} it replaces (remote id ${escapeControl(old.remoteId)}) is still on the server; the state keeps it as ${escapeControl(old.address)}, and the next apply deletes it.`];
  if (item.madeRemoteId !== undefined) {
    return [`    It exists on the server now (remote id ${escapeControl(item.madeRemoteId)}) and is recorded in the state; the next apply finishes it.`, ...replaced];
  }
  if (replaced.length > 0) return replaced;
  // The mark stays pending, and the next apply looks for it on the server before sending anything again.
  return item.failure.maybeCreated
    ? ['    It may have been created: the request may have reached the server. It stays marked pending; the next apply looks for it on the server and adopts it instead of making a second one.']
    : [];
}

export function failureText(failure: ApplyFailure): string {
  const answer = failure.status === 0 ? `failed (${failure.code})` : `answered ${statusWithCode(failure.status, failure.code)}`;
  const tries = failure.attempts > 1 ? ` after ${failure.attempts} attempts` : '';
  // Servers often end their message with a period; the sentence around it adds its own.
  const message = failure.message.replace(/\.+$/, '');
  return `${failure.call} ${answer}${message ? `: ${message}` : ''}${tries}`;
}

/** `400 ERR_BAD_REQUEST`; just `400` when the server gave no code of its own (the AI-agent error body has none). */
export function statusWithCode(status: number, code: string): string {
  return code === `HTTP_${status}` ? String(status) : `${status} ${code}`;
}

/** `--json` output: the result as data, with the same one-line summary for scripts that grep. */
export function applyResultToJson(result: ApplyResult): Record<string, unknown> {
  const { created, updated, replaced = 0, deleted, forgotten, adopted = 0 } = result.counts;
  return {
    ok: result.ok,
    environment: result.environment,
    summary: { created, updated, replaced, deleted, forgotten, adopted, failed: result.failed.length, notAttempted: result.notAttempted.length },
    // A replacement is an update in the plan's terms; the item says so, and what it did, as the text does.
    done: result.done.map(({ address, action, remoteId, replaced: replace, steps }) => ({ address, action, remoteId, ...(replace === true ? { replace } : {}), ...(steps ? { steps } : {}) })),
    failed: result.failed.map(({ address, action, failure, madeRemoteId, superseded }) => ({
      address,
      action,
      ...failure,
      ...(madeRemoteId === undefined ? {} : { madeRemoteId }),
      ...(superseded === undefined ? {} : { superseded }),
    })),
    notAttempted: result.notAttempted.map(({ address, action }) => ({ address, action })),
    notify: result.notify,
    ...(result.moved ? { moved: result.moved } : {}),
    ...(result.unreadable ? { unreadable: result.unreadable } : {}),
    ...(result.unrecorded ? { notRecorded: { reason: result.unrecorded.reason, changes: result.unrecorded.items.map(({ address, action, remoteId }) => ({ address, action, remoteId })) } } : {}),
    ...(result.stateNotWritten === undefined ? {} : { stateNotWritten: result.stateNotWritten }),
  };
}
