// `apply --wait`'s output: on a terminal one live line, rewritten in place; elsewhere (CI logs)
// one plain line every 10 s, so a long indexing neither floods the log nor looks hung. Then the
// result: the counts, every failed URL, or why the wait stopped.
import { palette } from './color.js';
import { printableLine } from './plan-fields.js';

export interface KbCountsView {
  processed: number;
  failed: number;
  /** Neither processed nor failed: a status agentsync does not know, or left out of the answer. */
  unknown?: number;
  remaining: number;
}

export interface KbProgressOptions {
  tty: boolean;
  color: boolean;
  write(text: string): void;
  /** Plain output: at most one line per interval (10 s). */
  intervalMs: number;
}

export interface KbProgress {
  update(counts: KbCountsView, elapsedMs: number): void;
  /** Ends the live line (a terminal) so what follows starts on a new line. */
  finish(): void;
}

export const CI_PROGRESS_INTERVAL_MS = 10_000;

export function kbProgressLine(counts: KbCountsView, elapsedMs: number): string {
  return `Indexing: ${countsText(counts)}, ${counts.remaining} remaining (${Math.round(elapsedMs / 1000)}s)`;
}

/** `3 processed, 1 failed`, with `, 2 unknown` only when there are any (never folded into processed). */
function countsText(counts: KbCountsView): string {
  const unknown = counts.unknown ?? 0;
  return `${counts.processed} processed, ${counts.failed} failed${unknown > 0 ? `, ${unknown} unknown` : ''}`;
}

export function createKbProgress(options: KbProgressOptions): KbProgress {
  let live = false;
  let lastPlainAt: number | undefined;
  return {
    update(counts, elapsedMs) {
      const line = kbProgressLine(counts, elapsedMs);
      if (options.tty) {
        options.write(`\r\x1b[2K${line}`);
        live = true;
        return;
      }
      // The first answer, then one per interval; the final counts come with the result.
      if (lastPlainAt !== undefined && elapsedMs - lastPlainAt < options.intervalMs) return;
      lastPlainAt = elapsedMs;
      options.write(`${line}\n`);
    },
    finish() {
      if (live) options.write('\n');
      live = false;
    },
  };
}

export interface KbWaitView {
  counts: KbCountsView;
  failed: readonly { address: string; url: string }[];
  timedOut: boolean;
  elapsedMs: number;
}

/** The lines after the wait: finished (with the failed URLs listed), or stopped at the timeout. */
export function renderKbWaitResult(result: KbWaitView, color: boolean, timeoutSeconds: number): string {
  const paint = palette(color);
  const { remaining } = result.counts;
  const out: string[] = [];
  if (result.timedOut) {
    out.push(paint.yellow(`Indexing not finished after ${timeoutSeconds}s (--wait-timeout): ${countsText(result.counts)}, ${remaining} remaining.`));
  } else if ((result.counts.unknown ?? 0) > 0) {
    // Not "complete": what became of those URLs is unknown (app/kb-wait.ts reports them as an error).
    out.push(paint.yellow(`Indexing ended: ${countsText(result.counts)} (${Math.round(result.elapsedMs / 1000)}s).`));
  } else {
    out.push(`Indexing complete: ${countsText(result.counts)} (${Math.round(result.elapsedMs / 1000)}s).`);
  }
  if (result.failed.length > 0) {
    out.push(paint.red(`Failed URLs (${result.failed.length}):`));
    for (const { address, url } of result.failed) out.push(`  ${address}  ${printableLine(url)}`);
  }
  return out.join('\n') + '\n';
}
