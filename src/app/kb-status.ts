// `agentsync kb status [ADDRESS]` (docs/spec/knowledge-base.md#kb-status): each website's
// discovered URLs counted by status, and, when asked, every URL with its status and the exclude
// glob (or id) that left it out. The websites are those in the state (only they have an id on the
// server), read several at a time.
import { UserError } from '../core/errors.js';
import { isObject, stringField, timestampMs } from '../core/kinds/kind.js';
import { knowledgeBaseEntries } from '../core/kinds/website/lookup.js';
import { keyOfAddress, parseAddress } from '../core/kinds/index.js';
import { closest } from '../core/suggest.js';
import { matchIds, matchWebsite } from '../core/kinds/website/match.js';
import { URL_STATUSES, type DiscoveredUrl } from '../core/kinds/website/urls.js';
import type { State } from '../core/state.js';
import { escapeControl } from '../core/terminal-safe.js';
import type { ApiClient } from '../io/api/client.js';
import { mapBounded, readOne, WEBSITE_READ_CONCURRENCY, websiteIdOf } from '../io/api/read-websites.js';

export interface KbUrlStatus {
  url: string;
  id: string;
  status: string;
  /** The exclude glob (or, in the seed form, `id`) that left it out; absent when it is indexed. */
  excludedBy?: string;
  /** Other URLs the server lists under the same id; a glob matching any of them excludes it. */
  twins?: string[];
}

export interface KbWebsiteStatus {
  address: string;
  websiteId: string;
  /** false when the server answered 404: deleted outside agentsync. */
  found: boolean;
  total: number;
  /** Every status of the reference, 0 when none; other statuses a server sends are added. */
  counts: Record<string, number>;
  /** The newest `lastCrawledAt` of its discovered URLs (ISO 8601), when the server gives them. */
  lastCrawledAt?: string;
  /** When it was last processed or synced (the knowledge-base list's `lastSynced`), when the server says. */
  lastSyncedAt?: string;
  urls?: KbUrlStatus[];
}

/**
 * The websites to report: ADDRESS alone (it must be a website in the state), or every one in the
 * state. ADDRESS is `website.<key>` or the bare key; a near miss is offered as "did you mean".
 */
export function websitesToReport(state: State | null, address: string | undefined): string[] {
  const all = Object.keys(state?.resources ?? {})
    .filter((key) => state?.resources[key]?.type === 'website')
    .sort();
  if (address === undefined) return all;
  return [websiteAddress(all, address)];
}

function websiteAddress(all: readonly string[], address: string): string {
  // A key may hold dots, so the exact address is tried first, then the bare key.
  if (all.includes(address)) return address;
  if (all.includes(`website.${address}`)) return `website.${address}`;
  const wanted = parseAddress(address) === undefined ? `website.${address}` : address;
  if (parseAddress(wanted)?.type !== 'website') {
    throw new UserError('usage', `"${escapeControl(address)}" is not a website address; website addresses look like website.<key> (or just <key>)`);
  }
  const guess = closest(keyOfAddress(wanted), all.map(keyOfAddress));
  const hint = guess === undefined ? '' : `; did you mean "website.${escapeControl(guess)}"?`;
  const known = all.length === 0 ? 'the state has no websites (apply first)' : `the state has ${all.join(', ')}`;
  throw new UserError('usage', `${escapeControl(wanted)} is not in the state: ${known}${hint}`);
}

/** How much longer than the counts the sync times may take before kb status prints without them. */
export const SYNC_TIMES_GRACE_MS = 2_000;

export async function readKbStatus(client: ApiClient, state: State, addresses: readonly string[], withUrls: boolean): Promise<KbWebsiteStatus[]> {
  // The sync times are a courtesy, read beside the counts: a knowledge-base list that stalls must
  // not hold kb status for the client's limits (30 s an attempt, minutes with retries) once the
  // counts, which are what it is for, are in.
  const courtesy = new AbortController();
  const times = readSyncTimes(client, courtesy.signal);
  let grace: ReturnType<typeof setTimeout> | undefined;
  const sites = await mapBounded(addresses, WEBSITE_READ_CONCURRENCY, async (address) => {
    const entry = state.resources[address];
    const websiteId = entry ? websiteIdOf(entry) : undefined;
    if (!entry || websiteId === undefined) throw new UserError('state_invalid', `${address} has no website id in the state`);
    const urls = await readOne(client, { address, websiteId });
    if (urls === undefined) return { address, websiteId, found: false, total: 0, counts: emptyCounts() };
    const exclude = Array.isArray(entry.spec.exclude) ? entry.spec.exclude.filter((item): item is string => typeof item === 'string') : [];
    return statusOf(address, websiteId, urls, typeof entry.spec.url === 'string' ? exclude : undefined, exclude, withUrls);
  }).finally(() => (grace = setTimeout(() => courtesy.abort(), SYNC_TIMES_GRACE_MS)));
  const synced = await times;
  clearTimeout(grace);
  return sites.map((site) => {
    const syncedAt = synced.get(site.websiteId);
    return syncedAt === undefined ? site : { ...site, lastSyncedAt: syncedAt };
  });
}

function statusOf(address: string, websiteId: string, urls: readonly DiscoveredUrl[], globs: readonly string[] | undefined, ids: readonly string[], withUrls: boolean): KbWebsiteStatus {
  const counts = emptyCounts();
  let lastCrawledAt: string | undefined;
  for (const entry of urls) {
    counts[entry.status] = (counts[entry.status] ?? 0) + 1;
    // ISO 8601 strings of one form compare as times.
    if (entry.lastCrawledAt !== undefined && (lastCrawledAt === undefined || entry.lastCrawledAt > lastCrawledAt)) lastCrawledAt = entry.lastCrawledAt;
  }
  const report: KbWebsiteStatus = { address, websiteId, found: true, total: urls.length, counts, ...(lastCrawledAt === undefined ? {} : { lastCrawledAt }) };
  if (!withUrls) return report;
  const excludedBy = globs !== undefined ? matchWebsite(globs, urls).excludedBy : matchIds(ids, urls).excludedBy;
  report.urls = urls.map((entry, i) => {
    const by = excludedBy[i] ?? -1;
    const row: KbUrlStatus = { url: entry.url, id: entry.id, status: entry.status };
    if (by >= 0) row.excludedBy = globs !== undefined ? (globs[by] ?? '') : 'id';
    if (entry.twins !== undefined) row.twins = [...entry.twins];
    return row;
  });
  return report;
}

function emptyCounts(): Record<string, number> {
  return Object.fromEntries(URL_STATUSES.map((status) => [status, 0]));
}

/**
 * website id → when it was last synced, from the knowledge-base list (`lastSynced`; 0 means never).
 * Only for the status line: a list that cannot be read leaves the times out rather than failing.
 */
async function readSyncTimes(client: ApiClient, signal: AbortSignal): Promise<Map<string, string>> {
  const times = new Map<string, string>();
  try {
    for await (const entry of knowledgeBaseEntries((path) => client.request({ method: 'GET', path }, { signal }))) {
      if (!isObject(entry)) continue;
      const id = stringField(entry, 'uniqueId') ?? stringField(entry, 'id');
      const ms = timestampMs(entry.lastSynced);
      if (id !== undefined && ms !== undefined && ms > 0) times.set(id, new Date(ms).toISOString());
    }
  } catch {
    // The counts are what kb status is for; the times are a courtesy.
  }
  return times;
}
