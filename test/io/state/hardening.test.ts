// The file store against hostile or broken surroundings, in-process: journal lineage, lock debris,
// temporary files, a symlinked or directory state path, and a write that fails half-way.
import { lstat, mkdir, readdir, readFile, rm, stat, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { UserError } from '../../../src/core/errors.js';
import { createFileStateStore, stateFiles, type StateWarning } from '../../../src/io/state/index.js';
import { applied, TARGET, withTempDir } from './helpers.js';

let cleanup: (() => Promise<void>) | undefined;
afterEach(async () => {
  await cleanup?.();
  cleanup = undefined;
});

async function stateWith(addresses: string[]) {
  const tmp = await withTempDir();
  cleanup = tmp.cleanup;
  const warnings: StateWarning[] = [];
  const store = createFileStateStore(tmp.statePath, { onWarning: (w) => warnings.push(w) });
  const session = await store.open(TARGET);
  for (const address of addresses) await session.record(applied(address));
  await session.close();
  return { ...tmp, store, warnings, files: stateFiles(tmp.statePath) };
}

async function lineageOf(file: string): Promise<string> {
  return (JSON.parse(await readFile(file, 'utf8')) as { lineage: string }).lineage;
}

async function refusal(promise: Promise<unknown>): Promise<UserError> {
  const err = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(UserError);
  return err as UserError;
}

describe('journal lineage', () => {
  it('writes the state lineage on every journal line', async () => {
    const { store, files } = await stateWith(['tool.a']);
    const session = await store.open(TARGET);
    await session.record(applied('tool.b'));
    await session.record(applied('tool.c'));
    const lines = (await readFile(files.journal, 'utf8'))
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    const lineage = await lineageOf(files.state);
    expect(lines.map((l) => l.lineage)).toEqual([lineage, lineage]);
    expect(lines[0]).toMatchObject({ op: 'applied', address: 'tool.b' });
    await session.close();
  });

  it('refuses a journal line from another state and writes nothing', async () => {
    const { store, files, dir } = await stateWith(['tool.a']);
    const foreign = JSON.stringify({ lineage: 'another-lineage', ...applied('tool.x') });
    await writeFile(files.journal, `${foreign}\n`);
    const before = await readFile(files.state, 'utf8');
    for (const attempt of [() => store.open(TARGET), () => store.read(TARGET)]) {
      const err = await refusal(attempt());
      expect(err.message).toContain(`journal ${files.journal} belongs to another state (lineage another-lineage)`);
      expect(err.message).toContain(`not to ${files.state} (lineage ${await lineageOf(files.state)})`);
      expect(err.message).toContain('nothing was folded or written');
    }
    expect(await readFile(files.state, 'utf8')).toBe(before);
    expect(await readFile(files.journal, 'utf8')).toBe(`${foreign}\n`);
    expect((await readdir(dir)).sort()).toEqual(['.agentsync']);
    expect((await readdir(path.dirname(files.state))).sort()).toEqual(['local.state.json', 'local.state.json.backup', 'local.state.json.journal']);
  });

  it('folds lines without a lineage (written before lineages were recorded) into the state beside them', async () => {
    const { store, files, warnings } = await stateWith(['tool.a']);
    await writeFile(files.journal, JSON.stringify(applied('tool.legacy')) + '\n');
    const session = await store.open(TARGET);
    expect(Object.keys(session.state.resources).sort()).toEqual(['tool.a', 'tool.legacy']);
    expect(warnings.map((w) => w.code)).toContain('journal_recovered');
    await session.close();
  });

  it('names the lineage of a journal whose state is gone, and starts no state from it', async () => {
    const { store, files } = await stateWith(['tool.a']);
    const session = await store.open(TARGET);
    await session.record(applied('tool.b'));
    const lineage = await lineageOf(files.state);
    await rm(files.state);
    await rm(files.backup, { force: true });
    const err = await refusal(createFileStateStore(files.state).read(TARGET));
    expect(err.message).toContain(`state lineage ${lineage}`);
    await expect(stat(files.state)).rejects.toMatchObject({ code: 'ENOENT' });
    await session.close().catch(() => undefined);
  });
});

describe('the state path', () => {
  it('writes through a symlinked state to its target, with backup, journal and lock beside the target', async () => {
    const { files, dir } = await stateWith(['tool.a']);
    const link = path.join(dir, 'link.json');
    await symlink(files.state, link);
    const store = createFileStateStore(link);
    const session = await store.open(TARGET);
    expect((await lstat(files.lock)).isFile()).toBe(true); // the lock is beside the target
    await expect(createFileStateStore(files.state).open(TARGET)).rejects.toMatchObject({ code: 'state_locked' });
    await session.record(applied('tool.b'));
    expect((await lstat(files.journal)).isFile()).toBe(true);
    await session.close();
    expect((await lstat(link)).isSymbolicLink()).toBe(true);
    expect(Object.keys((JSON.parse(await readFile(files.state, 'utf8')) as { resources: object }).resources)).toEqual(['tool.a', 'tool.b']);
    expect((await readdir(dir)).filter((n) => n.startsWith('link.json'))).toEqual(['link.json']);
    expect(await store.read(TARGET)).toMatchObject({ serial: 2 });
  });

  it('refuses a directory, saying so, without naming a backup', async () => {
    const tmp = await withTempDir();
    cleanup = tmp.cleanup;
    await mkdir(tmp.statePath, { recursive: true });
    for (const attempt of [() => createFileStateStore(tmp.statePath).open(TARGET), () => createFileStateStore(tmp.statePath).read(TARGET)]) {
      const err = await refusal(attempt());
      expect(err.message).toContain(`state path ${tmp.statePath} is a directory`);
      expect(err.message).not.toContain('.backup');
    }
    expect(await readdir(path.dirname(tmp.statePath))).toEqual(['local.state.json']);
  });
});

describe('temporary files and failed writes', () => {
  it('leaves no temporary file and an intact state when the backup cannot be replaced', async () => {
    const { store, files } = await stateWith(['tool.a']);
    await rm(files.backup);
    await mkdir(path.join(files.backup, 'blocker'), { recursive: true }); // rename over a non-empty folder fails
    const before = await readFile(files.state, 'utf8');
    const session = await store.open(TARGET);
    await session.record(applied('tool.b'));
    const err = await refusal(session.close());
    expect(err.code).toBe('file_error');
    expect(err.message).toContain(files.backup);
    expect(await readFile(files.state, 'utf8')).toBe(before);
    expect((await readFile(files.journal, 'utf8')).split('\n')).toHaveLength(2); // the result is kept
    expect((await readdir(path.dirname(files.state))).filter((n) => n.includes('.tmp'))).toEqual([]);
    await expect(stat(files.lock)).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('removes temporary files a killed run left beside the state, and only those', async () => {
    const { store, files } = await stateWith(['tool.a']);
    const dir = path.dirname(files.state);
    const debris = [`local.state.json.tmp-0123456789abcdef`, `local.state.json.backup.tmp-fedcba9876543210`];
    const keep = ['local.state.json.tmp', 'local.state.json.tmp-notours', 'other.json.tmp-0123456789abcdef'];
    for (const name of [...debris, ...keep]) await writeFile(path.join(dir, name), 'x');
    await (await store.open(TARGET)).close();
    const names = await readdir(dir);
    for (const name of debris) expect(names).not.toContain(name);
    for (const name of keep) expect(names).toContain(name);
  });
});

describe('lock debris', () => {
  it.each([
    ['an empty', ''],
    ['a torn', '{"pid":4'],
  ])('takes over %s lock with a warning', async (kind, content) => {
    const { store, files, warnings } = await stateWith(['tool.a']);
    await writeFile(files.lock, content);
    const session = await store.open(TARGET);
    expect(warnings.at(-1)).toMatchObject({ code: 'stale_lock_taken_over' });
    expect(warnings.at(-1)!.message).toContain(kind === 'an empty' ? 'was empty' : 'was cut short');
    expect(JSON.parse(await readFile(files.lock, 'utf8'))).toMatchObject({ pid: process.pid });
    await session.close();
  });

  it('refuses a lock that is a symbolic link', async () => {
    const { store, files, dir } = await stateWith(['tool.a']);
    await writeFile(path.join(dir, 'elsewhere'), '');
    await symlink(path.join(dir, 'elsewhere'), files.lock);
    const err = await refusal(store.open(TARGET));
    expect(err.code).toBe('state_locked');
    expect(err.message).toContain(`lock ${files.lock} is not a regular file`);
    expect((await lstat(files.lock)).isSymbolicLink()).toBe(true);
  });
});
