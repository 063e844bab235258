// The append-only journal beside the state: one JSON line per recorded fact, fsynced before the
// caller moves on, so recording costs O(1) however large the state is. A crash can tear only the
// line being appended; every line before it was fsynced whole.
//
// Each line carries the lineage of the state it belongs to (`{"lineage":"…","op":…}`), so a
// journal copied or left beside another state is recognised and never folded into it. Lines
// without a lineage were written by agentsync before it recorded one; they are read as belonging
// to the state beside them, as they always were.
import { constants } from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';
import path from 'node:path';
import * as z from 'zod/mini';
import '../../core/zod.js';
import type { JsonObject } from '../../core/api-types.js';
import { UserError } from '../../core/errors.js';
import { MAX_STORED_JSON_DEPTH, nestedDeeperThan } from '../../core/json-depth.js';
import type { JournalEntry } from '../../core/state.js';
import { RESOURCE_TYPES } from '../../core/kinds/kind.js';
import { fileError } from '../files/file-errors.js';
import { MAX_STATE_FILE_BYTES, sizeText } from '../files/bounded-bytes.js';
import { GroupCommit } from './group-commit.js';
import { fsyncDir, hasCode, STATE_FILE_MODE } from './atomic-write.js';

const resourceType = z.enum(RESOURCE_TYPES);
const address = z.string().check(z.minLength(1));
const journalEntrySchema: z.ZodMiniType<JournalEntry> = z.discriminatedUnion('op', [
  z.strictObject({ op: z.literal('pending'), address, type: resourceType, since: z.string(), action: z.optional(z.literal('delete')) }),
  z.strictObject({
    op: z.literal('applied'),
    address,
    type: resourceType,
    remoteId: z.string().check(z.minLength(1)),
    spec: z.record(z.string(), z.unknown()) as unknown as z.ZodMiniType<JsonObject>,
    appliedAt: z.string(),
  }),
  z.strictObject({ op: z.literal('forgotten'), address }),
  z.strictObject({ op: z.literal('pending-cleared'), address }),
  z.strictObject({ op: z.literal('moved'), from: address, to: address }),
]);

export interface ParsedJournal {
  entries: JournalEntry[];
  /** Every lineage the lines name. Lines from before lineages were recorded name none. */
  lineages: Set<string>;
  /** Bytes after the last newline: an append cut short by a crash, ignored. */
  tornTail: boolean;
}

/** Throws with the line number when a complete line is not a valid entry. */
export function parseJournal(text: string): ParsedJournal {
  const lastNewline = text.lastIndexOf('\n');
  const complete = text.slice(0, lastNewline + 1);
  const tornTail = text.length > lastNewline + 1;
  const entries: JournalEntry[] = [];
  const lineages = new Set<string>();
  const lines = complete.split('\n');
  lines.pop(); // the empty string after the final newline
  lines.forEach((line, index) => {
    let raw: unknown;
    try {
      raw = JSON.parse(line);
    } catch {
      throw new JournalLineError(index + 1, 'not valid JSON');
    }
    if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) throw new JournalLineError(index + 1, 'not a journal entry');
    if (nestedDeeperThan(raw, MAX_STORED_JSON_DEPTH)) throw new JournalLineError(index + 1, `nested more than ${MAX_STORED_JSON_DEPTH} levels deep`);
    const { lineage, ...entry } = raw as { lineage?: unknown };
    if (lineage !== undefined) {
      if (typeof lineage !== 'string' || lineage === '') throw new JournalLineError(index + 1, 'not a journal entry (bad lineage)');
      lineages.add(lineage);
    }
    const parsed = journalEntrySchema.safeParse(entry);
    if (!parsed.success) throw new JournalLineError(index + 1, 'not a journal entry');
    entries.push(parsed.data);
  });
  return { entries, lineages, tornTail };
}

/**
 * The journal's text, or null when there is none. Never follows a symlink at the journal's name
 * and never blocks on a FIFO: both are refused.
 */
export async function readJournalFile(file: string): Promise<string | null> {
  let handle;
  try {
    handle = await open(file, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
    const info = await handle.stat();
    if (!info.isFile()) throw notAJournal(file, 'is not a regular file');
    if (info.size > MAX_STATE_FILE_BYTES) throw notAJournal(file, `is ${sizeText(info.size)}, more than the ${sizeText(MAX_STATE_FILE_BYTES)} a journal may be`);
    return await handle.readFile('utf8');
  } catch (err) {
    if (hasCode(err, 'ENOENT')) return null;
    if (hasCode(err, 'ELOOP')) throw notAJournal(file, 'is a symbolic link');
    throw fileError(err, file, 'read');
  } finally {
    await handle?.close();
  }
}

function notAJournal(file: string, what: string): UserError {
  return new UserError(
    'state_invalid',
    `journal ${file} ${what}; agentsync never reads or writes through such a file beside the state. Nothing was changed: move it away (after checking what it is) and run again.`,
    { file },
  );
}

export class JournalLineError extends Error {
  constructor(
    readonly line: number,
    readonly reason: string,
  ) {
    super(`line ${line} is ${reason}`);
  }
}

/**
 * Appends entries durably. Entries recorded concurrently (the executor runs calls in parallel)
 * share one write and one fsync; each append() resolves only once its own line is on disk.
 */
export class JournalWriter {
  private handle: FileHandle | null = null;
  // After a failed write the file may end in a torn line; appending after it would corrupt it.
  private readonly commits = new GroupCommit({
    write: async (lines) => {
      const handle = await this.ensureOpen();
      await handle.appendFile(lines.join(''), 'utf8');
      await handle.datasync();
    },
    onFailure: (err) => ({ error: fileError(err, this.file, 'write'), stop: true }),
  });

  constructor(
    private readonly file: string,
    /** The lineage of the state the entries belong to; written on every line. */
    private readonly lineage: string,
  ) {}

  append(entry: JournalEntry): Promise<void> {
    return this.commits.push(JSON.stringify({ lineage: this.lineage, ...entry }) + '\n');
  }

  /** Waits for every queued append to be on disk (or to have failed). */
  drain(): Promise<void> {
    return this.commits.drain();
  }

  async close(): Promise<void> {
    await this.drain();
    const handle = this.handle;
    this.handle = null;
    await handle?.close();
  }

  private async ensureOpen(): Promise<FileHandle> {
    if (this.handle) return this.handle;
    // O_NOFOLLOW: a symlink planted at the journal's name must not be appended through.
    const handle = await open(this.file, constants.O_WRONLY | constants.O_CREAT | constants.O_APPEND | constants.O_NOFOLLOW, STATE_FILE_MODE);
    try {
      await handle.chmod(STATE_FILE_MODE);
      await fsyncDir(path.dirname(this.file)); // the journal's name must survive a crash too
    } catch (err) {
      await handle.close();
      throw err;
    }
    this.handle = handle;
    return handle;
  }
}
