// The lock, with real processes: two racers on one state, waiting with a timeout, and a lock left
// by a killed process, once per backend; then a lock held on another host (file backend).
import { hostname } from 'node:os';
import { readFile, stat, writeFile, mkdir } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { UserError } from '../../../src/core/errors.js';
import { createFileStateStore, stateFiles, type StateWarning } from '../../../src/io/state/index.js';
import { backends } from '../../support/state-backends.js';
import { applied, assertBuilt, StateChild, TARGET, withTempDir } from './helpers.js';

beforeAll(assertBuilt);

let cleanup: (() => Promise<void>) | undefined;
const children: StateChild[] = [];
afterEach(async () => {
  await Promise.all(children.splice(0).map((c) => c.kill()));
  await cleanup?.();
  cleanup = undefined;
});

const BACKENDS = backends();
afterAll(async () => {
  await Promise.all(BACKENDS.map((b) => b.stop()));
});

function child(mode: string, place: { location: string; key: string }): StateChild {
  const started = new StateChild(mode, place.location, '', place.key);
  children.push(started);
  return started;
}

describe.each(BACKENDS)('$name state lock', (backend) => {
  it('lets exactly one of two racing processes in; the other is told who holds it', async () => {
    for (let round = 0; round < (backend.name === 'file' ? 5 : 3); round++) {
      const place = await backend.fresh();
      const racers = [child('race', place), child('race', place)];
      // Both wait on stdin after start-up, so "go" releases them together.
      await Promise.all(racers.map((r) => r.waitFor((e) => e.event === 'waiting')));
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
      await Promise.all(racers.map((r) => r.exited));
      if (backend.name === 'file') await expect(stat(stateFiles(place.location).lock)).rejects.toMatchObject({ code: 'ENOENT' });
      const next = await place.store.open(TARGET); // released: free at once
      await next.close();
    }
  }, 60_000);

  it('waits for a held lock with lockTimeoutMs, and gets it once the holder lets go', async () => {
    const place = await backend.fresh();
    const holder = child('race', place);
    holder.send('go');
    const { pid } = await holder.waitFor((e) => e.event === 'locked');

    const started = Date.now();
    const refused = await place.store.open(TARGET, { lockTimeoutMs: 700 }).catch((e: unknown) => e);
    expect(Date.now() - started).toBeGreaterThanOrEqual(600);
    expect(refused).toMatchObject({ code: 'state_locked' });
    expect((refused as Error).message).toContain(`state locked by pid ${pid as number} on ${hostname()}`);
    expect((refused as Error).message).toMatch(/waited|waiting/);

    const waiting = place.store.open(TARGET, { lockTimeoutMs: 20_000 });
    // Holding the lock a while longer is the subject: the second open must wait it out, not fail.
    await new Promise((resolve) => setTimeout(resolve, 400));
    holder.send('release');
    const session = await waiting;
    expect(Date.now() - started).toBeGreaterThanOrEqual(1000);
    await session.record(applied('tool.a'));
    await session.close();
    expect(Object.keys((await place.store.read(TARGET))!.resources)).toEqual(['tool.a']);
  });

  it('refuses a second session in the same process; close is idempotent', async () => {
    const place = await backend.fresh();
    const first = await place.store.open(TARGET);
    await expect(place.reopen().open(TARGET)).rejects.toMatchObject({ code: 'state_locked' });
    await first.record(applied('tool.a'));
    await first.close();
    await first.close(); // idempotent
    await expect(first.record(applied('tool.b'))).rejects.toThrow(/closed/);
    const second = await place.store.open(TARGET);
    expect(Object.keys(second.state.resources)).toEqual(['tool.a']);
    await second.close();
  });
});

describe('postgres state lock', () => {
  const pgBackend = BACKENDS.find((b) => b.name === 'postgres')!;

  it('is free the moment its holder is SIGKILLed, and names the new holder, not the dead one', async () => {
    const place = await pgBackend.fresh();
    const first = child('hold', place);
    await first.waitFor((e) => e.event === 'locked');
    await expect(place.store.open(TARGET)).rejects.toMatchObject({ code: 'state_locked' });
    await first.kill();

    const second = child('hold', place); // no wait, no takeover: the server already dropped the lock
    const { pid } = await second.waitFor((e) => e.event === 'locked');
    const err = await place.store.open(TARGET).catch((e: unknown) => e);
    expect((err as Error).message).toContain(`state locked by pid ${pid as number} on ${hostname()}`);
    await second.kill();
    const warnings: StateWarning[] = [];
    const session = await place.reopen({ onWarning: (w) => warnings.push(w) }).open(TARGET);
    await session.close();
    expect(warnings).toEqual([]);
  });
});

describe('file state lock', () => {
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

  it('holds twelve locks at once with one exit listener, and Node prints no warning', async () => {
    const tmp = await withTempDir();
    cleanup = tmp.cleanup;
    const warnings: Error[] = [];
    const onWarning = (warning: Error): void => void warnings.push(warning);
    process.on('warning', onWarning);
    const exitListeners = process.listenerCount('exit');
    try {
      const stores = Array.from({ length: 12 }, (_, i) => createFileStateStore(path.join(tmp.dir, `env${i}.state.json`)));
      const sessions = await Promise.all(stores.map((store) => store.open(TARGET)));
      expect(process.listenerCount('exit') - exitListeners).toBeLessThanOrEqual(1);
      await Promise.all(sessions.map((session) => session.close()));
      // Node emits the warning on a later tick: let it arrive before looking.
      await new Promise((resolve) => setImmediate(resolve));
      expect(warnings.map((w) => `${w.name}: ${w.message}`)).toEqual([]);
    } finally {
      process.off('warning', onWarning);
    }
  });

  it('a process that exits through process.exit() while holding several locks releases them all', async () => {
    const tmp = await withTempDir();
    cleanup = tmp.cleanup;
    const holder = new StateChild('hold-many-then-exit', tmp.statePath, '3');
    children.push(holder);
    const { locks } = await holder.waitFor((e) => e.event === 'locked');
    expect(locks).toHaveLength(3);
    await holder.exited;
    for (const lock of locks as string[]) await expect(stat(lock)).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('never takes over a lock held on another host', async () => {
    const tmp = await withTempDir();
    cleanup = tmp.cleanup;
    const files = stateFiles(tmp.statePath);
    await mkdir(path.dirname(files.lock), { recursive: true });
    const foreign = { pid: 999_999_999, host: `not-${hostname()}`, since: '2026-01-02T03:04:05.000Z', token: 'x' };
    await writeFile(files.lock, JSON.stringify(foreign));
    const err = await createFileStateStore(tmp.statePath)
      .open(TARGET)
      .catch((e: unknown) => e);
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
