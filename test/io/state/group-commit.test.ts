import { describe, expect, it } from 'vitest';
import { GroupCommit } from '../../../src/io/state/group-commit.js';

/** A GroupCommit over an in-memory "disk": every write is one batch, made durable after `writeMs`. */
function recorder(windowMs: number, writeMs = 2): { commits: GroupCommit; writes: string[][]; at: number[] } {
  const writes: string[][] = [];
  const at: number[] = [];
  const started = performance.now();
  const commits = new GroupCommit({
    windowMs,
    write: async (lines) => {
      writes.push(lines);
      at.push(performance.now() - started);
      await new Promise((resolve) => setTimeout(resolve, writeMs));
    },
  });
  return { commits, writes, at };
}

describe('GroupCommit', () => {
  it('writes the lines pushed in one turn of the event loop together', async () => {
    const { commits, writes } = recorder(0);
    await Promise.all(['a', 'b', 'c'].map((line) => commits.push(line)));
    expect(writes).toEqual([['a', 'b', 'c']]);
  });

  it('lets deferred lines wait for company within the window, and resolves each only once written', async () => {
    const { commits, writes } = recorder(40);
    let firstDone = false;
    const first = commits.push('a', true).then(() => (firstDone = true));
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(writes).toEqual([]);
    expect(firstDone).toBe(false);
    const second = commits.push('b', true);
    await Promise.all([first, second]);
    expect(writes).toEqual([['a', 'b']]);
  });

  it('flushes at once for an urgent line, carrying the deferred ones waiting with it', async () => {
    const { commits, writes, at } = recorder(1_000);
    const deferred = commits.push('a', true);
    await new Promise((resolve) => setTimeout(resolve, 5));
    await Promise.all([commits.push('b'), deferred]);
    expect(writes).toEqual([['a', 'b']]);
    expect(at[0]).toBeLessThan(500);
  });

  it('drain writes deferred lines without waiting for the window', async () => {
    const { commits, writes, at } = recorder(1_000);
    const deferred = commits.push('a', true);
    await commits.drain();
    await deferred;
    expect(writes).toEqual([['a']]);
    expect(at[0]).toBeLessThan(500);
  });

  it('queues lines pushed while a write is in flight for the next write, whatever their kind', async () => {
    const { commits, writes } = recorder(1_000, 20);
    const first = commits.push('a');
    await new Promise((resolve) => setTimeout(resolve, 5));
    const more = [commits.push('b', true), commits.push('c')];
    await Promise.all([first, ...more]);
    expect(writes).toEqual([['a'], ['b', 'c']]);
  });

  it('rejects every waiting line after a failed write, and later ones too when told to stop', async () => {
    let calls = 0;
    const commits = new GroupCommit({
      windowMs: 5,
      write: () => Promise.reject(new Error(`disk full ${++calls}`)),
      onFailure: (err) => ({ error: err, stop: true }),
    });
    const results = await Promise.allSettled([commits.push('a', true), commits.push('b')]);
    expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected']);
    await expect(commits.push('c', true)).rejects.toThrow('disk full 1');
    expect(calls).toBe(1);
  });
});
