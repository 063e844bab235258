// The knowledge base as the CLI reads it: `kb status`, `kb sync` and the wait of `apply --wait`.
import { UserError } from '../core/errors.js';
import { readKbStatus, websitesToReport, type KbWebsiteStatus } from '../app/kb-status.js';
import { waitForIndexing as waitUseCase, type KbCounts, type KbWaitResult } from '../app/kb-wait.js';
import { syncFailure, syncWebsites, type KbSyncResult } from '../app/kb-sync.js';
import type { ApiClient } from '../io/api/index.js';
import { inCall, loadWithStore, withClient, type ClientOptions, type LoadOptions, type StateOptions } from './call.js';

export type { KbCounts, KbSyncResult, KbWaitResult, KbWebsiteStatus };

export interface KbOptions extends LoadOptions, ClientOptions, StateOptions {
  /** One website (`website.<key>`, or just the key); default: every website in the state. */
  address?: string;
  client?: ApiClient;
}

/** `agentsync kb status`: per website, how many discovered URLs are in each status. `urls: true` lists them. */
export function kbStatus(options: KbOptions & { urls?: boolean } = {}): Promise<KbWebsiteStatus[]> {
  return inCall(options, async () => {
    const loaded = await loadWithStore(options);
    const state = await loaded.store.read(loaded.target);
    const addresses = websitesToReport(state, options.address);
    if (state === null || addresses.length === 0) return [];
    return withClient(loaded.desired.environment, { ...options, concurrency: options.concurrency ?? 8 }, (client) => readKbStatus(client, state, addresses, options.urls === true));
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
    const state = await loaded.store.read(loaded.target);
    if (state === null) throw new UserError('usage', `no state at ${loaded.store.location}: nothing has been applied yet`);
    const addresses = options.address === undefined ? loaded.desired.resources.filter((r) => r.type === 'website').map((r) => r.address) : websitesToReport(state, options.address);
    return withClient(loaded.desired.environment, { ...options, concurrency: options.concurrency ?? 8 }, (client) =>
      waitUseCase(client, state, addresses, {
        timeoutMs: options.timeoutMs ?? 30 * 60_000,
        pollMs: options.pollMs ?? 2000,
        onProgress: options.onProgress ?? (() => undefined),
        ...(options.signal ? { signal: options.signal } : {}),
      }),
    );
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
    const state = await loaded.store.read(loaded.target);
    const wanted = options.addresses ?? [];
    const addresses = wanted.length === 0 ? websitesToReport(state, undefined) : [...new Set(wanted.flatMap((address) => websitesToReport(state, address)))];
    if (state === null || addresses.length === 0) return [];
    const request = { failedOnly: options.failed === true, reindex: options.reindex === true };
    return withClient(loaded.desired.environment, { ...options, concurrency: options.concurrency ?? 8 }, async (client) => {
      const outcome = await syncWebsites(client, state, addresses, request);
      // The error names the websites that failed and those that were synced (`details.synced`).
      const failure = syncFailure(outcome);
      if (failure) throw failure;
      return outcome.websites;
    });
  });
}
