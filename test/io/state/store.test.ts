// The file store in-process: modes, serial and backup rules, O(1) recording, and read().
import { lstat, readFile, readdir, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createFileStateStore, defaultStatePath, stateFiles } from '../../../src/io/state/index.js';
import { applied, TARGET, withTempDir } from './helpers.js';

let cleanup: (() => Promise<void>) | undefined;
afterEach(async () => {
  await cleanup?.();
  cleanup = undefined;
});

async function setup() {
  const tmp = await withTempDir();
  cleanup = tmp.cleanup;
  return { ...tmp, files: stateFiles(tmp.statePath), store: createFileStateStore(tmp.statePath) };
}

const mode = async (file: string) => (await stat(file)).mode & 0o777;
const serialOf = async (file: string) => (JSON.parse(await readFile(file, 'utf8')) as { serial: number }).serial;

describe('file state store', () => {
  it('puts the default state in .agentsync/ beside the manifest', () => {
    expect(defaultStatePath(path.join('proj', 'agents.yaml'), 'prod')).toBe(path.join('proj', '.agentsync', 'prod.state.json'));
    expect(defaultStatePath('agents.yaml', 'local')).toBe(path.join('.agentsync', 'local.state.json'));
    expect(() => defaultStatePath('agents.yaml', '../x')).toThrow(/cannot be used in a file name/);
  });

  it('creates nothing for a session that recorded nothing', async () => {
    const { store, statePath } = await setup();
    expect(await store.read(TARGET)).toBeNull();
    const session = await store.open(TARGET, { salt: 'c2FsdHNhbHRzYWx0c2FsdA==' });
    expect(session.state).toMatchObject({ serial: 0, salt: 'c2FsdHNhbHRzYWx0c2FsdA==', resources: {}, ...TARGET });
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

  it('read() folds a leftover journal in memory and writes nothing', async () => {
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
    expect(warnings).toEqual(['journal_torn_tail', 'journal_recovered']);
    expect(Object.keys(reopened.state.resources).sort()).toEqual(['tool.a', 'tool.b']);
    await reopened.close();
    await expect(stat(files.journal)).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('keeps the lineage and salt across sessions', async () => {
    const { store } = await setup();
    const session = await store.open(TARGET);
    await session.record(applied('tool.a'));
    const { lineage, salt } = session.state;
    await session.close();
    const again = await store.open(TARGET, { salt: 'b3RoZXJzYWx0b3RoZXJzYWx0' });
    expect(again.state).toMatchObject({ lineage, salt });
    await again.close();
  });
});
