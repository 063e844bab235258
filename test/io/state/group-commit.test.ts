import { describe, expect, it } from 'vitest';
import { GroupCommit } from '../../../src/io/state/group-commit.js';

/** A GroupCommit over an in-memory "disk": every write is one batch, made durable after `writeMs`. */
function recorder(writeMs = 2): { commits: GroupCommit; writes: string[][]; at: number[] } {
  const writes: string[][] = [];
  const at: number[] = [];
  const started = performance.now();
  const commits = new GroupCommit({
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
    const { commits, writes } = recorder();
    await Promise.all(['a', 'b', 'c'].map((line) => commits.push(line)));
    expect(writes).toEqual([['a', 'b', 'c']]);
  });

  it('starts a write at the end of the turn, without waiting for company, and drain waits for it', async () => {
    const { commits, writes } = recorder(20);
    let done = false;
    const first = commits.push('a').then(() => (done = true));
    await new Promise((resolve) => setImmediate(resolve));
    expect(writes).toEqual([['a']]);
    expect(done).toBe(false);
    await commits.drain();
    expect(done).toBe(true);
    await first;
  });

  it('queues lines pushed while a write is in flight for the next write', async () => {
    const { commits, writes } = recorder(20);
    const first = commits.push('a');
    await new Promise((resolve) => setTimeout(resolve, 5));
    const more = [commits.push('b'), commits.push('c')];
    await Promise.all([first, ...more]);
    expect(writes).toEqual([['a'], ['b', 'c']]);
  });

  it('rejects every waiting line after a failed write, and later ones too when told to stop', async () => {
    let calls = 0;
    const commits = new GroupCommit({
      write: () => Promise.reject(new Error(`disk full ${++calls}`)),
      onFailure: (err) => ({ error: err, stop: true }),
    });
    const results = await Promise.allSettled([commits.push('a'), commits.push('b')]);
    expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected']);
    await expect(commits.push('c')).rejects.toThrow('disk full 1');
    expect(calls).toBe(1);
  });
});
