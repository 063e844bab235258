// Finding the website an interrupted scrape made (issue 31). A scrape answers only when its crawl
// is done, so its answer is easily lost (a client timeout, a reset connection) while the server
// stores the website anyway. Before scraping again, the knowledge-base list
// (`GET …/knowledge-base`, newest first, cursor paged) is read for a website of the same URL made
// since the pending mark: exactly one is adopted; none means the scrape never stored anything; a
// list that cannot be read in full, or two candidates, sends nothing.
import { UserError } from '../../errors.js';
import { couldBeCreatedSince, isObject, stringField, timestampMs, type CallContext } from '../kind.js';

export const KNOWLEDGE_BASE_PATH = '/ai-agents/agent-builder/knowledge-base';
/** The reference's largest page. */
const PAGE_LIMIT = 100;
/** 10,000 sources; past that, absence is not proven. */
const MAX_PAGES = 100;
/**
 * `start` and `end` are required numbers the reference leaves unexplained: 0 and the last
 * millisecond of year 9999 cover everything, whether they are a time range or positions.
 */
const WHOLE_RANGE = { start: '0', end: '253402300799999' };

/** The id of the one website of `url` made since `since` that no state entry holds; undefined when there is none. */
export async function findScrapedWebsite(ctx: CallContext, url: string, address: string, since: string, taken: ReadonlySet<string>): Promise<string | undefined> {
  const wanted = sameUrl(url);
  const found: string[] = [];
  try {
    for await (const entry of knowledgeBaseEntries((path) => ctx.wire.send({ method: 'GET', path }))) {
      const id = candidateId(entry, wanted, since);
      if (id !== undefined && !taken.has(id)) found.push(id);
    }
  } catch (err) {
    throw cannotRuleOut(address, err instanceof Error ? err.message : String(err));
  }
  if (found.length > 1) {
    throw new UserError(
      'api_error',
      `${address}: an earlier apply sent its scrape but never learned the answer, and the knowledge base now holds ${found.length} websites of ${url} made since then (${found.join(', ')}); nothing was sent. Delete the ones that are not wanted, then run apply again: the one left is adopted.`,
    );
  }
  return found[0];
}

/**
 * Every entry of the knowledge-base list (`GET …/knowledge-base`, cursor paged), page after page.
 * Throws, with the reason as its message, on an answer that is not a list or a list that does not
 * end within MAX_PAGES; what to make of that is the caller's.
 */
export async function* knowledgeBaseEntries(send: (path: string) => Promise<unknown>): AsyncGenerator<unknown> {
  const seen = new Set<string>();
  let query: Record<string, string> = { ...WHOLE_RANGE, limit: String(PAGE_LIMIT) };
  for (let page = 1; ; page++) {
    const answer = await send(`${KNOWLEDGE_BASE_PATH}?${new URLSearchParams(query).toString()}`);
    const data = isObject(answer) && Array.isArray(answer.data) ? answer.data : undefined;
    if (data === undefined) throw new Error(`GET ${KNOWLEDGE_BASE_PATH} did not answer {data: [...]}`);
    yield* data;
    const next = isObject(answer) && isObject(answer.meta) && isObject(answer.meta.next) ? answer.meta.next : undefined;
    const cursor = next ? stringField(next, 'cursor') : undefined;
    if (cursor === undefined) return;
    if (seen.has(cursor) || page >= MAX_PAGES) throw new Error(`the knowledge-base list did not end within ${page} pages`);
    seen.add(cursor);
    query = { ...WHOLE_RANGE, limit: String(PAGE_LIMIT), cursor, affix: stringField(next as Record<string, unknown>, 'affix') ?? 'append' };
  }
}

/** The list entry's id when it is a website of the wanted URL that the interrupted scrape could have made. */
function candidateId(entry: unknown, wanted: string, since: string): string | undefined {
  if (!isObject(entry)) return undefined;
  const type = stringField(entry, 'type');
  if (type !== undefined && type !== 'website') return undefined;
  const source = stringField(entry, 'sourceName') ?? stringField(entry, 'url');
  if (source === undefined || sameUrl(source) !== wanted) return undefined;
  const createdAtMs = timestampMs(entry.createdAt);
  if (!couldBeCreatedSince(createdAtMs === undefined ? { spec: {} } : { spec: {}, createdAtMs }, since)) return undefined;
  return stringField(entry, 'uniqueId') ?? stringField(entry, 'parentUniqueId') ?? stringField(entry, 'id');
}

/** URLs compare as the WHATWG parser writes them (`https://a.example` and `https://a.example/` are one). */
function sameUrl(url: string): string {
  return URL.canParse(url) ? new URL(url).href : url;
}

function cannotRuleOut(address: string, why: string): UserError {
  return new UserError(
    'api_error',
    `${address}: an earlier apply sent its scrape but never learned the answer, and the knowledge-base list could not be read to look for the website it may have made (${why}); nothing was sent, so no second website was made. Run apply again once the server answers.`,
  );
}
