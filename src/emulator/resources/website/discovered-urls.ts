// Knowledge base, one website's discovered URLs: list them (cursor paging), process them except
// some, poll their status, and re-process some (sync). Every route answers 404 for an unknown or
// deleted website. Processing answers 404 when nothing is left after the exclusions, as version A
// of the reference says. Scrape, delete and the knowledge-base list are in sources.ts.
import type { ProcessUrlsResponse } from '../../../core/api-types.js';
import { ERROR_CODES } from '../../error-codes.js';
import { ApiError, badRequest, notFound } from '../../errors.js';
import { findWebsite, newBatchId, type KbContext } from '../../kb/context.js';
import { locateBySeq, pageOf, paginationKey, readPageRequest } from '../../kb/paging.js';
import { presentDiscoveredUrl } from '../../kb/present.js';
import { skip, startProcessing, statusAt } from '../../kb/progress.js';
import { refetchPages } from '../../kb/refetch.js';
import { withTwins } from '../../kb/twins.js';
import type { ApiRequest, ApiResponse, Route } from '../../router.js';
import type { DiscoveredUrl, DiscoveredUrlStatus } from '../../store.js';
import { quoteList, rejectUnknownKeys, requireObjectBody, requireStringArray } from '../../validate.js';

export const WEBSITE_PATH = '/ai-agents/agent-builder/knowledge-base/website/:parentUniqueId/discovered-urls';
const PROCESS_KEYS = new Set(['exclude']);
const POLL_KEYS = new Set(['uniqueId']);
const SYNC_KEYS = new Set(['uniqueIds']);
const STATUSES: readonly DiscoveredUrlStatus[] = ['discovered', 'processing', 'processed', 'failed', 'skipped'];

export function knowledgeBaseRoutes(kb: KbContext): Route[] {
  return [
    { pattern: WEBSITE_PATH, methods: { GET: (request) => listDiscoveredUrls(kb, request) } },
    { pattern: `${WEBSITE_PATH}/process`, methods: { POST: (request) => processUrls(kb, request) } },
    { pattern: `${WEBSITE_PATH}/status/poll`, methods: { POST: (request) => pollUrls(kb, request) } },
    { pattern: `${WEBSITE_PATH}/sync`, methods: { PATCH: (request) => syncUrls(kb, request) } },
  ];
}

/** `GET …/discovered-urls?cursor&limit&affix&status&startTime&endTime`: `{data, meta}` in discovery order. */
function listDiscoveredUrls(kb: KbContext, request: ApiRequest): ApiResponse {
  if (kb.config.kbThrottleNext > 0) {
    kb.config.kbThrottleNext--;
    const retryAfter = String(kb.config.kbThrottleRetryAfterSeconds);
    throw new ApiError(429, ERROR_CODES.tooManyRequests, 'Rate limit hit (injected by kbThrottleNext).', { 'Retry-After': retryAfter });
  }
  const website = findWebsite(kb.store, request.params.parentUniqueId ?? '');
  const page = readPageRequest(request.query);
  const wantedStatus = request.query.get('status');
  if (wantedStatus !== null && !STATUSES.includes(wantedStatus as DiscoveredUrlStatus)) {
    throw badRequest(`'status' must be one of ${STATUSES.join(', ')}; got "${wantedStatus}".`);
  }
  const startTime = timeParameter(request.query, 'startTime');
  const endTime = timeParameter(request.query, 'endTime');
  const now = kb.clock.now();
  const keep = (entry: DiscoveredUrl): boolean =>
    (wantedStatus === null || statusAt(entry, now) === wantedStatus) && (startTime === undefined || (entry.createdAt ?? 0) > startTime) && (endTime === undefined || (entry.createdAt ?? 0) < endTime);
  const keyOf = (entry: DiscoveredUrl): string => paginationKey(entry.createdAt, entry.seq);
  // Discovered URLs are stored in ascending seq (discovery order), so the cursor is found by binary search.
  const locate = (cursor: string): number => locateBySeq(website.discoveredUrls, (entry) => entry.seq ?? 0, keyOf, cursor);
  const { data, meta } = pageOf(website.discoveredUrls, keyOf, keep, page, locate);
  if (kb.config.kbCursorForever) {
    // The fault: the next cursor is the one just sent, so a client that follows it never ends.
    const last = data[data.length - 1];
    const cursor = page.cursor ?? (last ? keyOf(last) : undefined);
    if (cursor !== undefined) meta.next = { affix: 'append', cursor };
  }
  return {
    status: 200,
    body: {
      data: withTwins(
        data.map((entry) => presentDiscoveredUrl(entry, now)),
        kb.config.kbTwinUrls,
      ),
      meta,
    },
  };
}

export function timeParameter(query: URLSearchParams, name: string): number | undefined {
  const text = query.get(name);
  if (text === null) return undefined;
  const value = Number(text);
  if (text.trim() === '' || !Number.isFinite(value)) throw badRequest(`'${name}' must be a number (epoch ms); got "${text}".`);
  return value;
}

