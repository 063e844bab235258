// The lock, with real processes: two racers on one state, a lock left by a killed process, and a
// lock held on another host.
import { hostname } from 'node:os';
import { readFile, stat, writeFile, mkdir } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { UserError } from '../../../src/core/errors.js';
import { createFileStateStore, stateFiles, type StateWarning } from '../../../src/io/state/index.js';
import { applied, assertBuilt, StateChild, TARGET, withTempDir } from './helpers.js';

beforeAll(assertBuilt);

let cleanup: (() => Promise<void>) | undefined;
const children: StateChild[] = [];
afterEach(async () => {
  await Promise.all(children.splice(0).map((c) => c.kill()));
  await cleanup?.();
  cleanup = undefined;
});

describe('state lock', () => {
  it('lets exactly one of two racing processes in; the other is told who holds it', async () => {
    for (let round = 0; round < 5; round++) {
      const tmp = await withTempDir();
      cleanup = tmp.cleanup;
      const racers = [new StateChild('race', tmp.statePath), new StateChild('race', tmp.statePath)];
      children.push(...racers);
      // Both wait on stdin after start-up, so "go" releases them together.
      await new Promise((resolve) => setTimeout(resolve, 300));
      racers.forEach((r) => r.send('go'));
      const outcomes = await Promise.all(racers.map((r) => r.waitFor((e) => e.event === 'locked' || e.event === 'refused')));
      const winners = outcomes.filter((o) => o.event === 'locked');
      const losers = outcomes.filter((o) => o.event === 'refused');
      expect(winners).toHaveLength(1);
      expect(losers).toHaveLength(1);
      expect(losers[0]!.code).toBe('state_locked');
      expect(losers[0]!.message).toContain(`state locked by pid ${winners[0]!.pid as number} on ${hostname()} since `);

      const winner = racers[outcomes.indexOf(winners[0]!)]!;
      winner.send('release');
      await winner.waitFor((e) => e.event === 'released');
      await expect(stat(stateFiles(tmp.statePath).lock)).rejects.toMatchObject({ code: 'ENOENT' });
      await Promise.all(racers.map((r) => r.exited));
      await cleanup();
      cleanup = undefined;
    }
  }, 60_000);

  it('takes over a lock left by a killed process on this host, with a warning', async () => {
    const tmp = await withTempDir();
    cleanup = tmp.cleanup;
    const holder = new StateChild('hold', tmp.statePath);
    children.push(holder);
    const { pid } = await holder.waitFor((e) => e.event === 'locked');

    const warnings: StateWarning[] = [];
    const store = createFileStateStore(tmp.statePath, { onWarning: (w) => warnings.push(w) });
    const refused = await store.open(TARGET).catch((err: unknown) => err);
    expect(refused).toBeInstanceOf(UserError);
    expect((refused as UserError).code).toBe('state_locked'); // alive: respected

    await holder.kill();
    const session = await store.open(TARGET);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]!.code).toBe('stale_lock_taken_over');
    expect(warnings[0]!.message).toContain(`pid ${pid as number}`);
    const lock = JSON.parse(await readFile(stateFiles(tmp.statePath).lock, 'utf8')) as { pid: number };
    expect(lock.pid).toBe(process.pid);
    await session.close();
  });

  it('never takes over a lock held on another host', async () => {
    const tmp = await withTempDir();
    cleanup = tmp.cleanup;
    const files = stateFiles(tmp.statePath);
    await mkdir(path.dirname(files.lock), { recursive: true });
    const foreign = { pid: 999_999_999, host: `not-${hostname()}`, since: '2026-01-02T03:04:05.000Z', token: 'x' };
    await writeFile(files.lock, JSON.stringify(foreign));
    const err = await createFileStateStore(tmp.statePath).open(TARGET).catch((e: unknown) => e);
    expect(err).toMatchObject({ code: 'state_locked' });
    expect((err as Error).message).toContain(`state locked by pid 999999999 on not-${hostname()} since 2026-01-02T03:04:05.000Z`);
    expect(JSON.parse(await readFile(files.lock, 'utf8'))).toEqual(foreign);
  });

  it('refuses a second session in the same process and releases only its own lock', async () => {
    const tmp = await withTempDir();
    cleanup = tmp.cleanup;
    const store = createFileStateStore(tmp.statePath);
    const first = await store.open(TARGET);
    await expect(store.open(TARGET)).rejects.toMatchObject({ code: 'state_locked' });
    await first.record(applied('tool.a'));
    await first.close();
    await first.close(); // idempotent
    await expect(first.record(applied('tool.b'))).rejects.toThrow(/closed/);

    // A lock that was replaced under a session (someone deleted and re-took it) is not ours to remove.
    const second = await store.open(TARGET);
    const files = stateFiles(tmp.statePath);
    const other = JSON.stringify({ pid: process.pid, host: hostname(), since: 'now', token: 'someone-else' });
    await writeFile(files.lock, other);
    await second.close();
    expect(await readFile(files.lock, 'utf8')).toBe(other);
  });
});
