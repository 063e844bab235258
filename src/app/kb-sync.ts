// `agentsync kb sync` (issue 32): process a website's discovered URLs again, all of them or only
// the failed ones, through `PATCH …/discovered-urls/sync`; or, with `reindex`, re-run indexing of
// the whole source through `PATCH …/{sourceType}/{uniqueId}/sync`. The manifest's excludes (as the
// state recorded them) are honoured: an excluded URL is never sent. The reference states no bound on
// `uniqueIds`, and version A answers 400 to an empty list, so ids go in batches of the reference's
// one stated size (100) and nothing is sent when nothing is left.
import { isUserError, UserError, type ErrorCode } from '../core/errors.js';
import { matchIds, matchWebsite } from '../core/kinds/website/match.js';
import { discoveredUrlsPath, websitePath, type DiscoveredUrl } from '../core/kinds/website/urls.js';
import type { State } from '../core/state.js';
import { isApiError } from '../io/api/api-error.js';
import type { ApiClient } from '../io/api/client.js';
import { isObject, type WireRequest } from '../core/kinds/kind.js';
import { scrubOutside } from '../io/api/outside-text.js';
import { mapBounded, readOne, WEBSITE_READ_CONCURRENCY, websiteIdOf } from '../io/api/read-websites.js';
import type { WaitTarget } from './kb-wait.js';

/** Ids per sync call: the reference's page size, the only bound it states for a list of ids. */
export const SYNC_BATCH = 100;

export interface KbSyncRequest {
  /** Only the URLs whose status is `failed`. */
  failedOnly: boolean;
  /** Re-index the whole source instead of listing URLs. */
  reindex: boolean;
}

export interface KbSyncResult {
  address: string;
  websiteId: string;
  mode: 'urls' | 'reindex';
  /** URLs sent to be processed again (with reindex: every URL not excluded). */
  urls: number;
  /** Calls made: sync batches, or 1 for a re-index, 0 when nothing was left to send. */
  calls: number;
}

/** A website whose sync failed; the others went on. */
export interface KbSyncFailure {
  address: string;
  code: ErrorCode;
  /** One line that names the website. */
  message: string;
}

export interface KbSyncOutcome {
  /** The websites whose sync was sent (or had nothing to send), in the order asked. */
  websites: KbSyncResult[];
  /** What a wait follows: the URLs each of those websites processes again. */
  targets: WaitTarget[];
  /** The websites whose sync failed. Each website is its own call, so one failing stops no other. */
  failed: KbSyncFailure[];
}

export async function syncWebsites(client: ApiClient, state: State, addresses: readonly string[], request: KbSyncRequest): Promise<KbSyncOutcome> {
  if (request.failedOnly && request.reindex) throw new UserError('usage', '--failed and --reindex cannot be combined: --reindex re-indexes the whole source, --failed only the failed URLs');
  const settled = await mapBounded(addresses, WEBSITE_READ_CONCURRENCY, async (address) => {
    try {
      return await syncOne(client, state, address, request);
    } catch (err) {
      // A failure the user can act on is this website's (every server error reaches here as a
      // UserError naming it: readOne and sendSync wrap them); a bug still ends the run.
      if (isUserError(err)) return { address, code: err.code, message: err.message };
      throw err;
    }
  });
  const outcome: KbSyncOutcome = { websites: [], targets: [], failed: [] };
  for (const item of settled) {
    if ('result' in item) {
      outcome.websites.push(item.result);
      outcome.targets.push(item.target);
    } else outcome.failed.push(item);
  }
  return outcome;
}

/**
 * The error a run with failed websites ends in, one line: the failure itself when one website
 * failed, each of them when several did, and how many others were sent, so nobody takes a failed
 * run to mean nothing was sent. Undefined when none failed.
 */
