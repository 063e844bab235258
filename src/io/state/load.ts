// Reading a state and its leftover journal into memory, refusing anything damaged. Never writes.
import { constants } from 'node:fs';
import { access, open, stat } from 'node:fs/promises';
import { UserError } from '../../core/errors.js';
import { foldEntry, type JournalEntry, type State } from '../../core/state.js';
import { fileError } from '../files/file-errors.js';
import { MAX_STATE_FILE_BYTES, sizeText } from '../files/bounded-bytes.js';
import { hasCode } from './atomic-write.js';
import { JournalLineError, parseJournal, readJournalFile, type ParsedJournal } from './journal.js';
import type { StateFiles } from './paths.js';
import type { StateTarget } from './store.js';
import { checkStateText, damagedState, targetMismatch, wrongTargetState } from './validate.js';
import { countOf } from '../../core/plural.js';

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
  for (let attempt = 0; attempt < 10; attempt++) {
    stateRead = await readStateFile(files);
    journalText = await readJournalFile(files.journal);
    if (!concurrentWriters) break;
    // The state and its journal belong together only if no commit replaced the state in between.
    // An inode alone does not tell: a file system hands a freed inode number to the next new file,
    // so two commits later the state can have the old number again. Its change time cannot repeat.
    const now = await stat(files.state, { bigint: true }).catch((err: unknown) => (hasCode(err, 'ENOENT') ? null : Promise.reject(fileError(err, files.state, 'read'))));
    if ((now === null ? null : identityOf(now)) === (stateRead?.identity ?? null)) break;
  }

  let onDisk: State | null = null;
  if (stateRead !== null) {
    const checked = checkStateText(stateRead.text);
    if ('problem' in checked) throw damagedState(files.state, checked.problem, await exists(files.backup));
    onDisk = checked.state;
    const mismatch = targetMismatch(onDisk, target);
    if (mismatch !== null) throw wrongTargetState(files.state, mismatch);
  }

  let journal: ParsedJournal = { entries: [], lineages: new Set(), tornTail: false };
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
    // The state is written before its first journal line, so a journal alone means the state was
    // deleted or moved: never start a new state from it (the salt its digests used is gone).
    const of = journal.lineages.size > 0 ? ` (state lineage ${[...journal.lineages].join(', ')})` : '';
    const problem = `the file is missing, but its journal ${files.journal} holds ${countOf(journal.entries.length, 'result')} recorded for it${of} (was it deleted?); restore it, or delete the journal to start over`;
    throw damagedState(files.state, problem, await exists(files.backup));
  }
  if (onDisk !== null) assertJournalBelongs(files, onDisk, journal);

  let folded: State | null = null;
  if (onDisk !== null) {
    folded = journal.entries.length > 0 ? structuredClone(onDisk) : onDisk;
    for (const entry of journal.entries) foldEntry(folded, entry);
  }
  return { onDisk, folded, journalEntries: journal.entries, journalExists: journalText !== null, tornTail: journal.tornTail };
}

/** Every journal line that names a lineage must name this state's; nothing is folded otherwise. */
function assertJournalBelongs(files: StateFiles, state: State, journal: ParsedJournal): void {
  const foreign = [...journal.lineages].filter((l) => l !== state.lineage);
  if (foreign.length === 0) return;
  throw new UserError(
    'state_invalid',
    `journal ${files.journal} belongs to another state (lineage ${foreign.join(', ')}), not to ${files.state} (lineage ${state.lineage}); ` +
      `nothing was folded or written. If it was copied or left here by mistake, move it away and run again; ` +
      `if ${files.state} was replaced, put back the state it belongs to first so its results are not lost.`,
    { file: files.state, journal: files.journal, lineage: state.lineage, journalLineage: foreign[0] },
  );
}

interface RawFile {
  text: string;
  /** The file's inode, size and change time (ns): what changes when a commit replaces the state. */
  identity: string;
}

function identityOf(info: { ino: bigint; size: bigint; ctimeNs: bigint }): string {
  return `${info.ino}:${info.size}:${info.ctimeNs}`;
}

async function readStateFile(files: StateFiles): Promise<RawFile | null> {
  let handle;
  try {
    // The path was resolved already (resolve.ts); a symlink or FIFO here appeared since.
    handle = await open(files.state, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
    const info = await handle.stat({ bigint: true });
    if (!info.isFile()) throw notAStateFile(files.state, info.isDirectory() ? 'is a directory' : 'is not a regular file');
    if (info.size > MAX_STATE_FILE_BYTES) {
      throw damagedState(files.state, `it is ${sizeText(info.size)}, more than the ${sizeText(MAX_STATE_FILE_BYTES)} a state file may be`, await exists(files.backup));
    }
    return { text: await handle.readFile('utf8'), identity: identityOf(info) };
  } catch (err) {
    if (hasCode(err, 'ENOENT')) return null;
    if (hasCode(err, 'EISDIR')) throw notAStateFile(files.state, 'is a directory');
    if (hasCode(err, 'ELOOP')) throw notAStateFile(files.state, 'became a symbolic link while agentsync was reading it');
    throw fileError(err, files.state, 'read');
  } finally {
    await handle?.close();
  }
}

function notAStateFile(file: string, what: string): UserError {
  return new UserError('state_invalid', `state path ${file} ${what}, not a state file; pass the state file itself with --state`, { file });
}

async function exists(file: string): Promise<boolean> {
  return access(file).then(
    () => true,
    () => false,
  );
}
