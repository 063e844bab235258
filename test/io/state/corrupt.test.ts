// A damaged or foreign state is refused with a clear error and never written to, not even the
// journal or the backup.
import { readdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { UserError } from '../../../src/core/errors.js';
import { assertTargetMatches, createFileStateStore, stateFiles, type StateTarget } from '../../../src/io/state/index.js';
import { applied, TARGET, withTempDir } from './helpers.js';

let cleanup: (() => Promise<void>) | undefined;
afterEach(async () => {
  await cleanup?.();
  cleanup = undefined;
});

/** A state at serial 2 with a backup at serial 1. */
async function validState() {
  const tmp = await withTempDir();
  cleanup = tmp.cleanup;
  const store = createFileStateStore(tmp.statePath);
  for (const address of ['tool.a', 'tool.b']) {
    const session = await store.open(TARGET);
    await session.record(applied(address));
    await session.close();
  }
  return { ...tmp, store, files: stateFiles(tmp.statePath), text: await readFile(tmp.statePath, 'utf8') };
}

async function snapshot(dir: string): Promise<Record<string, string>> {
  const names = await readdir(dir);
  return Object.fromEntries(await Promise.all(names.map(async (n) => [n, await readFile(path.join(dir, n), 'base64')] as const)));
}

async function expectRefused(statePath: string, target: StateTarget, why: RegExp, { backupAdvice = true } = {}): Promise<void> {
  const dir = path.dirname(statePath);
  const before = await snapshot(dir);
  const store = createFileStateStore(statePath);
  for (const attempt of [() => store.open(target), () => store.read(target)]) {
    const err = await attempt().then(
      () => null,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(UserError);
    expect((err as UserError).code).toBe('state_invalid');
    const message = (err as UserError).message;
    expect(message).toContain(`state file ${statePath} cannot be used`);
    expect(message).toMatch(why);
    // A damaged state names its backup; a sound state of another target has nothing to restore.
    if (backupAdvice) expect(message).toContain(`${statePath}.backup`);
    else expect(message).not.toContain('.backup');
    expect(message).toContain('left unchanged');
    expect(await snapshot(dir)).toEqual(before); // byte for byte, and no lock left behind
  }
}

describe('damaged state files', () => {
  const cases: [string, (text: string) => string, RegExp][] = [
    ['corrupt JSON', () => '{"version": 1, "lineage": ', /not valid JSON/],
    ['truncated', (text) => text.slice(0, Math.floor(text.length / 2)), /not valid JSON.*truncated/],
    ['empty', () => '', /empty/],
    ['not an object', () => '[1,2]\n', /not a JSON object/],
    ['a newer version', (text) => text.replace('"version": 1', '"version": 2'), /version 2, written by a newer agentsync/],
    ['a missing version', (text) => text.replace('"version": 1,', ''), /unknown state version undefined/],
    ['a hand-edited resource', (text) => text.replace('"remoteId": "id-tool.a",', ''), /resources\."tool\.a"\.remoteId/],
    ['an unknown key', (text) => text.replace('"serial": 2,', '"serial": 2, "seriall": 3,'), /does not match the state format/],
    ['a negative serial', (text) => text.replace('"serial": 2', '"serial": -1'), /serial/],
  ];
  it.each(cases)('refuses %s without touching any file', async (_name, damage, why) => {
    const { statePath, text } = await validState();
    await writeFile(statePath, damage(text));
    await expectRefused(statePath, TARGET, why);
  });

  it.each([
    ['environment', { ...TARGET, environment: 'prod' }],
    ['appId', { ...TARGET, appId: 'other-app' }],
    ['region', { ...TARGET, region: 'eu' as const }],
  ])('refuses a state that belongs to another %s', async (field, target) => {
    const { statePath } = await validState();
    await expectRefused(statePath, target, new RegExp(`belongs to environment "local" \\(appId local, region us\\).*${field}.*(own state file|new --state path)`), { backupAdvice: false });
  });

  it('refuses a journal with a damaged line before its end', async () => {
    const { statePath, files } = await validState();
    const good = JSON.stringify(applied('tool.c'));
    await writeFile(files.journal, `${good}\nnot json\n${good}\n`);
    await expectRefused(statePath, TARGET, /journal .* damaged line 2/);
  });

  it('refuses a journal whose state file is gone', async () => {
    const { statePath, files } = await validState();
    await rm(statePath);
    await writeFile(files.journal, JSON.stringify(applied('tool.c')) + '\n');
    await expectRefused(statePath, TARGET, /missing, but its journal/);
  });

  it('says when there is no backup to restore', async () => {
    const { statePath, files } = await validState();
    await rm(files.backup);
    await writeFile(statePath, '{');
    const err = (await createFileStateStore(statePath)
      .read(TARGET)
      .catch((e: unknown) => e)) as UserError;
    expect(err.message).toContain(`There is no ${statePath}.backup to restore from`);
  });

  it('exposes the target check for states loaded elsewhere', async () => {
    const { store, statePath } = await validState();
    const state = (await store.read({}))!;
    expect(() => assertTargetMatches(state, { environment: 'local' }, statePath)).not.toThrow();
    expect(() => assertTargetMatches(state, { region: 'in' }, statePath)).toThrow(/belongs to environment "local"/);
  });
});
