// The knowledge base as the CLI reads it: `kb status`, `kb sync` and the wait of `apply --wait`.
import { kbReportOf, kbStatusOf, kbSyncOf, kbWaitOf, type KbReport } from '../app/kb.js';
import type { KbSourceStatus } from '../app/kb-sources.js';
import type { KbWebsiteStatus } from '../app/kb-status.js';
import type { KbCounts, KbWaitResult } from '../app/kb-wait.js';
import { syncFailure, type KbSyncResult } from '../app/kb-sync.js';
import type { ApiClient } from '../io/api/index.js';
import { connectorOf, inCall, loadWithStore, type ClientOptions, type LoadOptions, type StateOptions } from './call.js';

export type { KbCounts, KbReport, KbSourceStatus, KbSyncResult, KbWaitResult, KbWebsiteStatus };

export interface KbOptions extends LoadOptions, ClientOptions, StateOptions {
  /** One website (`website.<key>`, or just the key); default: every website in the state. */
  address?: string;
  client?: ApiClient;
}

/** `agentsync kb status`: per website, how many discovered URLs are in each status. `urls: true` lists them. */
export function kbStatus(options: KbOptions & { urls?: boolean } = {}): Promise<KbWebsiteStatus[]> {
  return inCall(options, async () => {
    const loaded = await loadWithStore(options);
    return kbStatusOf({ ...loaded, connect: connectorOf(loaded.desired.environment, options, 8), urls: options.urls === true, ...(options.address === undefined ? {} : { address: options.address }) });
  });
}

/**
 * `agentsync kb status` whole: the websites (as `kbStatus` gives them) and each text entry's
 * indexing status (`sources`). `address` may name a text entry (`text.<key>`) too.
 */
export function kbReport(options: KbOptions & { urls?: boolean } = {}): Promise<KbReport> {
  return inCall(options, async () => {
    const loaded = await loadWithStore(options);
    return kbReportOf({ ...loaded, connect: connectorOf(loaded.desired.environment, options, 8), urls: options.urls === true, ...(options.address === undefined ? {} : { address: options.address }) });
  });
}

export interface WaitOptions extends KbOptions {
  /** Give up after this long (the result then says `timedOut`). Default 30 minutes. */
  timeoutMs?: number;
  /** Between polls. Default 2 s. */
  pollMs?: number;
  onProgress?: (counts: KbCounts, elapsedMs: number) => void;
  /** Stops waiting early; what is known so far is returned. */
  signal?: AbortSignal;
}

/**
 * `apply --wait` on its own: waits until the websites the state records (or `address`) finish
 * indexing. Resolves with the counts and the failed URLs; a failed URL is not an exception.
 */
export function waitForIndexing(options: WaitOptions = {}): Promise<KbWaitResult> {
  return inCall(options, async () => {
    const loaded = await loadWithStore(options);
    return kbWaitOf({
      ...loaded,
      connect: connectorOf(loaded.desired.environment, options, 8),
      ...(options.address === undefined ? {} : { address: options.address }),
      options: {
        timeoutMs: options.timeoutMs ?? 30 * 60_000,
        pollMs: options.pollMs ?? 2000,
        onProgress: options.onProgress ?? (() => undefined),
        ...(options.signal ? { signal: options.signal } : {}),
      },
    });
  });
}

export interface KbSyncOptions extends Omit<KbOptions, 'address'> {
  /** Websites (`website.<key>`, or just the key); default: every website in the state. */
  addresses?: readonly string[];
  /** Only the URLs whose processing failed. */
  failed?: boolean;
  /** Re-index the whole source (`PATCH …/website/{id}/sync`) instead of listing URLs. */
  reindex?: boolean;
}

/**
 * `agentsync kb sync`: processes the websites' discovered URLs again (all, or the failed ones),
 * honouring their excludes, in batches of 100. Follow it with `waitForIndexing` to wait.
 */
export function kbSync(options: KbSyncOptions = {}): Promise<KbSyncResult[]> {
  return inCall(options, async () => {
    const loaded = await loadWithStore(options);
    const outcome = await kbSyncOf({
      ...loaded,
      connect: connectorOf(loaded.desired.environment, options, 8),
      addresses: options.addresses ?? [],
      request: { failedOnly: options.failed === true, reindex: options.reindex === true },
    });
    // The error names the websites that failed and those that were synced (`details.synced`).
    const failure = syncFailure(outcome);
    if (failure) throw failure;
    return outcome.websites;
  });
}
