// The knowledge-base use cases as the CLI's `kb status`, `kb sync` and the library's kbStatus,
// kbSync and waitForIndexing run them: the state read, the websites chosen (a bad address refused
// before the key is needed or anything is sent), the client opened only when there is something to
// ask, and released after. Reading and sending are kb-status.ts, kb-sync.ts and kb-wait.ts.
import type { Desired } from '../core/desired.js';
import { UserError } from '../core/errors.js';
import type { State } from '../core/state.js';
import type { ApiClient } from '../io/api/client.js';
import type { StateStore, StateTarget } from '../io/state/index.js';
import type { Connection } from './connection.js';
import { isSourceAddress, readSourceStatuses, sourcesToReport, sourcesToWaitFor, type KbSourceStatus } from './kb-sources.js';
import { readKbStatus, websitesToReport, type KbWebsiteStatus } from './kb-status.js';
import { syncWebsites, type KbSyncOutcome, type KbSyncRequest } from './kb-sync.js';
import { waitForIndexing, type KbWaitOptions, type KbWaitResult } from './kb-wait.js';

export interface KbRequest {
  store: StateStore;
  target: StateTarget;
  /** Opens the client, once the websites are known and only if there are any. */
  connect: () => Promise<Connection>;
}

/** `kb status [ADDRESS]`: no website in the state (or no state) is an empty report, with no call. */
export async function kbStatusOf(request: KbRequest & { address?: string; urls: boolean }): Promise<KbWebsiteStatus[]> {
  return (await kbReportOf(request)).websites;
}

/** What `kb status` reports: the websites' URLs, and the indexed sources (text entries, uploads). */
export interface KbReport {
  websites: KbWebsiteStatus[];
  sources: KbSourceStatus[];
}

/**
 * `kb status [ADDRESS]` with the indexed sources: ADDRESS is a website (its URLs) or a source
 * (`text.refunds`, its status alone). Nothing in the state is an empty report, with no call.
 */
export async function kbReportOf(request: KbRequest & { address?: string; urls: boolean }): Promise<KbReport> {
  const state = await request.store.read(request.target);
  const oneSource = request.address !== undefined && isSourceAddress(request.address);
  const websites = oneSource ? [] : websitesToReport(state, request.address);
  const sources = oneSource || request.address === undefined ? sourcesToReport(state, request.address) : [];
  if (state === null || websites.length + sources.length === 0) return { websites: [], sources: [] };
  return connected(request, async (client) => {
    const [sites, indexed] = await Promise.all([websites.length === 0 ? [] : readKbStatus(client, state, websites, request.urls), readSourceStatuses(client, state, sources)]);
    return { websites: sites, sources: indexed };
  });
}

export interface KbSyncRun extends KbRequest {
  /** Websites (`website.<key>` or the key); empty: every website in the state. */
  addresses: readonly string[];
  request: KbSyncRequest;
  /** Runs with the client still open once the sync was sent (kb sync --wait follows it). */
  afterSync?: (outcome: KbSyncOutcome, client: ApiClient) => Promise<void>;
}

/** `kb sync [ADDRESS…]`: the outcome has each website sent and each that failed; failing is the caller's call (syncFailure). */
export async function kbSyncOf(run: KbSyncRun): Promise<KbSyncOutcome> {
  const state = await run.store.read(run.target);
  const addresses = run.addresses.length === 0 ? websitesToReport(state, undefined) : [...new Set(run.addresses.flatMap((address) => websitesToReport(state, address)))];
  if (state === null || addresses.length === 0) return { websites: [], targets: [], failed: [] };
  return connected(run, async (client) => {
    const outcome = await syncWebsites(client, state, addresses, run.request);
    await run.afterSync?.(outcome, client);
    return outcome;
  });
}

/**
 * What a wait follows: ADDRESS (a website or an indexed source in the state), or every website of
 * the manifest and every indexed source (text entry, upload) of it that the state holds.
 */
export function websitesToWaitFor(desired: Desired, state: State | null, address?: string): string[] {
  if (address !== undefined) return isSourceAddress(address) ? sourcesToReport(state, address) : websitesToReport(state, address);
  return [...desired.resources.filter((r) => r.type === 'website').map((r) => r.address), ...sourcesToWaitFor(desired, state)];
}

/** `waitForIndexing`: the websites the state records finish indexing; no state is a usage error. */
export async function kbWaitOf(request: KbRequest & { desired: Desired; address?: string; options: KbWaitOptions }): Promise<KbWaitResult> {
  const state = await request.store.read(request.target);
  if (state === null) throw new UserError('usage', `no state at ${request.store.location}: nothing has been applied yet`);
  const addresses = websitesToWaitFor(request.desired, state, request.address);
  return connected(request, (client) => waitForIndexing(client, state, addresses, request.options));
}

async function connected<T>(request: Pick<KbRequest, 'connect'>, task: (client: ApiClient) => Promise<T>): Promise<T> {
  const connection = await request.connect();
  try {
    return await task(connection.client);
  } finally {
    await connection.release();
  }
}
