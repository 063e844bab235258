// What the knowledge-base routes share: the store, the clock that drives indexing, the knobs
// (changed in place by `/__emulator/config`), and batch ids.
import type { EmulatorClock } from '../clock.js';
import { notFound } from '../errors.js';
import type { EmulatorStore, Website } from '../store.js';
import { ERROR_CODES } from '../error-codes.js';
import type { KbConfig } from './config.js';

export interface KbContext {
  store: EmulatorStore;
  clock: EmulatorClock;
  config: KbConfig;
  /** `webhookUrl` must be a URL; the emulator sends no webhooks, so it points at a fixed placeholder. */
  webhookBaseUrl: () => string;
  /** Aborted by close(): running crawls end at once instead of keeping the process alive. */
  stop: AbortSignal;
  /** URL → HTML served instead of the page (`POST /__emulator/kb/pages`): a page that changes between crawls. */
  pageOverrides: Map<string, string>;
}

let batchSequence = 0;

/** `batch-<ms>-<n>`, like the reference's `batch-1701789123456`, unique within a run. */
export function newBatchId(prefix: string, now: number): string {
  return `${prefix}-${now}-${++batchSequence}`;
}

/** The website, or the 404 every website route answers for an unknown or deleted id. */
export function findWebsite(store: EmulatorStore, id: string): Website {
  const website = store.websites.get(id);
  if (!website) throw notFound(ERROR_CODES.kbNotFound, `Website '${id}' does not exist in this app's knowledge base.`);
  return website;
}
