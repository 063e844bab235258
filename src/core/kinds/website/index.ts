// Knowledge-base websites, in two forms (docs/spec/knowledge-base.md#two-forms):
// - `url` (+ maxDepth, maxPages, `exclude` as URL globs): a new one is scraped, its id recorded;
//   then every page of its discovered URLs is read, the globs give the ids to leave out, and
//   processing starts. An update reads and processes again; --prune deletes it.
// - the seed's `parentUniqueId` + `exclude` of ids: only "process, except these", which is both
//   create and update, its batch id recorded.
// Both are refreshed by reading their discovered URLs (./observe.ts). Re-sending a
// process call is harmless, so an interrupted one is simply sent again. A scrape is not: it is
// journaled pending before it leaves, and after a lost answer the website it made is looked up
// (lookup.ts) and adopted before anything is scraped again.
import { websiteManifest } from './manifest.js';
import type { JsonObject } from '../../api-types.js';
import type { WebsiteSpec } from '../../desired.js';
import { isUserError } from '../../errors.js';
import { answeredStatus, isObject, PartlyDone, sendDelete, stringField, UnexpectedAnswer, type CallContext, type CallOutcome, type Kind } from '../kind.js';
import type { FieldTable } from '../fields.js';
import { findScrapedWebsite } from './lookup.js';
import { matchWebsite, showMatchedUrls } from './match.js';
import { discoveredUrlsPath, readDiscoveredUrls, websitePath } from './urls.js';

/** The website's field facts (docs/spec/server.md#field-facts). A discovered-URL listing returns none of them. */
const WEBSITE_FIELDS: FieldTable<WebsiteSpec> = {
  url: {},
  maxDepth: {},
  maxPages: {},
  crawl: {},
  parentUniqueId: {},
  exclude: { default: () => [], set: true },
  matchedUrls: { shownAs: showMatchedUrls },
};

/** Changing one of these is a different crawl: scraped anew, the old website deleted. */
const CRAWL_FIELDS = ['url', 'maxDepth', 'maxPages', 'crawl'] as const;

export const SCRAPE_PATH = '/ai-agents/agent-builder/knowledge-base/website/scrape';

export const websiteKind: Kind<WebsiteSpec> = {
  type: 'website',
  // The seed form's id is the batch id; a url website's is the website id (the label stays for the seed's output).
  remoteIdLabel: 'batchId',
  keyPattern: websiteManifest.keyPattern,
  section: websiteManifest.section,
  // The scrape is not repeatable; it marks itself pending and looks itself up (ctx.unrepeatable).
  createIsRepeatable: false,
  dependsOn: [],
  fields: WEBSITE_FIELDS,
  replacedBy: CRAWL_FIELDS,
  normalizeMore: normalizeCrawl,
  // The batch id of an earlier processing cannot be read back; the next change processes again.
  importedRemoteId: '(imported)',
  // An agent attaches the website by its id: the seed form names it; an imported one has none known.
  referenceIdOf: (spec, remoteId) => (typeof spec.parentUniqueId === 'string' ? spec.parentUniqueId : remoteId === '(imported)' ? undefined : remoteId),
  create: (ctx, spec, key) => (spec.url === undefined ? processSeed(ctx, spec, key) : scrapeAndProcess(ctx, spec, key)),
  update: (ctx, spec, key, remoteId, changed) => {
    if (spec.url === undefined) return processSeed(ctx, spec, key);
    // A website first written in the seed form has no crawl of ours to keep (and none to delete).
    if (changed?.has('parentUniqueId') === true) return scrapeAndProcess(ctx, spec, key, true);
    if (CRAWL_FIELDS.some((field) => changed?.has(field) === true)) return recrawl(ctx, spec, key, remoteId);
    return reprocess(ctx, spec, key, remoteId);
  },
  remove: {
    // Only a website agentsync scraped is ours to delete; the seed form's is only forgotten.
    applies: (spec) => typeof spec.url === 'string',
    describe: (remoteId) => `DELETE ${websitePath(remoteId)}`,
    send: (ctx, remoteId) => sendDelete(ctx, websitePath(remoteId)),
  },
  // The API lists no websites, but one an agent attaches is known by its id: the seed form names it
  // as it is, processing every URL it discovered (what an attached website's knowledge holds).
  exportById: (remoteId) => ({ parentUniqueId: remoteId, exclude: [] }),
  describe: (action, spec, _key, remoteId) => {
    if (spec.url === undefined) return `POST ${discoveredUrlsPath(spec.parentUniqueId ?? '')}/process`;
    return action === 'create' || remoteId === undefined ? `POST ${SCRAPE_PATH}` : `POST ${discoveredUrlsPath(remoteId)}/process`;
  },
};

