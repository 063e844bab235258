import { describe, expect, it } from 'vitest';
import { createKbProgress, renderKbWaitResult } from '../../src/render/kb-progress.js';

describe('apply --wait progress', () => {
  it('off a terminal writes the first counts, then at most one line per interval', () => {
    const written: string[] = [];
    const progress = createKbProgress({ tty: false, color: false, write: (text) => written.push(text), intervalMs: 10_000 });
    for (const [elapsed, remaining] of [
      [0, 9],
      [3_000, 8],
      [9_999, 7],
      [10_000, 6],
      [15_000, 5],
      [20_500, 0],
    ] as const)
      progress.update({ processed: 9 - remaining, failed: 0, remaining }, elapsed);
    progress.finish();
    expect(written).toEqual(['Indexing: 0 processed, 0 failed, 9 remaining (0s)\n', 'Indexing: 3 processed, 0 failed, 6 remaining (10s)\n', 'Indexing: 9 processed, 0 failed, 0 remaining (21s)\n']);
  });

  it('on a terminal rewrites one line and ends it', () => {
    const written: string[] = [];
    const progress = createKbProgress({ tty: true, color: false, write: (text) => written.push(text), intervalMs: 10_000 });
    progress.update({ processed: 1, failed: 0, remaining: 2 }, 500);
    progress.update({ processed: 2, failed: 1, remaining: 0 }, 1500);
    progress.finish();
    expect(written.join('')).toBe('\r\u001b[2KIndexing: 1 processed, 0 failed, 2 remaining (1s)\r\u001b[2KIndexing: 2 processed, 1 failed, 0 remaining (2s)\n');
  });

  it('lists failed URLs, and says when the timeout stopped the wait', () => {
    const failed = renderKbWaitResult(
      { counts: { processed: 2, failed: 1, remaining: 0 }, failed: [{ address: 'website.docs', url: 'https://d.com/x' }], timedOut: false, elapsedMs: 4200 },
      false,
      60,
    );
    expect(failed).toBe('Indexing complete: 2 processed, 1 failed (4s).\nFailed URLs (1):\n  website.docs  https://d.com/x\n');
    const stopped = renderKbWaitResult({ counts: { processed: 1, failed: 0, remaining: 5 }, failed: [], timedOut: true, elapsedMs: 60_000 }, false, 60);
    expect(stopped).toBe('Indexing not finished after 60s (--wait-timeout): 1 processed, 0 failed, 5 remaining.\n');
  });
});

describe('apply --wait with URLs in an unknown state (issue 31 item 13)', () => {
  it('counts them apart from processed, in the live line and in the result, and never says complete', () => {
    const written: string[] = [];
    const progress = createKbProgress({ tty: false, color: false, write: (text) => written.push(text), intervalMs: 10_000 });
    progress.update({ processed: 1, failed: 0, unknown: 3, remaining: 0 }, 1000);
    expect(written).toEqual(['Indexing: 1 processed, 0 failed, 3 unknown, 0 remaining (1s)\n']);
    const ended = renderKbWaitResult({ counts: { processed: 1, failed: 0, unknown: 3, remaining: 0 }, failed: [], timedOut: false, elapsedMs: 1000 }, false, 60);
    expect(ended).toBe('Indexing ended: 1 processed, 0 failed, 3 unknown (1s).\n');
    const stopped = renderKbWaitResult({ counts: { processed: 0, failed: 0, unknown: 2, remaining: 5 }, failed: [], timedOut: true, elapsedMs: 60_000 }, false, 60);
    expect(stopped).toBe('Indexing not finished after 60s (--wait-timeout): 0 processed, 0 failed, 2 unknown, 5 remaining.\n');
  });
});
