// Reading one state row and its journal rows, refusing anything damaged or foreign. Never writes.
import { UserError } from '../../../core/errors.js';
import { foldEntry, type JournalEntry, type State } from '../../../core/state.js';
import { JournalLineError, parseJournal } from '../journal.js';
import type { StateTarget } from '../store.js';
import { checkStateText } from '../validate.js';
import type { PgConnection } from './connection.js';
import { sessionFailure, sqlState } from './errors.js';
import { LOAD } from './sql.js';
import { countOf } from '../../../core/plural.js';

export interface LoadedRows {
  /** Exactly what the state row holds; null when there is no row. */
  stored: State | null;
  /** Entries recorded by a run that did not commit them. */
  entries: JournalEntry[];
  /** `stored` with the journal folded in; null when there is no row. */
  folded: State | null;
}

const NOTHING: LoadedRows = { stored: null, entries: [], folded: null };

export async function loadRows(conn: PgConnection, key: string, location: string, target: Partial<StateTarget>): Promise<LoadedRows> {
  let row: { body: string | null; entries: string[] } | undefined;
  try {
    row = (await conn.queryRaw<{ body: string | null; entries: string[] }>(LOAD, [key])).rows[0];
  } catch (err) {
    if (sqlState(err) === '42P01') return NOTHING; // no tables yet: nothing was ever stored here
    throw err instanceof UserError ? err : sessionFailure(err, conn.url);
  }
  if (row === undefined) return NOTHING;

  let stored: State | null = null;
  if (row.body !== null) {
    const checked = checkStateText(row.body);
    if ('problem' in checked) throw damaged(location, key, checked.problem);
    stored = checked.state;
    const mismatch = targetMismatch(stored, target);
    // A sound state of another environment: nothing to repair, only the right key to use.
    if (mismatch !== null) throw new UserError('state_invalid', `state ${location} cannot be used: ${mismatch}. It was left unchanged.`, { state: location, key });
  }

  let entries: JournalEntry[] = [];
  if (row.entries.length > 0) {
    try {
      entries = parseJournal(row.entries.map((line) => `${line}\n`).join('')).entries;
    } catch (err) {
      if (!(err instanceof JournalLineError)) throw err;
      throw damaged(location, key, `journal row ${err.line} of key "${key}" in agentsync_journal is ${err.reason}, so the results recorded there cannot be trusted`);
    }
    if (stored === null) {
      throw damaged(location, key, `there is no row for key "${key}" in agentsync_states, but agentsync_journal holds ${countOf(entries.length, 'result')} recorded for it (was the row deleted?)`);
    }
  }

  let folded: State | null = null;
  if (stored !== null) {
    folded = entries.length > 0 ? structuredClone(stored) : stored;
    for (const entry of entries) foldEntry(folded, entry);
  }
  return { stored, entries, folded };
}

function targetMismatch(state: State, target: Partial<StateTarget>): string | null {
  const wrong = (['environment', 'appId', 'region'] as const).filter((k) => target[k] !== undefined && target[k] !== state[k]);
  if (wrong.length === 0) return null;
  const wanted = wrong.map((k) => `${k} ${JSON.stringify(target[k])}`).join(', ');
  return `it belongs to environment "${state.environment}" (appId ${state.appId}, region ${state.region}), but this run targets ${wanted}; give each environment its own state.key`;
}

function damaged(location: string, key: string, problem: string): UserError {
  return new UserError('state_invalid', `state ${location} cannot be used: ${problem}. It was left unchanged; repair or remove the rows with key "${key}" by hand.`, {
    state: location,
    key,
  });
}