function processUrls(kb: KbContext, request: ApiRequest): ApiResponse {
  if (kb.config.kbProcessFailNext > 0) {
    kb.config.kbProcessFailNext--;
    throw new ApiError(500, 'ERR_INTERNAL', 'Failed to start processing (injected by kbProcessFailNext).');
  }
  const body = requireObjectBody(request.body);
  rejectUnknownKeys(body, PROCESS_KEYS, '');
  if (body.exclude === undefined || body.exclude === null) throw badRequest("'exclude' is required (an array of discovered-URL ids, may be empty).");
  const exclude = new Set(requireStringArray(body.exclude, 'exclude'));
  const website = findWebsite(kb.store, request.params.parentUniqueId ?? '');
  const known = kb.store.discoveredUrls.get(website.parentUniqueId) ?? new Map<string, DiscoveredUrl>();
  const unknown = [...exclude].filter((id) => !known.has(id));
  if (unknown.length > 0) {
    throw badRequest(`'exclude' names ${quoteList(unknown.slice(0, 20))}${unknown.length > 20 ? ` and ${unknown.length - 20} more` : ''}, not discovered URLs of website '${website.parentUniqueId}'.`);
  }
  // URLs already processed count as left to process, so a changed exclude list can be applied again.
  const toProcess = website.discoveredUrls.filter((entry) => !exclude.has(entry.uniqueId));
  if (toProcess.length === 0) {
    const why = website.discoveredUrls.length === 0 ? 'has no discovered URLs' : 'has every discovered URL excluded';
    throw notFound(ERROR_CODES.kbNotFound, `No valid URLs to process: website '${website.parentUniqueId}' (${website.url}) ${why}.`);
  }
  const now = kb.clock.now();
  for (const entry of website.discoveredUrls) if (exclude.has(entry.uniqueId)) skip(entry, now);
  startProcessing(toProcess, now, kb.config);
  const batchId = newBatchId('batch', now);
  website.lastBatchId = batchId;
  website.updatedAt = now;
  website.lastSyncedAt = now;
  kb.store.changed();
  const response: ProcessUrlsResponse = {
    success: true,
    message: 'Batch processing initiated successfully',
    data: { batchId, urlsProcessed: 0, totalUrls: toProcess.length, webhookUrl: `${kb.webhookBaseUrl()}/${batchId}`, status: 'processing' },
  };
  return { status: 200, body: response };
}

/** `{uniqueId: [...]}` → `{success, data: {id: status}}`; ids that are not URLs of this website are left out. */
function pollUrls(kb: KbContext, request: ApiRequest): ApiResponse {
  const body = requireObjectBody(request.body);
  rejectUnknownKeys(body, POLL_KEYS, '');
  if (body.uniqueId === undefined || body.uniqueId === null) throw badRequest("'uniqueId' is required (an array of discovered-URL ids).");
  const ids = requireStringArray(body.uniqueId, 'uniqueId');
  const website = findWebsite(kb.store, request.params.parentUniqueId ?? '');
  const known = kb.store.discoveredUrls.get(website.parentUniqueId);
  const now = kb.clock.now();
  const data: Record<string, DiscoveredUrlStatus> = {};
  for (const id of ids) {
    const entry = known?.get(id);
    if (entry) data[id] = statusAt(entry, now);
  }
  return { status: 200, body: { success: true, data } };
}

/** Re-processes the listed URLs; excluded (skipped) ones are ignored, as the reference says. */
async function syncUrls(kb: KbContext, request: ApiRequest): Promise<ApiResponse> {
  const body = requireObjectBody(request.body);
  rejectUnknownKeys(body, SYNC_KEYS, '');
  if (body.uniqueIds === undefined || body.uniqueIds === null) throw badRequest("'uniqueIds' is required (an array of discovered-URL ids).");
  const ids = [...new Set(requireStringArray(body.uniqueIds, 'uniqueIds'))];
  // Version A: an empty list is a 400 (O's text says it retries every failed page; A is the one followed).
  if (ids.length === 0) throw badRequest("'uniqueIds' must name at least one discovered URL.");
  const website = findWebsite(kb.store, request.params.parentUniqueId ?? '');
  const known = kb.store.discoveredUrls.get(website.parentUniqueId);
  const chosen: DiscoveredUrl[] = [];
  let excluded = 0;
  for (const id of ids) {
    const entry = known?.get(id);
    if (!entry) continue;
    if (entry.status === 'skipped') excluded++;
    else chosen.push(entry);
  }
  if (chosen.length === 0) throw notFound(ERROR_CODES.kbNotFound, `None of the ids is a non-excluded discovered URL of website '${website.parentUniqueId}'.`);
  for (const entry of chosen) entry.retryCount = (entry.retryCount ?? 0) + 1;
  const unreadable = await refetchPages(kb, chosen);
  const now = kb.clock.now();
  startProcessing(chosen, now, kb.config, unreadable);
  const batchId = newBatchId('sync-batch', now);
  website.updatedAt = now;
  website.lastSyncedAt = now;
  kb.store.changed();
  return {
    status: 200,
    body: {
      success: true,
      message: 'Sync processing initiated successfully',
      data: {
        batchId,
        urlsProcessed: chosen.length,
        totalRequested: ids.length,
        excludedUrls: excluded,
        webhookUrl: `${kb.webhookBaseUrl()}/${batchId}`,
        status: 'processing',
        processedUrls: chosen.map((entry) => entry.uniqueId),
      },
    },
  };
}

/** Re-processes every URL of a website that is not excluded (the generic `…/{sourceType}/{uniqueId}/sync`). */
export async function resyncWebsite(kb: KbContext, parentUniqueId: string): Promise<void> {
  const website = findWebsite(kb.store, parentUniqueId);
  const chosen = website.discoveredUrls.filter((entry) => entry.status !== 'skipped');
  const unreadable = await refetchPages(kb, chosen);
  const now = kb.clock.now();
  startProcessing(chosen, now, kb.config, unreadable);
  website.updatedAt = now;
  website.lastSyncedAt = now;
  kb.store.changed();
}
