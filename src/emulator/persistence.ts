// The --data file. Loading creates it from the seed when absent. Saving is coalesced (at most one
// write per SAVE_DELAY_MS, so a burst of 1,000 PUTs is a handful of writes) and atomic: a temporary
// file in the same folder, fsync, then rename over the old one. close() flushes the last change.
import { open, readFile, rename, rm } from 'node:fs/promises';
import { dirname } from 'node:path';
import { seedData } from './seed.js';
import type { EmulatorData } from './store.js';

export const SAVE_DELAY_MS = 25;

export class DataFileError extends Error {}

export async function loadDataFile(file: string, appId: string): Promise<EmulatorData> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw new DataFileError(`Cannot read the data file ${file}: ${(err as Error).message}`);
    const data = seedData(appId);
    await writeAtomically(file, data);
    return data;
  }
  return parseDataFile(file, text, appId);
}

function parseDataFile(file: string, text: string, appId: string): EmulatorData {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (err) {
    throw new DataFileError(`The data file ${file} is not valid JSON: ${(err as Error).message}`);
  }
  const candidate = data as Partial<EmulatorData> | null;
  const lists = ['users', 'groups', 'websites', 'tools', 'agents', 'messages'] as const;
  // Collections added later: a file written before them has none, which reads as empty.
  const laterLists = ['builderAgents', 'kbTexts', 'kbUploads'] as const;
  const malformed = (c: Partial<EmulatorData>): boolean => lists.some((key) => !Array.isArray(c[key])) || laterLists.some((key) => c[key] !== undefined && !Array.isArray(c[key]));
  if (!candidate || candidate.version !== 1 || typeof candidate.nextMessageId !== 'number' || malformed(candidate)) {
    throw new DataFileError(`The data file ${file} is not an agentsync emulator data file (version 1).`);
  }
  if (candidate.appId !== appId) {
    throw new DataFileError(`The data file ${file} belongs to app "${String(candidate.appId)}", not "${appId}". Use --app-id ${String(candidate.appId)} or another file.`);
  }
  return candidate as EmulatorData;
}

export class DataFileWriter {
  private timer: NodeJS.Timeout | undefined;
  private writing: Promise<void> | undefined;
  private dirty = false;

  constructor(
    private readonly file: string,
    private readonly snapshot: () => EmulatorData,
    private readonly onError: (message: string) => void,
  ) {}

  /** Called on every change; the write happens shortly after, once for the whole burst. */
  schedule(): void {
    this.dirty = true;
    if (this.timer || this.writing) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      void this.save().catch((err: unknown) => this.onError(`Cannot save the data file ${this.file}: ${(err as Error).message}`));
    }, SAVE_DELAY_MS);
  }

  /** Writes any pending change now; rejects if that final write fails. */
  async flush(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    if (this.writing) await this.writing.catch(() => {});
    // The write we waited for may have scheduled a follow-up; this flush does it instead.
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    if (this.dirty) await this.save();
  }

  private async save(): Promise<void> {
    this.dirty = false;
    this.writing = writeAtomically(this.file, this.snapshot());
    try {
      await this.writing;
    } catch (err) {
      this.dirty = true;
      throw err;
    } finally {
      this.writing = undefined;
      // Changes that arrived during the write get their own write.
      if (this.dirty && !this.timer) this.schedule();
    }
  }
}

let tmpCounter = 0;

async function writeAtomically(file: string, data: EmulatorData): Promise<void> {
  const tmp = `${file}.${process.pid}.${++tmpCounter}.tmp`;
  const handle = await open(tmp, 'w', 0o600);
  try {
    await handle.writeFile(JSON.stringify(data, null, 2) + '\n');
    await handle.sync();
  } finally {
    await handle.close();
  }
  try {
    await rename(tmp, file);
  } catch (err) {
    await rm(tmp, { force: true });
    throw err;
  }
  await syncDirectory(dirname(file));
}

/** Makes the rename itself durable; some platforms cannot open a folder, which is fine to skip. */
async function syncDirectory(folder: string): Promise<void> {
  try {
    const handle = await open(folder, 'r');
    try {
      await handle.sync();
    } finally {
      await handle.close();
    }
  } catch {
    // best effort
  }
}
