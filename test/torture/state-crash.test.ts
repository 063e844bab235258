// Crash safety with real processes, once per backend: a writer SIGKILLed at random instants never
// leaves a broken state, and results recorded before a kill are all there on the next open.
// (In the torture suite: 31 SIGKILLed writers are a third of a minute of one core, the longest file npm test had.)
import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkStateText, stateFiles, type StateWarning } from '../../src/io/state/index.js';
import { backends } from '../support/state-backends.js';
import { assertBuilt, StateChild, TARGET } from '../io/state/helpers.js';

beforeAll(assertBuilt);

const BACKENDS = backends();
afterAll(async () => {
  await Promise.all(BACKENDS.map((b) => b.stop()));
});

async function readValid(file: string) {
  const checked = checkStateText(await readFile(file, 'utf8'));
  if ('problem' in checked) throw new Error(`${file}: ${checked.problem}`);
  return checked.state;
}

describe.each(BACKENDS)('$name: SIGKILL while writing', (backend) => {
  // A database write is one transaction; a few kills show it, the file needs more instants.
  const kills = backend.name === 'file' ? 25 : 6;
  it(`leaves a whole old-or-new state after each of ${kills} SIGKILLs during a commit loop`, async () => {
    const place = await backend.fresh();
    let lastSerial = -1;
    let takeovers = 0;
    for (let kill = 0; kill < kills; kill++) {
      const child = new StateChild('churn', place.location, '250', place.key); // ~110 kB per version
      const ready = await child.waitFor((e) => e.event === 'ready');
      takeovers += (ready.warnings as StateWarning[]).filter((w) => w.code === 'stale_lock_taken_over').length;
      // At least 15 ms of churn first, so that a slow disk still writes between kills; then a random
      // instant within the next 40 ms, to land anywhere in a write.
      await new Promise((resolve) => setTimeout(resolve, 15 + Math.random() * 40));
      await child.kill();

      const state = (await place.raw.committed())!;
      expect(state.serial).toBeGreaterThanOrEqual(lastSerial); // never rolled back to an older version
      const counter = state.resources['tool.counter'];
      if (counter) expect(counter.spec.n).toBe(state.serial); // every version is internally whole
      if (backend.name === 'file') {
        const backup = await readValid(stateFiles(place.location).backup);
        expect(backup.lineage).toBe(state.lineage);
        expect(backup.serial).toBeLessThanOrEqual(state.serial);
      }
      lastSerial = state.serial;
    }
    expect(lastSerial).toBeGreaterThan(kills); // the loop really wrote between kills
    // A file lock outlives its process and is taken over; an advisory lock dies with the session.
    expect(takeovers).toBe(backend.name === 'file' ? kills - 1 : 0);
  }, 180_000);
});

describe.each(BACKENDS)('$name: reading without the lock', (backend) => {
  it('always sees a whole state while another process keeps committing', async () => {
    const place = await backend.fresh();
    const child = new StateChild('churn', place.location, '50', place.key);
    await child.waitFor((e) => e.event === 'ready');
    const serials = new Set<number>();
    const reads = backend.name === 'file' ? 100 : 30; // each PostgreSQL read is a new login
    // At least that many reads, and on until the writer has committed meanwhile: on a loaded
    // machine the child can be starved for the whole of 100 quick reads (seen once in a full run).
    const until = Date.now() + 20_000;
    try {
      for (let i = 0; i < reads || (serials.size < 2 && Date.now() < until); i++) {
        const state = (await place.store.read(TARGET))!;
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

describe.each(BACKENDS)('$name: journal replay', (backend) => {
  it('folds and commits every entry a killed run recorded', async () => {
    const place = await backend.fresh();
    const child = new StateChild('record', place.location, '100000', place.key);
    await child.waitFor((e) => e.event === 'recorded' && (e.i as number) >= 200);
    await new Promise((resolve) => setTimeout(resolve, Math.random() * 20));
    await child.kill();
    const reported = child.events.filter((e) => e.event === 'recorded').length;
    const before = (await place.raw.committed())!;
    expect(Object.keys(before.resources)).toHaveLength(0); // nothing was committed, only journaled
    expect(await place.raw.journalLength()).toBeGreaterThanOrEqual(reported);

    const warnings: StateWarning[] = [];
    const session = await place.reopen({ onWarning: (w) => warnings.push(w) }).open(TARGET);
    const recovered = Object.keys(session.state.resources).length;
    // Every entry reported durable is there; at most the batch on its way at the kill is extra.
    expect(recovered).toBeGreaterThanOrEqual(reported);
    expect(recovered).toBeLessThanOrEqual(reported + 1);
    for (let i = 0; i < reported; i++) expect(session.state.resources[`tool.r${i}`]?.spec).toEqual({ i });
    expect(warnings.map((w) => w.code)).toContain('journal_recovered');
    if (backend.name === 'file') expect(warnings.map((w) => w.code)).toContain('stale_lock_taken_over');

    // open committed the recovered entries and dropped the journal
    const after = (await place.raw.committed())!;
    expect(after.serial).toBe(before.serial + 1);
    expect(Object.keys(after.resources)).toHaveLength(recovered);
    expect(await place.raw.journalLength()).toBe(0);
    await session.close();
  });
});
