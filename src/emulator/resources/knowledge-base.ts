// Knowledge base: start processing a website's discovered URLs, and list them. Processing answers
// 404 when nothing is left after the exclusions, as version A of the reference says.
import { API_ERROR_CODES, type ProcessUrlsResponse } from '../../core/api-types.js';
import { badRequest, notFound } from '../errors.js';
import type { ApiRequest, ApiResponse, Route } from '../router.js';
import type { DiscoveredUrl, EmulatorStore, Website } from '../store.js';
import { quoteList, rejectUnknownKeys, requireObjectBody, requireStringArray } from '../validate.js';

const WEBSITE_PATH = '/ai-agents/agent-builder/knowledge-base/website/:parentUniqueId/discovered-urls';
const PROCESS_KEYS = new Set(['exclude']);

/** `webhookUrl` must be a URL; the emulator sends no webhooks, so it points at a fixed placeholder. */
export interface KnowledgeBaseOptions {
  webhookBaseUrl: () => string;
}

export function knowledgeBaseRoutes(store: EmulatorStore, options: KnowledgeBaseOptions): Route[] {
  let batchSequence = 0;
  return [
    { pattern: WEBSITE_PATH, methods: { GET: (request) => listDiscoveredUrls(store, request) } },
    {
      pattern: `${WEBSITE_PATH}/process`,
      methods: { POST: (request) => processUrls(store, request, `batch-${Date.now()}-${++batchSequence}`, options) },
    },
  ];
}

function findWebsite(store: EmulatorStore, request: ApiRequest): Website {
  const id = request.params.parentUniqueId ?? '';
  const website = store.websites.get(id);
  if (!website) throw notFound(API_ERROR_CODES.kbNotFound, `Website '${id}' does not exist in this app's knowledge base.`);
  return website;
}

/** Version A names a discovered URL's id `urlId`; the emulator sends it beside its own `uniqueId`. */
function listDiscoveredUrls(store: EmulatorStore, request: ApiRequest): ApiResponse {
  const website = findWebsite(store, request);
  return { status: 200, body: { success: true, data: website.discoveredUrls.map((entry) => ({ ...entry, urlId: entry.uniqueId })) } };
}

function processUrls(store: EmulatorStore, request: ApiRequest, batchId: string, options: KnowledgeBaseOptions): ApiResponse {
  const body = requireObjectBody(request.body);
  rejectUnknownKeys(body, PROCESS_KEYS, '');
  if (body.exclude === undefined || body.exclude === null) throw badRequest("'exclude' is required (an array of discovered-URL ids, may be empty).");
  const exclude = new Set(requireStringArray(body.exclude, 'exclude'));
  const website = findWebsite(store, request);
  const known = store.discoveredUrls.get(website.parentUniqueId) ?? new Map<string, DiscoveredUrl>();
  const unknown = [...exclude].filter((id) => !known.has(id));
  if (unknown.length > 0) {
    throw badRequest(`'exclude' names ${quoteList(unknown)}, not discovered URLs of website '${website.parentUniqueId}'.`);
  }
  // URLs already processed count as left to process, so a changed exclude list can be applied again.
  const toProcess = website.discoveredUrls.filter((entry) => !exclude.has(entry.uniqueId)).length;
  if (toProcess === 0) {
    const why = website.discoveredUrls.length === 0 ? 'has no discovered URLs' : 'has every discovered URL excluded';
    throw notFound(API_ERROR_CODES.kbNotFound, `No valid URLs to process: website '${website.parentUniqueId}' (${website.url}) ${why}.`);
  }
  for (const entry of website.discoveredUrls) entry.status = exclude.has(entry.uniqueId) ? 'skipped' : 'processing';
  website.lastBatchId = batchId;
  store.changed();
  const response: ProcessUrlsResponse = {
    success: true,
    message: 'Batch processing initiated successfully',
    data: {
      batchId,
      urlsProcessed: 0,
      totalUrls: toProcess,
      webhookUrl: `${options.webhookBaseUrl()}/${batchId}`,
      status: 'processing',
    },
  };
  return { status: 200, body: response };
}
