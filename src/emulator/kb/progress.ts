// Indexing progress without timers: process/sync stamp each URL with when it finishes and what it
// becomes (processed or failed, decided then by the fail knobs), and every reader works out the
// status from the clock. Nothing runs in the background, so memory and CPU stay flat however many
// URLs are indexing, and a data file restored later carries on where it was.
import type { DiscoveredUrl, DiscoveredUrlStatus, Website } from '../store.js';
import type { KbConfig } from './config.js';
import { compileUrlGlob } from '../../core/url-glob.js';
import { stableFraction } from './stable-fraction.js';

export function statusAt(entry: DiscoveredUrl, now: number): DiscoveredUrlStatus {
  if (entry.status !== 'processing' || entry.finishesAt === undefined || now < entry.finishesAt) return entry.status;
  return entry.outcome ?? 'processed';
}

/**
 * Puts these URLs into `processing`. The i-th of n finishes at now + processingMs·(i+1)/n, so a
 * client polling in between sees the processed count climb.
 */
export function startProcessing(entries: readonly DiscoveredUrl[], now: number, config: Readonly<KbConfig>, unreadable: ReadonlySet<string> = new Set()): void {
  const failGlobs = config.kbFailUrls.map(compileUrlGlob);
  const n = entries.length;
  entries.forEach((entry, index) => {
    const fails = unreadable.has(entry.uniqueId) || failGlobs.some((glob) => glob.matches(entry.url)) || stableFraction(entry.url) < config.kbFailFraction;
    entry.status = 'processing';
    entry.finishesAt = now + Math.round((config.kbProcessingMs * (index + 1)) / n);
    entry.outcome = fails ? 'failed' : 'processed';
    entry.updatedAt = now;
  });
}

/** Marks excluded URLs `skipped`, ending any processing they had. */
export function skip(entry: DiscoveredUrl, now: number): void {
  entry.status = 'skipped';
  delete entry.finishesAt;
  delete entry.outcome;
  entry.updatedAt = now;
}

/** The knowledge-base list's status of a website: `inSync, indexing, indexed or failed`. */
export function websiteStatus(website: Website, now: number): 'inSync' | 'indexing' | 'indexed' | 'failed' {
  let processed = 0;
  let failed = 0;
  for (const entry of website.discoveredUrls) {
    const status = statusAt(entry, now);
    if (status === 'processing') return 'indexing';
    if (status === 'processed') processed++;
    if (status === 'failed') failed++;
  }
  // The reference does not say what a crawled website that was never processed is; `inSync` reads as "crawled, nothing pending".
  if (failed > 0) return 'failed';
  return processed > 0 ? 'indexed' : 'inSync';
}

/** The reference's record fields that follow from the status. */
export function vectorFields(entry: DiscoveredUrl, status: DiscoveredUrlStatus): { vectorizationStatus: string; chunksCreated: number; embeddingsGenerated: number } {
  const chunks = status === 'processed' ? 1 + Math.floor((entry.content ?? '').length / 200) : 0;
  const vectorizationStatus = status === 'processed' ? 'completed' : status === 'processing' ? 'processing' : status === 'failed' ? 'failed' : 'pending';
  return { vectorizationStatus, chunksCreated: chunks, embeddingsGenerated: chunks };
}

/** A text entry's or an upload's indexing, worked out from the clock as a URL's is. */
export function fileSourceStatus(source: { indexedAt?: number }, now: number): 'indexing' | 'indexed' {
  return source.indexedAt !== undefined && now >= source.indexedAt ? 'indexed' : 'indexing';
}

/** (Re)starts a text entry's or an upload's indexing: it ends `kbProcessingMs` from now (at once with 0). */
export function startFileIndexing(source: { indexedAt?: number; lastSyncedAt?: number }, now: number, config: Readonly<KbConfig>): void {
  source.indexedAt = now + config.kbProcessingMs;
  source.lastSyncedAt = now;
}
