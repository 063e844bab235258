// Reading a state and its leftover journal into memory, refusing anything damaged. Never writes.
import { access, open, readFile, stat } from 'node:fs/promises';
import { foldEntry, type JournalEntry, type State } from '../../core/state.js';
import { hasCode } from './atomic-write.js';
import { JournalLineError, parseJournal } from './journal.js';
import type { StateFiles } from './paths.js';
import type { StateTarget } from './store.js';
import { checkStateText, damagedState, targetMismatch } from './validate.js';

export interface LoadedState {
  /** Exactly what the state file holds; null when there is no state file. */
  onDisk: State | null;
  /** `onDisk` with the journal folded in; null only when there is neither. */
  folded: State | null;
  /** Entries recorded by a run that did not commit them. */
  journalEntries: JournalEntry[];
  journalExists: boolean;
  tornTail: boolean;
}

/**
 * `concurrentWriters`: the caller holds no lock, so a commit may replace the state between our
 * two reads; the journal is read after the state and the pair is retried until the state file
 * did not change underneath (an old state with a stale journal is never mixed with a new one).
 */
export async function loadState(files: StateFiles, target: Partial<StateTarget>, concurrentWriters: boolean): Promise<LoadedState> {
  let stateRead: RawFile | null = null;
  let journalText: string | null = null;
  for (let attempt = 0; attempt < 5; attempt++) {
    stateRead = await readStateFile(files);
    journalText = await readFile(files.journal, 'utf8').catch((err: unknown) => (hasCode(err, 'ENOENT') ? null : Promise.reject(err)));
    if (!concurrentWriters) break;
    const now = await stat(files.state).catch((err: unknown) => (hasCode(err, 'ENOENT') ? null : Promise.reject(err)));
    if ((now?.ino ?? null) === (stateRead?.ino ?? null)) break;
  }

  let onDisk: State | null = null;
  if (stateRead !== null) {
    const checked = checkStateText(stateRead.text);
    if ('problem' in checked) throw damagedState(files.state, checked.problem, await exists(files.backup));
    onDisk = checked.state;
    const mismatch = targetMismatch(onDisk, target);
    if (mismatch !== null) throw damagedState(files.state, mismatch, await exists(files.backup));
  }

  let journal = { entries: [] as JournalEntry[], tornTail: false };
  if (journalText !== null) {
    try {
      journal = parseJournal(journalText);
    } catch (err) {
      if (!(err instanceof JournalLineError)) throw err;
      const problem = `its journal ${files.journal} has a damaged line ${err.line} (${err.reason}), so results recorded there cannot be trusted`;
      throw damagedState(files.state, problem, await exists(files.backup));
    }
  }
  if (onDisk === null && journal.entries.length > 0) {
    const problem = `the file is missing, but its journal ${files.journal} holds ${journal.entries.length} results recorded for it (was it deleted?); restore it, or delete the journal to start over`;
    throw damagedState(files.state, problem, await exists(files.backup));
  }

  let folded: State | null = null;
  if (onDisk !== null) {
    folded = journal.entries.length > 0 ? structuredClone(onDisk) : onDisk;
    for (const entry of journal.entries) foldEntry(folded, entry);
  }
  return { onDisk, folded, journalEntries: journal.entries, journalExists: journalText !== null, tornTail: journal.tornTail };
}

interface RawFile {
  text: string;
  ino: number;
}

async function readStateFile(files: StateFiles): Promise<RawFile | null> {
  let handle;
  try {
    handle = await open(files.state, 'r');
    const { ino } = await handle.stat();
    return { text: await handle.readFile('utf8'), ino };
  } catch (err) {
    if (hasCode(err, 'ENOENT')) return null;
    if (hasCode(err, 'EISDIR')) throw damagedState(files.state, 'it is a folder, not a file', null);
    if (hasCode(err, 'EACCES', 'EPERM')) throw damagedState(files.state, 'it cannot be read (permission denied)', null);
    throw err;
  } finally {
    await handle?.close();
  }
}

async function exists(file: string): Promise<boolean> {
  return access(file).then(
    () => true,
    () => false,
  );
}
