// The state store's interface. The CLI and the executor talk only to these types, so a shared
// backend (PostgreSQL, an object store with a lock table, …) can be added beside the local file
// implementation without touching core/ or the callers.
import type { Region } from '../../core/api-types.js';
import type { JournalEntry, State } from '../../core/state.js';

/** Which environment a state belongs to; a state for one target is never used for another. */
export interface StateTarget {
  environment: string;
  appId: string;
  region: Region;
}

/** Something the caller should tell the user; io never prints. */
export interface StateWarning {
  code: 'stale_lock_taken_over' | 'journal_recovered' | 'journal_torn_tail';
  message: string;
}

export interface StateStoreOptions {
  onWarning?: (warning: StateWarning) => void;
}

export interface LockOptions {
  /** How long to wait for a held lock before giving up; 0 (the default) refuses at once. */
  lockTimeoutMs?: number;
}

export interface OpenOptions extends LockOptions {
  /** Salt for a state that does not exist yet (e.g. the one a saved plan digested with). */
  salt?: string;
}

export interface CopyOptions extends LockOptions {
  /** Replace a destination that already holds resources. */
  force?: boolean;
}

export interface StateStore {
  /** Where the state lives, for messages. */
  readonly location: string;
  /**
   * The current state without taking the lock, with a leftover journal folded in memory.
   * Null when no state exists. Never writes. Fields of `target` that are given must match.
   */
  read(target: Partial<StateTarget>): Promise<State | null>;
  /**
   * Takes the lock and loads the state (or starts an empty one in memory). A journal left by a
   * run that died is folded and committed first.
   */
  open(target: StateTarget, opts?: OpenOptions): Promise<StateSession>;
}

/** What the factory returns: any backend, plus taking in a whole state for `state migrate`. */
export interface StateBackend extends StateStore {
  /**
   * Under this store's lock, stores `state` exactly as given (lineage, serial, salt) and drops any
   * journal. Refuses (`refused`) when the store already holds resources or pending creates, unless
   * `force`.
   */
  copyFrom(state: State, opts?: CopyOptions): Promise<void>;
}

export interface StateSession {
  /** The current state, journal folded. Change it only through record(). */
  readonly state: State;
  /**
   * Durably appends one entry to the journal, then folds it into `state`. O(1) in the state size.
   * Resolves only once the entry is durable; entries recorded together share one write (group commit).
   */
  record(entry: JournalEntry): Promise<void>;
  /** Writes the folded state atomically (serial bumped only if the content changed), then drops the journal. */
  commit(): Promise<void>;
  /** commit() and release the lock. Idempotent. */
  close(): Promise<void>;
}
