// `state migrate` into a file: the whole state written as it is (lineage and serial kept), under
// the file's lock, with the same atomic write and backup as every other write of the file store.
import { mkdir, unlink } from 'node:fs/promises';
import path from 'node:path';
import type { State } from '../../core/state.js';
import { ignoreCode, replaceStateFile } from './atomic-write.js';
import { assertCopyAllowed } from './copy-guard.js';
import { loadState } from './load.js';
import { acquireLock } from './lock.js';
import { stateFiles } from './paths.js';
import { serializeState } from './serialize.js';
import type { CopyOptions, StateWarning } from './store.js';

export async function copyIntoFile(statePath: string, state: State, opts: CopyOptions, onWarning: (w: StateWarning) => void): Promise<void> {
  const files = stateFiles(statePath);
  await mkdir(path.dirname(statePath), { recursive: true, mode: 0o700 });
  const lock = await acquireLock(files.lock, statePath, onWarning);
  try {
    const existing = await loadState(files, {}, false);
    assertCopyAllowed(existing.folded, statePath, opts.force === true);
    await replaceStateFile(files, serializeState(state), existing.onDisk !== null);
    if (existing.journalExists) await unlink(files.journal).catch(ignoreCode('ENOENT'));
  } finally {
    await lock.release();
  }
}
