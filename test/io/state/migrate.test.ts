// `state migrate` between backends, in-process: file → PostgreSQL → file keeps the state whole
// (lineage, serial, salt, resources, pending), and the refusals leave both sides untouched.
import { afterAll, describe, expect, it } from 'vitest';
import { migrateState } from '../../../src/io/state/migrate.js';
import { backends, type Backend } from '../../support/state-backends.js';
import { applied, TARGET } from './helpers.js';

const BACKENDS = backends();
afterAll(async () => {
  await Promise.all(BACKENDS.map((b) => b.stop()));
});
const [file, postgres] = BACKENDS as [Backend, Backend];

async function seeded(backend: Backend) {
  const place = await backend.fresh();
  const session = await place.store.open(TARGET);
  await session.record(applied('tool.a'));
  await session.commit();
  await session.record(applied('tool.b', { v: 2 }));
  await session.record({ op: 'pending', address: 'agent.x', type: 'agent', since: '2026-01-01T00:00:00.000Z' });
  await session.close();
  return place;
}

describe('state migrate', () => {
  it.each([
    ['file', 'postgres'],
    ['postgres', 'file'],
  ] as const)('copies %s → %s with lineage and serial kept', async (from, to) => {
    const source = await seeded(from === 'file' ? file : postgres);
    const destination = await (to === 'file' ? file : postgres).fresh();
    const original = (await source.raw.committed())!;
    expect(original.serial).toBe(2);

    const result = await migrateState(source.store, destination.store, TARGET, {});
    expect(result).toMatchObject({ environment: 'local', lineage: original.lineage, serial: 2, resources: 2, pending: 1 });
    expect(await destination.raw.committed()).toEqual(original);
    expect(await source.raw.committed()).toEqual(original); // the source is left as it was

    // The copy is a working state: the next change bumps its serial from there.
    const session = await destination.store.open(TARGET);
    await session.record({ op: 'forgotten', address: 'tool.a' });
    await session.close();
    expect((await destination.raw.committed())?.serial).toBe(3);
  });

  it('refuses a destination that already holds resources unless forced, and a missing source', async () => {
    const source = await seeded(file);
    const destination = await seeded(postgres);
    const theirs = await destination.raw.committed();
    await expect(migrateState(source.store, destination.store, TARGET, {})).rejects.toMatchObject({
      code: 'refused',
      message: expect.stringMatching(/already holds a state with 2 resources and 1 pending create .*--force/) as unknown,
    });
    expect(await destination.raw.committed()).toEqual(theirs);
    await migrateState(source.store, destination.store, TARGET, { force: true });
    expect(await destination.raw.committed()).toEqual(await source.raw.committed());

    const empty = await postgres.fresh();
    await expect(migrateState(empty.store, (await file.fresh()).store, TARGET, {})).rejects.toMatchObject({
      code: 'usage',
      message: expect.stringMatching(/^no state at postgres:\/\/.*nothing to migrate/) as unknown,
    });
    await expect(migrateState(source.store, source.reopen(), TARGET, {})).rejects.toMatchObject({ code: 'usage' });
  });
});
