// The general knowledge-base list (`GET /ai-agents/agent-builder/knowledge-base`) holds every
// source of the app: websites, text entries and uploads, newest first, under one cursor. The merged
// order is built once per change of the set of sources (not per request), and a cursor is found by
// binary search, so a page costs O(log N + page) and a walk over the whole list O(N log N).
import type { KbListRecord, KbSourceType } from '../../core/agent-builder-wire.js';
import type { EmulatorStore, StoredTextEntry, StoredUpload, Website } from '../store.js';
import { fileSourceStatus, websiteStatus } from './progress.js';

export type SourceEntry = { type: 'website'; record: Website } | { type: 'text'; record: StoredTextEntry } | { type: 'uploads'; record: StoredUpload };

interface Ordered {
  version: number;
  entries: SourceEntry[];
}

const cache = new WeakMap<EmulatorStore, Ordered>();

const createdAtOf = (entry: SourceEntry): number => entry.record.createdAt ?? 0;
const seqOf = (entry: SourceEntry): number => entry.record.seq ?? 0;

/** Every source, newest first (ties by creation order). */
export function sourcesNewestFirst(store: EmulatorStore): readonly SourceEntry[] {
  const held = cache.get(store);
  if (held && held.version === store.sourcesVersion) return held.entries;
  const entries: SourceEntry[] = [
    ...[...store.websites.values()].map((record) => ({ type: 'website' as const, record })),
    ...[...store.kbTexts.values()].map((record) => ({ type: 'text' as const, record })),
    ...[...store.kbUploads.values()].map((record) => ({ type: 'uploads' as const, record })),
  ];
  entries.sort((a, b) => createdAtOf(b) - createdAtOf(a) || seqOf(b) - seqOf(a));
  cache.set(store, { version: store.sourcesVersion, entries });
  return entries;
}

export function sourceKey(entry: SourceEntry): string {
  return `${createdAtOf(entry)}.${seqOf(entry)}`;
}

/** The index of the source with this `<createdAt>.<seq>` cursor in the newest-first order, by binary search; -1 when none. */
export function locateSource(entries: readonly SourceEntry[], cursor: string): number {
  const [createdAt = NaN, seq = NaN] = cursor.split('.').map(Number);
  let low = 0;
  let high = entries.length - 1;
  while (low <= high) {
    const mid = (low + high) >>> 1;
    const entry = entries[mid] as SourceEntry;
    const order = createdAtOf(entry) - createdAt || seqOf(entry) - seq;
    if (order === 0) return mid;
    // Newest first: an entry newer than the cursor sits before it.
    if (order > 0) low = mid + 1;
    else high = mid - 1;
  }
  return -1;
}

/** The id a source has in the path of `…/{sourceType}/{uniqueId}/sync` and in status polls. */
export function sourceId(entry: SourceEntry): string {
  if (entry.type === 'website') return entry.record.parentUniqueId;
  return entry.type === 'text' ? entry.record.uniqueId : entry.record.uploadId;
}

/** The status of a source by id and type, for polls; undefined when there is none. */
export function sourceStatus(store: EmulatorStore, id: string, now: number): KbListRecord['status'] | undefined {
  const website = store.websites.get(id);
  if (website) return websiteStatus(website, now);
  const file = store.kbTexts.get(id) ?? store.kbUploads.get(id);
  return file ? fileSourceStatus(file, now) : undefined;
}

const LIST_TYPE: Readonly<Record<KbSourceType, string>> = { website: 'website', text: 'text-details', uploads: 'uploads' };

/** A list record (`_id`, `__v` and `paginationKey` left out, as the reference says). sourceName: a website's URL, a text's title, a file's name. */
export function presentSource(entry: SourceEntry, appId: string, now: number): KbListRecord {
  const { record } = entry;
  const sourceName = entry.type === 'website' ? entry.record.url : entry.type === 'text' ? entry.record.title : entry.record.fileName;
  const status = entry.type === 'website' ? websiteStatus(entry.record, now) : fileSourceStatus(entry.record, now);
  return {
    uniqueId: sourceId(entry),
    appId,
    sourceName,
    type: LIST_TYPE[entry.type],
    status,
    lastSynced: record.lastSyncedAt ?? 0,
    createdAt: record.createdAt ?? 0,
    updatedAt: record.updatedAt ?? 0,
  };
}
