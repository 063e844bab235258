// The local state store: `<state>` (JSON, replaced atomically), `<state>.journal` (results
// recorded since the last write), `<state>.lock` and `<state>.backup`, side by side. A symlinked
// state is followed once (resolve.ts): all four live beside its target.
import { mkdir, readdir, unlink } from 'node:fs/promises';
import path from 'node:path';
import { UserError } from '../../core/errors.js';
import { emptyState, type JournalEntry, type State } from '../../core/state.js';
import { isTempNameOf } from '../files/atomic-file.js';
import { fileError, onFile } from '../files/file-errors.js';
import { hasCode, ignoreCode, replaceStateFile } from './atomic-write.js';
import { newLineage, newSalt } from './digest.js';
import { JournalWriter } from './journal.js';
import { loadState } from './load.js';
import { acquireLock, type HeldLock } from './lock.js';
import { stateFiles, type StateFiles } from './paths.js';
import { resolveStatePath } from './resolve.js';
import { JournaledSession } from './journaled-session.js';
import { serializeState } from './serialize.js';
import type { StateStore, StateStoreOptions, StateTarget, StateWarning } from './store.js';
import { countOf } from '../../core/plural.js';

/** `shownAs`: how messages name the state (the path as the user gave it), when `statePath` differs. */
export function createFileStateStore(statePath: string, options: StateStoreOptions & { shownAs?: string } = {}): StateStore {
  const warn = options.onWarning ?? ((_w: StateWarning) => undefined);
  // Reading (plan) and opening (apply) both report a torn last journal line, and a command that
  // does both (apply PLANFILE) reports it once.
  let tornReported = false;
  const reportTornTail = (files: StateFiles): void => {
    if (tornReported) return;
    tornReported = true;
    warn({ code: 'journal_torn_tail', message: `ignored an incomplete last line in ${files.journal}, cut short when a run was killed` });
  };
  return {
    location: options.shownAs ?? statePath,

    async read(target) {
      const files = stateFiles(await resolveStatePath(statePath));
      const loaded = await loadState(files, target, true);
      if (loaded.tornTail) reportTornTail(files);
      return loaded.folded;
    },

    async open(target, opts) {
      const files = stateFiles(await resolveStatePath(statePath));
      await makeStateFolder(path.dirname(files.state));
      const lock = await acquireLock(files.lock, files.state, warn);
      try {
        await removeTempDebris(files.state);
        const loaded = await loadState(files, target, false);
        if (loaded.tornTail) reportTornTail(files);
        const start = loaded.folded ?? emptyState({ ...pickTarget(target), lineage: newLineage(), salt: opts?.salt ?? newSalt() });
        const session = new FileStateSession(files, lock, loaded.onDisk, start, loaded.journalExists);
        if (loaded.journalExists) {
          if (loaded.journalEntries.length > 0) {
            warn({
              code: 'journal_recovered',
              message: `recovered ${countOf(loaded.journalEntries.length, 'result')} recorded by an earlier run that did not finish (${files.journal})`,
            });
          }
          await session.commit();
        }
        return session;
      } catch (err) {
        await lock.release();
        throw err;
      }
    },
  };
}

async function makeStateFolder(dir: string): Promise<void> {
  try {
    await mkdir(dir, { recursive: true, mode: 0o700 });
  } catch (err) {
    if (hasCode(err, 'EEXIST')) throw new UserError('file_error', `cannot use ${dir} as the state's folder: it is not a folder`, { file: dir });
    throw fileError(err, dir, 'write');
  }
}

/**
 * Temporary files a killed run left beside the state (their random names never collide, so
 * nothing else would remove them). Only called under the lock: no other run is writing them.
 */
async function removeTempDebris(state: string): Promise<void> {
  const dir = path.dirname(state);
  const bases = [path.basename(state), `${path.basename(state)}.backup`];
  const names = await readdir(dir).catch(() => [] as string[]);
  for (const name of names) {
    if (bases.some((base) => isTempNameOf(base, name))) await unlink(path.join(dir, name)).catch(() => undefined); // best effort
  }
}

function pickTarget(target: StateTarget): StateTarget {
  return { environment: target.environment, appId: target.appId, region: target.region };
}

class FileStateSession extends JournaledSession {
  private writer: JournalWriter;

  constructor(
    private readonly files: StateFiles,
    private readonly lock: HeldLock,
    onDisk: State | null,
    start: State,
    journalExists: boolean,
  ) {
    super(onDisk, start, journalExists);
    this.writer = new JournalWriter(files.journal, start.lineage);
  }

  protected appendDurably(entry: JournalEntry): Promise<void> {
    return this.writer.append(entry);
  }

  protected async persist(state: State, replacing: boolean): Promise<void> {
    await replaceStateFile(this.files, serializeState(state), replacing);
  }

  protected async dropJournal(): Promise<void> {
    await onFile(this.files.journal, 'write', () => unlink(this.files.journal).catch(ignoreCode('ENOENT')));
  }

  protected async release(): Promise<void> {
    await this.writer.close().catch(() => undefined);
    await this.lock.release();
  }

  /** The journal file is closed while the state is written, and a fresh writer appends after it. */
  protected override async beforeFold(): Promise<void> {
    await this.writer.close();
  }

  protected override afterFold(): void {
    this.writer = new JournalWriter(this.files.journal, this.state.lineage);
  }
}
