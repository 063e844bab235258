// The local state store: `<state>` (JSON, replaced atomically), `<state>.journal` (results
// recorded since the last write), `<state>.lock` and `<state>.backup`, side by side. A symlinked
// state is followed once (resolve.ts): all four live beside its target.
import { mkdir, readdir, unlink } from 'node:fs/promises';
import path from 'node:path';
import { UserError } from '../../core/errors.js';
import { emptyState, foldEntry, type JournalEntry, type State } from '../../core/state.js';
import { isTempNameOf } from '../atomic-file.js';
import { fileError, onFile } from '../file-errors.js';
import { hasCode, ignoreCode, replaceStateFile } from './atomic-write.js';
import { newLineage, newSalt } from './digest.js';
import { JournalWriter } from './journal.js';
import { loadState } from './load.js';
import { acquireLock, type HeldLock } from './lock.js';
import { stateFiles, type StateFiles } from './paths.js';
import { resolveStatePath } from './resolve.js';
import { sameContent, serializeState } from './serialize.js';
import type { StateSession, StateStore, StateStoreOptions, StateTarget, StateWarning } from './store.js';
import { countOf } from '../../core/plural.js';

export function createFileStateStore(statePath: string, options: StateStoreOptions = {}): StateStore {
  const warn = options.onWarning ?? ((_w: StateWarning) => undefined);
  return {
    location: statePath,

    async read(target) {
      const files = stateFiles(await resolveStatePath(statePath));
      const loaded = await loadState(files, target, true);
      return loaded.folded;
    },

    async open(target, opts) {
      const files = stateFiles(await resolveStatePath(statePath));
      await makeStateFolder(path.dirname(files.state));
      const lock = await acquireLock(files.lock, files.state, warn);
      try {
        await removeTempDebris(files.state);
        const loaded = await loadState(files, target, false);
        if (loaded.tornTail) {
          warn({ code: 'journal_torn_tail', message: `ignored an incomplete last line in ${files.journal}, cut short when a run was killed` });
        }
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

class FileStateSession implements StateSession {
  private current: State;
  private writer: JournalWriter;
  /** Records run concurrently with each other, never with a commit. */
  private readonly inflight = new Set<Promise<void>>();
  private exclusive: Promise<void> | null = null;
  private baseWrite: Promise<void> | null = null;
  private closing: Promise<void> | null = null;
  private closed = false;

  constructor(
    private readonly files: StateFiles,
    private readonly lock: HeldLock,
    /** What the state file holds now; null until it exists. */
    private onDisk: State | null,
    start: State,
    /** A journal file exists (left over, or appended to since the last commit). */
    private journalExists: boolean,
  ) {
    this.current = start === onDisk ? structuredClone(start) : start;
    this.writer = new JournalWriter(files.journal, start.lineage);
  }

  get state(): State {
    return this.current;
  }

  async record(entry: JournalEntry): Promise<void> {
    this.assertOpen();
    while (this.exclusive) await this.exclusive.catch(() => undefined);
    const recording = this.appendAndFold(entry);
    this.inflight.add(recording);
    try {
      await recording;
    } finally {
      this.inflight.delete(recording);
    }
  }

  async commit(): Promise<void> {
    this.assertOpen();
    await this.commitExclusively();
  }

  close(): Promise<void> {
    this.closing ??= (async () => {
      try {
        await this.commitExclusively();
      } finally {
        this.closed = true;
        await this.writer.close().catch(() => undefined);
        await this.lock.release();
      }
    })();
    return this.closing;
  }

  private async commitExclusively(): Promise<void> {
    while (this.exclusive) await this.exclusive.catch(() => undefined);
    const committing = (async () => {
      await Promise.allSettled([...this.inflight]);
      await this.writeFolded(false);
    })();
    this.exclusive = committing;
    try {
      await committing;
    } finally {
      if (this.exclusive === committing) this.exclusive = null;
    }
  }

  private async appendAndFold(entry: JournalEntry): Promise<void> {
    // Journal entries are meaningless without the lineage and salt they belong to, so a new
    // state is written once, empty, before its first entry.
    this.baseWrite ??= this.onDisk === null ? this.writeFolded(true) : Promise.resolve();
    await this.baseWrite;
    this.journalExists = true;
    await this.writer.append(entry);
    foldEntry(this.current, entry);
  }

  /** `createEmpty`: write a state that does not exist yet even if nothing was recorded. */
  private async writeFolded(createEmpty: boolean): Promise<void> {
    await this.writer.close();
    const previous = this.onDisk;
    const changed = previous === null ? createEmpty || !isEmpty(this.current) : !sameContent(this.current, previous);
    if (changed) {
      if (previous !== null) this.current.serial = previous.serial + 1;
      await replaceStateFile(this.files, serializeState(this.current), previous !== null);
      this.onDisk = structuredClone(this.current);
    }
    if (this.journalExists) {
      // Only after the new state is durable. If the unlink is lost in a crash, folding the
      // journal again is harmless: every entry sets or deletes one address to a fixed value.
      await onFile(this.files.journal, 'write', () => unlink(this.files.journal).catch(ignoreCode('ENOENT')));
      this.journalExists = false;
    }
    this.writer = new JournalWriter(this.files.journal, this.current.lineage);
  }

  private assertOpen(): void {
    if (this.closed || this.closing) throw new Error('the state session is closed');
  }
}

function isEmpty(state: State): boolean {
  return Object.keys(state.resources).length === 0 && Object.keys(state.pending).length === 0;
}