export function syncFailure(outcome: KbSyncOutcome): UserError | undefined {
  const [first, ...rest] = outcome.failed;
  if (first === undefined) return undefined;
  const sent = outcome.websites.length;
  const others = sent === 0 ? '' : ` (${sent} other website${sent === 1 ? ' was' : 's were'} synced)`;
  const what = rest.length === 0 ? first.message : `${outcome.failed.length} websites failed: ${outcome.failed.map((f) => f.message).join('; ')}`;
  return new UserError(rest.length === 0 ? first.code : 'api_error', `${what}${others}`, { failed: outcome.failed.map((f) => f.address), synced: outcome.websites.map((w) => w.address) });
}

async function syncOne(client: ApiClient, state: State, address: string, request: KbSyncRequest): Promise<{ result: KbSyncResult; target: WaitTarget }> {
  const entry = state.resources[address];
  const websiteId = entry ? websiteIdOf(entry) : undefined;
  if (!entry || websiteId === undefined) throw new UserError('state_invalid', `${address} has no website id in the state`);
  const urls = await readOne(client, { address, websiteId });
  if (urls === undefined) throw new UserError('api_error', `${address}: the server no longer has its website (404); run \`agentsync plan\` to see it as deleted`);
  const exclude = Array.isArray(entry.spec.exclude) ? entry.spec.exclude.filter((item): item is string => typeof item === 'string') : [];
  const processIds = new Set(typeof entry.spec.url === 'string' ? matchWebsite(exclude, urls).processIds : matchIds(exclude, urls).processIds);
  const chosen = urls.filter((url) => processIds.has(url.id) && (!request.failedOnly || url.status === 'failed'));
  const target: WaitTarget = { address, websiteId, urls: new Map(chosen.map((url) => [url.id, url.url])) };
  const base = { address, websiteId, urls: chosen.length };
  if (request.reindex) {
    // The website is the source; its type in the path is `website`, as in the knowledge-base list.
    await sendSync(client, address, { method: 'PATCH', path: `${websitePath(websiteId)}/sync`, repeatable: true });
    return { result: { ...base, mode: 'reindex', calls: 1 }, target };
  }
  const calls = await sendBatches(client, address, websiteId, chosen);
  return { result: { ...base, mode: 'urls', calls }, target };
}

/** Re-processing a URL twice is harmless, so a batch whose answer was lost may be sent again. */
async function sendBatches(client: ApiClient, address: string, websiteId: string, chosen: readonly DiscoveredUrl[]): Promise<number> {
  const path = `${discoveredUrlsPath(websiteId)}/sync`;
  let calls = 0;
  for (let from = 0; from < chosen.length; from += SYNC_BATCH) {
    const uniqueIds = chosen.slice(from, from + SYNC_BATCH).map((url) => url.id);
    try {
      await sendSync(client, address, { method: 'PATCH', path, body: { uniqueIds }, repeatable: true });
    } catch (err) {
      // The batches before this one were sent: say so, or a rerun's user thinks nothing happened.
      if (calls > 0 && err instanceof UserError) throw new UserError(err.code, `${err.message} (${calls} earlier sync call${calls === 1 ? ' was' : 's were'} sent)`, err.details);
      throw err;
    }
    calls++;
  }
  return calls;
}

/**
 * One sync call. A failed call is the website's error in one line (an ApiError is not a UserError,
 * and would print as an internal error); `{success: false}` is a refusal, never "processing again".
 */
async function sendSync(client: ApiClient, address: string, request: WireRequest): Promise<void> {
  let answer: unknown;
  try {
    answer = await client.request(request);
  } catch (err) {
    if (isApiError(err)) throw new UserError('api_error', `${address}: ${err.message}`, { address, status: err.status });
    throw err;
  }
  // The path holds the website's id, which may be a secret (a parentUniqueId from ${secret:…}).
  if (isObject(answer) && answer.success === false)
    throw new UserError('api_error', `${address}: ${request.method} ${scrubOutside(request.path)} answered "success": false; nothing is processed again`, { address });
}