/**
 * `crawl.include` and `crawl.exclude` are sets: the crawler follows a URL containing any include
 * and none of the excludes, so their order means nothing, and a reordered list must not re-crawl.
 * Compared sorted and de-duplicated, like the field table's sets; the same object when already so.
 */
function normalizeCrawl(spec: JsonObject): JsonObject {
  const crawl = spec.crawl;
  if (!isObject(crawl)) return spec;
  let normal: JsonObject | undefined;
  for (const name of ['include', 'exclude'] as const) {
    const list = crawl[name];
    if (!Array.isArray(list) || isSortedStringSet(list)) continue;
    normal ??= { ...(crawl as JsonObject) };
    normal[name] = [...new Set(list.map(String))].sort();
  }
  return normal === undefined ? spec : { ...spec, crawl: normal };
}

function isSortedStringSet(list: readonly unknown[]): boolean {
  for (let i = 0; i < list.length; i++) {
    const item = list[i];
    if (typeof item !== 'string' || (i > 0 && !((list[i - 1] as string) < item))) return false;
  }
  return true;
}

/** The seed form: process the named website except the named ids. */
async function processSeed(ctx: CallContext, spec: WebsiteSpec, key: string): Promise<CallOutcome> {
  const batchId = await sendProcess(ctx, spec.parentUniqueId ?? '', spec.exclude ?? [], key);
  return { remoteId: batchId };
}

/** Marks a website whose processing never completed: the next plan shows an update, which processes it. */
export const NOT_PROCESSED = 'not processed yet';

/** `withSteps`: say what was done, as a replacement's progress line does (a create's names its call). */
async function scrapeAndProcess(ctx: CallContext, spec: WebsiteSpec, key: string, withSteps = false): Promise<CallOutcome> {
  const { websiteId, adopted } = await scrapeOnce(ctx, spec, key);
  try {
    const { processed, ...outcome } = await processWebsite(ctx, spec, key, websiteId);
    const steps = withSteps ? { steps: [crawledStep(adopted), processedStep(processed)] } : {};
    return { ...outcome, ...(adopted ? { adopted } : {}), ...steps };
  } catch (err) {
    // The website exists now: its id is kept, so a rerun processes it instead of scraping a second one.
    throw new PartlyDone(websiteId, { matchedUrls: NOT_PROCESSED }, err);
  }
}

/**
 * A new crawl replaces the old website: the new one is processed first, then the old one deleted
 * (a 404 is fine). The new id, and the old one's pending delete, are recorded as soon as the scrape
 * answers, so neither a failed processing nor a failed DELETE loses a website.
 */
async function recrawl(ctx: CallContext, spec: WebsiteSpec, key: string, oldId: string): Promise<CallOutcome> {
  const { websiteId, adopted } = await scrapeOnce(ctx, spec, key);
  if (websiteId === oldId) {
    // The server crawled into the website it already had: nothing old is left to delete.
    const { processed, ...outcome } = await processWebsite(ctx, spec, key, websiteId);
    return { ...outcome, steps: ['crawled into the same website', processedStep(processed)] };
  }
  await ctx.replacement?.replace(websiteId, { matchedUrls: NOT_PROCESSED }, oldId);
  let processing: ProcessOutcome;
  try {
    processing = await processWebsite(ctx, spec, key, websiteId);
  } catch (err) {
    throw new PartlyDone(websiteId, { matchedUrls: NOT_PROCESSED }, err);
  }
  const { processed, ...outcome } = processing;
  try {
    await sendDelete(ctx, websitePath(oldId));
  } catch (err) {
    throw new PartlyDone(websiteId, outcome.recorded ?? {}, err);
  }
  await ctx.replacement?.superseded(oldId);
  return { ...outcome, ...(adopted ? { adopted } : {}), steps: [crawledStep(adopted), processedStep(processed), 'old deleted'] };
}

function crawledStep(adopted: boolean): string {
  return adopted ? 'adopted the crawl an interrupted apply had started' : 'crawled';
}

function processedStep(processed: boolean): string {
  return processed ? 'processed' : 'nothing to process';
}

/** An update that keeps the crawl: its URLs processed again. */
async function reprocess(ctx: CallContext, spec: WebsiteSpec, key: string, websiteId: string): Promise<CallOutcome> {
  const { remoteId, recorded } = await processWebsite(ctx, spec, key, websiteId);
  return { remoteId, ...(recorded ? { recorded } : {}) };
}

/** A processing's outcome, and whether a process call was sent (not when every URL is excluded). */
type ProcessOutcome = CallOutcome & { processed: boolean };

