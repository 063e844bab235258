// What only the PostgreSQL backend has: tables created on first use (also by racing first users),
// records grouped into few transactions, damaged rows refused, one clear line without the password
// for every connection failure, and a connection lost in the middle of a session.
import { afterAll, describe, expect, it } from 'vitest';
import { UserError } from '../../../src/core/errors.js';
import { createStateStore } from '../../../src/io/state/index.js';
import { postgresBackend } from '../../support/state-backends.js';
import { applied, TARGET } from './helpers.js';

const backend = postgresBackend();
afterAll(() => backend.stop());

async function failure(promise: Promise<unknown>): Promise<UserError> {
  const err = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(UserError);
  return err as UserError;
}

describe('postgres state store', () => {
  it('creates its tables once when many first uses race, and a plain read creates nothing', async () => {
    const server = await backend.server();
    const url = await server.createDatabase('race_ddl');
    expect(await createStateStore(url, { key: 'x' }).read(TARGET)).toBeNull();
    const tables = async () => (await server.admin("SELECT count(*)::int AS n FROM pg_tables WHERE tablename LIKE 'agentsync_%'", 'race_ddl')).rows[0].n as number;
    expect(await tables()).toBe(0);

    const sessions = await Promise.all(Array.from({ length: 8 }, (_, i) => createStateStore(url, { key: `env-${i}` }).open({ ...TARGET, environment: `env-${i}` })));
    await Promise.all(sessions.map((s, i) => s.record(applied(`tool.t${i}`))));
    await Promise.all(sessions.map((s) => s.close()));
    expect(await tables()).toBe(3);
    const states = await server.admin('SELECT key, serial FROM agentsync_states ORDER BY key', 'race_ddl');
    expect(states.rows).toEqual(Array.from({ length: 8 }, (_, i) => ({ key: `env-${i}`, serial: '1' })));
  });

  it('groups concurrent records into a few transactions, each committed before its records resolve', async () => {
    const { store, key } = await backend.fresh();
    const session = await store.open(TARGET);
    await Promise.all(Array.from({ length: 1000 }, (_, i) => session.record(applied(`tool.n${i}`, { i }))));
    // Rows written by one INSERT share its transaction id (xmin).
    const [row] = await backend.query<{ rows: string; transactions: string }>('SELECT count(*) AS rows, count(DISTINCT xmin::text) AS transactions FROM agentsync_journal WHERE key = $1', [key]);
    expect(Number(row!.rows)).toBe(1000);
    expect(Number(row!.transactions)).toBeLessThanOrEqual(10);
    await session.close();
  });

  it('names the state by its URL with the password masked, and the key', async () => {
    const { store, key } = await backend.fresh();
    const server = await backend.server();
    expect(store.location).toBe(`postgres://${server.user}:***@127.0.0.1:${server.port}/${server.database} (key "${key}")`);
    expect(store.location).not.toContain(server.password);
  });

  it.each([
    ['a damaged state row', `UPDATE agentsync_states SET body = '{"version":1,' WHERE key = $1`, /cannot be used: it is not valid JSON/],
    ['a damaged journal row', `INSERT INTO agentsync_journal (key, entry) VALUES ($1, '{"op":"applied"}')`, /journal row 1 of key "[^"]+" in agentsync_journal is not a journal entry/],
    ['journal rows without a state row', `DELETE FROM agentsync_states WHERE key = $1; `, /no row for key "[^"]+" in agentsync_states, but agentsync_journal holds 1 result recorded/],
  ])('refuses %s and writes nothing', async (_name, damage, why) => {
    const { store, key } = await backend.fresh();
    const session = await store.open(TARGET);
    await session.record(applied('tool.a'));
    await session.close();
    if (damage.startsWith('DELETE')) await backend.query(`INSERT INTO agentsync_journal (key, entry) VALUES ($1, $2)`, [key, JSON.stringify(applied('tool.b'))]);
    await backend.query(damage.trim().replace(/;$/, ''), [key]);
    const snapshot = async () =>
      backend.query('SELECT s.body, (SELECT array_agg(entry ORDER BY seq) FROM agentsync_journal j WHERE j.key = $1) AS j FROM (SELECT $1::text AS key) k LEFT JOIN agentsync_states s USING (key)', [
        key,
      ]);
    const before = await snapshot();
    for (const attempt of [() => store.read(TARGET), () => store.open(TARGET)]) {
      const err = await failure(attempt());
      expect(err.code).toBe('state_invalid');
      expect(err.message).toMatch(why);
      expect(err.message).toContain('It was left unchanged');
    }
    expect(await snapshot()).toEqual(before);
  });

  it('gives one clear line without the password for a wrong password, a missing database and a refused connection', async () => {
    const server = await backend.server();
    const cases: [string, RegExp][] = [
      [server.url({ password: 'wrong-Pa55word' }), /refused the login: password authentication failed for user "agentsync"/],
      [server.url({ database: 'no_such_db' }), /database "no_such_db" does not exist; create it first/],
      [server.url({ port: 1 }), /connection refused/],
    ];
    for (const [url, why] of cases) {
      for (const attempt of [(s: ReturnType<typeof createStateStore>) => s.read(TARGET), (s: ReturnType<typeof createStateStore>) => s.open(TARGET)]) {
        const err = await failure(attempt(createStateStore(url, { key: 'k' })));
        expect(err.code).toBe('state_unavailable');
        expect(err.message).toMatch(why);
        expect(err.message).not.toMatch(/wrong-Pa55word|pg-pass/);
        expect(err.message).not.toContain('\n');
        expect(JSON.stringify(err.details)).not.toMatch(/wrong-Pa55word|pg-pass/);
      }
    }
  });

  it('after the connection is lost mid-session, records fail clearly and everything recorded before survives', async () => {
    const { store, reopen } = await backend.fresh();
    const session = await store.open(TARGET);
    await Promise.all(Array.from({ length: 50 }, (_, i) => session.record(applied(`tool.r${i}`))));
    const server = await backend.server();
    expect(await server.terminate('agentsync')).toBeGreaterThanOrEqual(1);

    const err = await failure(session.record(applied('tool.lost')));
    expect(err.code).toBe('state_unavailable');
    expect(err.message).toMatch(/^lost the connection to the PostgreSQL state at postgres:\/\/agentsync:\*\*\*@.*every result recorded before this point is kept/);
    const closing = await failure(session.close()); // never hangs; the same one line
    expect(closing.code).toBe('state_unavailable');

    const warnings: string[] = [];
    const recovered = await reopen({ onWarning: (w) => warnings.push(w.code) }).open(TARGET);
    expect(Object.keys(recovered.state.resources)).toHaveLength(50);
    expect(warnings).toEqual(['journal_recovered']);
    await recovered.close();
  });
});
