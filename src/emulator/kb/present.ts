// The answer shapes of knowledge-base records, as version A of the reference lists their fields.
import type { DiscoveredUrl, DiscoveredUrlStatus } from '../store.js';
import { statusAt, vectorFields } from './progress.js';

/**
 * A discovered-URL record. The reference calls its id `urlId`; the emulator sends the same value as
 * `uniqueId` too (the name the status-poll and sync bodies use for these ids, and the seed's name).
 */
export function presentDiscoveredUrl(entry: DiscoveredUrl, now: number): Record<string, unknown> {
  const status: DiscoveredUrlStatus = statusAt(entry, now);
  return {
    urlId: entry.uniqueId,
    uniqueId: entry.uniqueId,
    url: entry.url,
    title: entry.title ?? '',
    description: entry.description ?? '',
    content: entry.content ?? '',
    status,
    lastCrawledAt: entry.lastCrawledAt ?? entry.createdAt ?? 0,
    retryCount: entry.retryCount ?? 0,
    createdAt: entry.createdAt ?? 0,
    // A URL that finished on its own changed at its finishing time, not when it was last written.
    updatedAt: status !== entry.status && entry.finishesAt !== undefined ? entry.finishesAt : (entry.updatedAt ?? 0),
    ...vectorFields(entry, status),
  };
}