/** Reads every page of the website's URLs, resolves the globs, and starts processing the rest. */
async function processWebsite(ctx: CallContext, spec: WebsiteSpec, key: string, websiteId: string): Promise<ProcessOutcome> {
  let urls;
  try {
    urls = await readDiscoveredUrls((path, limits) => ctx.wire.send({ method: 'GET', path, ...limits }), websiteId, `website.${key}`);
  } catch (err) {
    // A listing that cannot be used (it never ends, an entry without an id) fails this website's
    // change, like any answer it cannot accept; it is not a reason to stop the whole apply.
    if (isUserError(err)) throw new UnusableListing(err.message, `GET ${discoveredUrlsPath(websiteId)}`);
    throw err;
  }
  const match = matchWebsite(spec.exclude ?? [], urls);
  // Nothing left to index (every URL excluded, or none found) is what the manifest asks for, not
  // an error: the server would answer 404, so the call is not sent.
  const processed = match.processIds.length > 0;
  if (processed) await sendProcess(ctx, websiteId, match.excludeIds, key);
  return { remoteId: websiteId, recorded: { matchedUrls: match.fingerprint }, processed };
}

/**
 * The website an earlier, interrupted scrape of this address made (found in the knowledge-base
 * list), or a new scrape, journaled pending before it leaves.
 */
async function scrapeOnce(ctx: CallContext, spec: WebsiteSpec, key: string): Promise<{ websiteId: string; adopted: boolean }> {
  const step = ctx.unrepeatable;
  if (step?.pendingSince !== undefined && spec.url !== undefined) {
    const found = await findScrapedWebsite(ctx, spec.url, `website.${key}`, step.pendingSince, step.taken);
    if (found !== undefined) return { websiteId: found, adopted: true };
  }
  await step?.mark();
  return { websiteId: await scrape(ctx, spec), adopted: false };
}

/**
 * A scrape answers once its crawl is done (the reference's example took 120 s; maxPages goes to
 * 10,000), so it gets far longer than the client's usual 30 s before its answer counts as lost.
 */
export const SCRAPE_TIMEOUT_MS = 15 * 60_000;

/** `POST …/website/scrape`; the id is `data.crawlId` in the reference, other names accepted. */
async function scrape(ctx: CallContext, spec: WebsiteSpec): Promise<string> {
  const body: Record<string, unknown> = { url: spec.url };
  if (spec.maxDepth !== undefined) body.maxDepth = spec.maxDepth;
  if (spec.maxPages !== undefined) body.maxPages = spec.maxPages;
  // ScrapePagesDto's names: substrings the crawl follows or skips, and whether it reads the sitemap.
  if (spec.crawl?.include !== undefined) body.include = [...spec.crawl.include];
  if (spec.crawl?.exclude !== undefined) body.exclude = [...spec.crawl.exclude];
  if (spec.crawl?.sitemap !== undefined) body.fetchSitemap = spec.crawl.sitemap;
  const answer = await ctx.wire.send({ method: 'POST', path: SCRAPE_PATH, body, timeoutMs: SCRAPE_TIMEOUT_MS });
  const id = scrapedId(answer);
  if (id === undefined) throw new UnexpectedAnswer('the answer has no id for the new website (data.crawlId)');
  return id;
}

export function scrapedId(answer: unknown): string | undefined {
  if (!isObject(answer)) return undefined;
  const data = isObject(answer.data) ? answer.data : {};
  for (const source of [data, answer]) {
    for (const name of ['crawlId', 'uniqueId', 'parentUniqueId', 'id']) {
      const id = stringField(source, name);
      if (id !== undefined) return id;
    }
  }
  return undefined;
}

async function sendProcess(ctx: CallContext, websiteId: string, exclude: readonly string[], key: string): Promise<string> {
  const path = `${discoveredUrlsPath(websiteId)}/process`;
  let answer: unknown;
  try {
    answer = await ctx.wire.send({ method: 'POST', path, body: { exclude: [...exclude] } });
  } catch (err) {
    // The public reference answers 404 when no discovered URL is left to process; say so plainly.
    if (answeredStatus(err, 404)) throw new NothingToProcess(err, key);
    throw err;
  }
  const data = isObject(answer) && isObject(answer.data) ? answer.data : undefined;
  const batchId = data ? stringField(data, 'batchId') : undefined;
  if (batchId === undefined) throw new UnexpectedAnswer('the answer has no "batchId"');
  return batchId;
}

/** Discovered URLs the server answered but that cannot be used; status 200: the server did answer. */
export class UnusableListing extends Error {
  readonly status = 200;
  readonly code = 'BAD_LISTING';
  constructor(
    message: string,
    readonly call: string,
  ) {
    super(message);
  }
}

/** The 404 of the process call, with what it means; keeps the status so nothing retries it. */
export class NothingToProcess extends Error {
  readonly status = 404;
  readonly code = 'NOTHING_TO_PROCESS';
  constructor(cause: unknown, key: string) {
    super(`website.${key}: the server has no discovered URL left to process for this website (every one is excluded, or the website does not exist)`, { cause });
  }
}
