// What every backend's open state has in common: records run concurrently with each other but
// never with a commit; a new state is written once, empty, before its first entry (journal entries
// mean nothing without the lineage and salt they belong to); a commit writes the folded state only
// when its content changed (bumping the serial) and then drops the journal. Backends say how an
// entry is made durable, how a state is written, how the journal is dropped and how the lock goes.
import { foldEntry, type JournalEntry, type State } from '../../core/state.js';
import { sameContent } from './serialize.js';
import type { StateSession } from './store.js';

export abstract class JournaledSession implements StateSession {
  private current: State;
  /** Records run concurrently with each other, never with a commit. */
  private readonly inflight = new Set<Promise<void>>();
  private exclusive: Promise<void> | null = null;
  private baseWrite: Promise<void> | null = null;
  private closing: Promise<void> | null = null;
  private closed = false;

  protected constructor(
    /** What the backend holds now; null until the state exists there. */
    private stored: State | null,
    start: State,
    /** A journal exists (left over, or appended to since the last commit). */
    protected hasJournal: boolean,
  ) {
    this.current = start === stored ? structuredClone(start) : start;
  }

  /** Makes one entry durable; resolves only once it is (entries recorded together share a write: group-commit.ts). */
  protected abstract appendDurably(entry: JournalEntry): Promise<void>;
  /** Writes the whole state (`replacing` an older one or creating it). May drop the journal too, then clears `hasJournal`. */
  protected abstract persist(state: State, replacing: boolean): Promise<void>;
  /** Drops the journal, once the state that absorbed it is durable. */
  protected abstract dropJournal(): Promise<void>;
  /** Frees the lock and whatever else the session holds; runs once, after the last commit. */
  protected abstract release(): Promise<void>;
  /** Hooks around a commit's write, for a backend with an open journal handle. */
  protected async beforeFold(): Promise<void> {}
  protected afterFold(): void {}

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
        await this.release();
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
    this.baseWrite ??= this.stored === null ? this.writeFolded(true) : Promise.resolve();
    await this.baseWrite;
    this.hasJournal = true;
    await this.appendDurably(entry);
    foldEntry(this.current, entry);
  }

  /** `createEmpty`: write a state that does not exist yet even if nothing was recorded. */
  private async writeFolded(createEmpty: boolean): Promise<void> {
    await this.beforeFold();
    const previous = this.stored;
    const changed = previous === null ? createEmpty || !isEmpty(this.current) : !sameContent(this.current, previous);
    if (changed) {
      const serial = previous === null ? this.current.serial : previous.serial + 1;
      await this.persist({ ...this.current, serial }, previous !== null);
      this.current.serial = serial;
      this.stored = structuredClone(this.current);
    }
    // Only after the new state is durable. If this is lost in a crash, folding the journal again
    // is harmless: every entry sets or deletes one address to a fixed value.
    if (this.hasJournal) {
      await this.dropJournal();
      this.hasJournal = false;
    }
    this.afterFold();
  }

  private assertOpen(): void {
    if (this.closed || this.closing) throw new Error('the state session is closed');
  }
}

function isEmpty(state: State): boolean {
  return Object.keys(state.resources).length === 0 && Object.keys(state.pending).length === 0;
}
