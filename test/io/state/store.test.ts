// The state stores in-process. The rules every backend keeps (serial, lineage, durable recording
// without rewriting the state, read() without writing) run once per backend; the file backend's
// own rules (modes, backup, inode) follow.
import { lstat, readFile, readdir, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { UserError } from '../../../src/core/errors.js';
import { createFileStateStore, defaultStatePath, stateFiles } from '../../../src/io/state/index.js';
import { backends } from '../../support/state-backends.js';
import { applied, TARGET, withTempDir } from './helpers.js';

let cleanup: (() => Promise<void>) | undefined;
afterEach(async () => {
  await cleanup?.();
  cleanup = undefined;
});

const BACKENDS = backends();
afterAll(async () => {
  await Promise.all(BACKENDS.map((b) => b.stop()));
});

describe.each(BACKENDS)('$name state store', (backend) => {
  it('stores nothing for a session that recorded nothing', async () => {
    const { store, raw } = await backend.fresh();
    expect(await store.read(TARGET)).toBeNull();
    const session = await store.open(TARGET, { salt: 'c2FsdHNhbHRzYWx0c2FsdA==' });
    expect(session.state).toMatchObject({ serial: 0, salt: 'c2FsdHNhbHRzYWx0c2FsdA==', resources: {}, ...TARGET });
    await session.close();
    expect(await raw.committed()).toBeNull();
    expect(await store.read(TARGET)).toBeNull();
  });

  it('bumps serial only when the content changes', async () => {
    const { store, raw } = await backend.fresh();
    let session = await store.open(TARGET);
    await session.record(applied('tool.a', { v: 1 }));
    await session.close();
    const v1 = await raw.committed();
    expect(v1?.serial).toBe(1);

    session = await store.open(TARGET);
    await session.record(applied('tool.a', { v: 1 })); // same content again
    await session.close();
    expect(await raw.committed()).toEqual(v1);
    expect(await raw.journalLength()).toBe(0);

    session = await store.open(TARGET);
    await session.record(applied('tool.a', { v: 2 }));
    await session.commit();
    expect((await raw.committed())?.serial).toBe(2);
    await session.record({ op: 'forgotten', address: 'tool.a' });
    await session.close();
    expect((await raw.committed())?.serial).toBe(3);
    expect((await store.read(TARGET))?.resources).toEqual({});
  });

  it('commits each record before it resolves, without rewriting the state (1,000 concurrent records)', async () => {
    const { store, raw } = await backend.fresh();
    const session = await store.open(TARGET);
    for (let i = 0; i < 200; i++) await session.record(applied(`tool.big${i}`, { pad: 'x'.repeat(500) }));
    await session.commit();
    const before = await raw.committed();
    const records = Array.from({ length: 1000 }, (_, i) => session.record(applied(`tool.n${i}`, { i })));
    await Promise.all(records); // concurrent, as the executor does
    expect(await raw.committed()).toEqual(before);
    expect(await raw.journalLength()).toBe(1000);
    expect(Object.keys(session.state.resources)).toHaveLength(1200);
    await session.close();
    expect(Object.keys((await store.read(TARGET))!.resources)).toHaveLength(1200);
    expect(await raw.journalLength()).toBe(0);
    expect((await raw.committed())?.serial).toBe(before!.serial + 1);
  });

  it('read() folds a leftover journal in memory and writes nothing', async () => {
    const { store, raw } = await backend.fresh();
    const session = await store.open(TARGET);
    await session.record(applied('tool.a'));
    await session.commit();
    await session.record(applied('tool.b'));
    // The session is still open (as if its process had died): read sees both, changes nothing.
    const committed = await raw.committed();
    const seen = await store.read(TARGET);
    expect(Object.keys(seen!.resources).sort()).toEqual(['tool.a', 'tool.b']);
    expect(await raw.committed()).toEqual(committed);
    expect(await raw.journalLength()).toBe(1);
    await session.close();
  });

  it('keeps the lineage and salt across sessions', async () => {
    const { store } = await backend.fresh();
    const session = await store.open(TARGET);
    await session.record(applied('tool.a'));
    const { lineage, salt } = session.state;
    await session.close();
    const again = await store.open(TARGET, { salt: 'b3RoZXJzYWx0b3RoZXJzYWx0' });
    expect(again.state).toMatchObject({ lineage, salt });
    await again.close();
  });

  it('refuses a state that belongs to another environment, for read and open alike', async () => {
    const { store, raw } = await backend.fresh();
    const session = await store.open(TARGET);
    await session.record(applied('tool.a'));
    await session.close();
    const before = await raw.committed();
    for (const attempt of [() => store.read({ ...TARGET, appId: 'other' }), () => store.open({ ...TARGET, region: 'eu' })]) {
      const err = await attempt().catch((e: unknown) => e);
      expect(err).toBeInstanceOf(UserError);
      expect(err).toMatchObject({ code: 'state_invalid' });
      expect((err as Error).message).toContain('belongs to environment "local"');
    }
    expect(await raw.committed()).toEqual(before);
  });

  it('copyFrom stores a state exactly (lineage, serial) and replaces a non-empty one only with force', async () => {
    const source = await backend.fresh();
    let session = await source.store.open(TARGET);
    for (const address of ['tool.a', 'tool.b']) {
      await session.record(applied(address));
      await session.commit();
    }
    await session.close();
    const copied = (await source.store.read(TARGET))!;
    expect(copied.serial).toBe(2);

    const destination = await backend.fresh();
    await destination.store.copyFrom(copied);
    expect(await destination.raw.committed()).toEqual(copied);

    session = await destination.store.open(TARGET);
    await session.record(applied('tool.c'));
    await session.close();
    const refused = await destination.store.copyFrom(copied).catch((e: unknown) => e);
    expect(refused).toMatchObject({ code: 'refused' });
    expect((refused as Error).message).toMatch(/already holds a state with 3 resources .*pass --force/);
    await destination.store.copyFrom(copied, { force: true });
    expect(await destination.raw.committed()).toEqual(copied);
  });
});

async function setup() {
  const tmp = await withTempDir();
  cleanup = tmp.cleanup;
  return { ...tmp, files: stateFiles(tmp.statePath), store: createFileStateStore(tmp.statePath) };
}

const mode = async (file: string) => (await stat(file)).mode & 0o777;
const serialOf = async (file: string) => (JSON.parse(await readFile(file, 'utf8')) as { serial: number }).serial;

describe('file state store: files on disk', () => {
  it('puts the default state in .agentsync/ beside the manifest', () => {
    expect(defaultStatePath(path.join('proj', 'agents.yaml'), 'prod')).toBe(path.join('proj', '.agentsync', 'prod.state.json'));
    expect(defaultStatePath('agents.yaml', 'local')).toBe(path.join('.agentsync', 'local.state.json'));
    expect(() => defaultStatePath('agents.yaml', '../x')).toThrow(/cannot be used in a file name/);
  });

  it('leaves only an empty folder (mode 0700) after a session that recorded nothing', async () => {
    const { store, statePath } = await setup();
    const session = await store.open(TARGET);
    await session.close();
    expect(await readdir(path.dirname(statePath))).toEqual([]);
    expect(await mode(path.dirname(statePath))).toBe(0o700);
  });

  it('writes state, backup and journal with mode 0600', async () => {
    const { store, files } = await setup();
    const session = await store.open(TARGET);
    await session.record(applied('tool.a'));
    expect(await mode(files.journal)).toBe(0o600);
    await session.commit();
    await session.record(applied('tool.b'));
    await session.close();
    expect(await mode(files.state)).toBe(0o600);
    expect(await mode(files.backup)).toBe(0o600);
    expect(await readdir(path.dirname(files.state))).toEqual(['local.state.json', 'local.state.json.backup']);
  });

  it('bumps serial only when the content changes, keeping the previous version as backup', async () => {
    const { store, files } = await setup();
    let session = await store.open(TARGET);
    await session.record(applied('tool.a', { v: 1 }));
    await session.close();
    expect(await serialOf(files.state)).toBe(1);
    const v1 = await readFile(files.state, 'utf8');

    session = await store.open(TARGET);
    await session.record(applied('tool.a', { v: 1 })); // same content again
    await session.close();
    expect(await readFile(files.state, 'utf8')).toBe(v1);

    session = await store.open(TARGET);
    await session.record(applied('tool.a', { v: 2 }));
    await session.commit();
    expect(await serialOf(files.state)).toBe(2);
    expect(await readFile(files.backup, 'utf8')).toBe(v1);
    await session.record({ op: 'forgotten', address: 'tool.a' });
    await session.close();
    expect(await serialOf(files.state)).toBe(3);
    expect(await serialOf(files.backup)).toBe(2);
    expect((await store.read(TARGET))?.resources).toEqual({});
  });

  it('records without rewriting the state file (1,000 records, same inode, mtime and size)', async () => {
    const { store, files } = await setup();
    const session = await store.open(TARGET);
    for (let i = 0; i < 200; i++) await session.record(applied(`tool.big${i}`, { pad: 'x'.repeat(500) }));
    await session.commit();
    const before = await lstat(files.state, { bigint: true });
    const records = Array.from({ length: 1000 }, (_, i) => session.record(applied(`tool.n${i}`, { i })));
    await Promise.all(records); // concurrent, as the executor does
    const after = await lstat(files.state, { bigint: true });
    expect([after.ino, after.mtimeNs, after.size]).toEqual([before.ino, before.mtimeNs, before.size]);
    expect((await readFile(files.journal, 'utf8')).split('\n')).toHaveLength(1001);
    expect(Object.keys(session.state.resources)).toHaveLength(1200);
    await session.close();
    expect(Object.keys((await store.read(TARGET))!.resources)).toHaveLength(1200);
    await expect(stat(files.journal)).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('read() leaves the state and journal files byte for byte', async () => {
    const { store, files } = await setup();
    const session = await store.open(TARGET);
    await session.record(applied('tool.a'));
    await session.commit();
    await session.record(applied('tool.b'));
    // The session is still open (as if its process had died): read sees both, changes nothing.
    const stateBytes = await readFile(files.state);
    const journalBytes = await readFile(files.journal);
    const seen = await store.read(TARGET);
    expect(Object.keys(seen!.resources).sort()).toEqual(['tool.a', 'tool.b']);
    expect(await readFile(files.state)).toEqual(stateBytes);
    expect(await readFile(files.journal)).toEqual(journalBytes);
    await session.close();
  });

  it('ignores a torn last journal line, with a warning', async () => {
    const { files, statePath } = await setup();
    const warnings: string[] = [];
    const store = createFileStateStore(statePath, { onWarning: (w) => warnings.push(w.code) });
    const session = await store.open(TARGET);
    await session.record(applied('tool.a'));
    await session.record(applied('tool.b'));
    const journal = await readFile(files.journal, 'utf8');
    await writeFile(files.journal, journal + '{"op":"applied","address":"tool.c","ty');
    const recovered = await createFileStateStore(statePath, { onWarning: (w) => warnings.push(w.code) }).read(TARGET);
    expect(Object.keys(recovered!.resources).sort()).toEqual(['tool.a', 'tool.b']);
    // the session's own lock is still there, so hand the file over by closing it first
    await session.close();
    await writeFile(files.journal, journal + '{"op":"applied","address":"tool.c","ty');
    const reopened = await store.open(TARGET);
    // The read (plan) warns as the open (apply) does; each store warns once.
    expect(warnings).toEqual(['journal_torn_tail', 'journal_torn_tail', 'journal_recovered']);
    expect(Object.keys(reopened.state.resources).sort()).toEqual(['tool.a', 'tool.b']);
    await reopened.close();
    await expect(stat(files.journal)).rejects.toMatchObject({ code: 'ENOENT' });
  });
});
