// Crash safety with real processes: a writer SIGKILLed at random instants never leaves a broken
// state, and results recorded before a kill are all there on the next open.
import { readFile, stat } from 'node:fs/promises';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { checkStateText, createFileStateStore, stateFiles, type StateWarning } from '../../../src/io/state/index.js';
import { assertBuilt, StateChild, TARGET, withTempDir } from './helpers.js';

beforeAll(assertBuilt);

let cleanup: (() => Promise<void>) | undefined;
afterEach(async () => {
  await cleanup?.();
  cleanup = undefined;
});

async function readValid(file: string) {
  const checked = checkStateText(await readFile(file, 'utf8'));
  if ('problem' in checked) throw new Error(`${file}: ${checked.problem}`);
  return checked.state;
}

describe('atomic writes', () => {
  it('leaves a valid old-or-new state after each of 25 SIGKILLs during a write loop', async () => {
    const tmp = await withTempDir();
    cleanup = tmp.cleanup;
    const files = stateFiles(tmp.statePath);
    let lastSerial = -1;
    let takeovers = 0;
    for (let kill = 0; kill < 25; kill++) {
      const child = new StateChild('churn', tmp.statePath, '250'); // ~110 kB per version
      const ready = await child.waitFor((e) => e.event === 'ready');
      takeovers += (ready.warnings as StateWarning[]).filter((w) => w.code === 'stale_lock_taken_over').length;
      await new Promise((resolve) => setTimeout(resolve, Math.random() * 40));
      await child.kill();

      const state = await readValid(files.state);
      expect(state.serial).toBeGreaterThanOrEqual(lastSerial); // never rolled back to an older version
      const counter = state.resources['tool.counter'];
      if (counter) expect(counter.spec.n).toBe(state.serial); // every version is internally whole
      const backup = await readValid(files.backup);
      expect(backup.lineage).toBe(state.lineage);
      expect(backup.serial).toBeLessThanOrEqual(state.serial);
      lastSerial = state.serial;
    }
    expect(lastSerial).toBeGreaterThan(25); // the loop really wrote between kills
    expect(takeovers).toBe(24); // each run after the first found the killed run's lock
  }, 180_000);
});

describe('reading without the lock', () => {
  it('always sees a whole state while another process keeps committing', async () => {
    const tmp = await withTempDir();
    cleanup = tmp.cleanup;
    const child = new StateChild('churn', tmp.statePath, '50');
    await child.waitFor((e) => e.event === 'ready');
    const store = createFileStateStore(tmp.statePath);
    const serials = new Set<number>();
    try {
      for (let i = 0; i < 100; i++) {
        const state = (await store.read(TARGET))!;
        const n = state.resources['tool.counter']?.spec.n;
        // The committed version, or it plus the one journaled entry not yet committed.
        if (n !== undefined) expect([state.serial, state.serial + 1]).toContain(n);
        expect(Object.keys(state.resources).length).toBeGreaterThanOrEqual(50);
        serials.add(state.serial);
      }
    } finally {
      await child.kill();
    }
    expect(serials.size).toBeGreaterThan(1); // the writer really was writing meanwhile
  });
});

describe('journal replay', () => {
  it('folds and commits every entry a killed run recorded', async () => {
    const tmp = await withTempDir();
    cleanup = tmp.cleanup;
    const files = stateFiles(tmp.statePath);
    const child = new StateChild('record', tmp.statePath, '100000');
    await child.waitFor((e) => e.event === 'recorded' && (e.i as number) >= 200);
    await new Promise((resolve) => setTimeout(resolve, Math.random() * 20));
    await child.kill();
    const reported = child.events.filter((e) => e.event === 'recorded').length;
    const before = await readValid(files.state);
    expect(Object.keys(before.resources)).toHaveLength(0); // nothing was committed, only journaled

    const warnings: StateWarning[] = [];
    const session = await createFileStateStore(tmp.statePath, { onWarning: (w) => warnings.push(w) }).open(TARGET);
    const recovered = Object.keys(session.state.resources).length;
    // Every entry reported durable is there; at most the one being appended at the kill is extra.
    expect(recovered).toBeGreaterThanOrEqual(reported);
    expect(recovered).toBeLessThanOrEqual(reported + 1);
    for (let i = 0; i < reported; i++) expect(session.state.resources[`tool.r${i}`]?.spec).toEqual({ i });
    expect(warnings.map((w) => w.code)).toContain('journal_recovered');
    expect(warnings.map((w) => w.code)).toContain('stale_lock_taken_over');

    // open committed the recovered entries and dropped the journal
    const after = await readValid(files.state);
    expect(after.serial).toBe(before.serial + 1);
    expect(Object.keys(after.resources)).toHaveLength(recovered);
    await expect(stat(files.journal)).rejects.toMatchObject({ code: 'ENOENT' });
    await session.close();
  });
});
