// `GET /ai-agents/agent-builder/agents`: newest first, paged by a `createdAt` cursor and `affix`
// (../shared/reference/cometchat-agent-builder.md §0 "Cursor paging"): `append` gives the page of
// agents older than the cursor, `prepend` the page newer than it. The reference states no maximum
// `limit` for agents, so one over 100 is taken as 100 rather than refused; `meta.previous` and
// `meta.next` appear only when that page holds something, as the knowledge-base list says of its own.
import type { BuilderAgentCursor, BuilderAgentListResponse, BuilderAgentRecord } from '../../../core/agent-builder-wire.js';
import type { CreatedOrder } from '../../created-order.js';
import { badRequest } from '../../errors.js';

export const DEFAULT_AGENT_PAGE = 10;
export const MAX_AGENT_PAGE = 100;

interface AgentPageRequest {
  limit: number;
  affix: 'append' | 'prepend';
  createdAt: number | undefined;
  matches: (agent: BuilderAgentRecord) => boolean;
}

/** One page, in O(log N + page) without `search`; a search also steps over the agents it skips. */
export function listBuilderAgents(agents: CreatedOrder<BuilderAgentRecord>, query: URLSearchParams): BuilderAgentListResponse {
  const request = readAgentPageRequest(query);
  const fromNewest = request.createdAt === undefined;
  // Indexes into the oldest-first order: a page walks down (older) for append, up (newer) for prepend.
  const down = request.affix === 'append' || fromNewest;
  const start = fromNewest ? agents.size - 1 : down ? agents.firstAtOrAfter(request.createdAt as number) - 1 : agents.firstAtOrAfter((request.createdAt as number) + 1);
  const step = down ? -1 : 1;
  const picked: number[] = [];
  let index = start;
  for (; index >= 0 && index < agents.size && picked.length < request.limit; index += step) {
    if (request.matches(agents.at(index) as BuilderAgentRecord)) picked.push(index);
  }
  if (!down) picked.reverse();
  const data = picked.map((i) => agents.at(i) as BuilderAgentRecord);
  const meta: BuilderAgentListResponse['meta'] = { current: { limit: request.limit, count: data.length } };
  const newest = picked[0];
  const oldest = picked[picked.length - 1];
  if (oldest !== undefined && anyMatch(agents, oldest - 1, -1, request.matches)) meta.next = cursor('append', agents, oldest);
  if (newest !== undefined && anyMatch(agents, newest + 1, 1, request.matches)) meta.previous = cursor('prepend', agents, newest);
  return { data, meta };
}

function cursor(affix: 'append' | 'prepend', agents: CreatedOrder<BuilderAgentRecord>, index: number): BuilderAgentCursor {
  return { affix, createdAt: (agents.at(index) as BuilderAgentRecord).createdAt };
}

function anyMatch(agents: CreatedOrder<BuilderAgentRecord>, from: number, step: 1 | -1, matches: (agent: BuilderAgentRecord) => boolean): boolean {
  for (let i = from; i >= 0 && i < agents.size; i += step) if (matches(agents.at(i) as BuilderAgentRecord)) return true;
  return false;
}

/** `limit`, `affix`, `createdAt` and `search`; a bad value is a 400 naming the parameter (the reference's "invalid pagination parameters"). */
function readAgentPageRequest(query: URLSearchParams): AgentPageRequest {
  const limitText = query.get('limit');
  let limit = DEFAULT_AGENT_PAGE;
  if (limitText !== null) {
    limit = Number(limitText);
    if (limitText.trim() === '' || !Number.isInteger(limit) || limit < 1) throw badRequest(`'limit' must be a whole number of at least 1; got "${limitText}".`);
    limit = Math.min(limit, MAX_AGENT_PAGE);
  }
  const affix = query.get('affix') ?? 'append';
  if (affix !== 'append' && affix !== 'prepend') throw badRequest(`'affix' must be "append" or "prepend"; got "${affix}".`);
  const createdAtText = query.get('createdAt');
  let createdAt: number | undefined;
  if (createdAtText !== null && createdAtText !== '') {
    createdAt = Number(createdAtText);
    if (!/^\d{1,16}$/.test(createdAtText) || !Number.isSafeInteger(createdAt))
      throw badRequest(`'createdAt' must be a time in epoch milliseconds (take it from meta.next or meta.previous); got "${createdAtText}".`);
  }
  const search = (query.get('search') ?? '').toLowerCase();
  const matches = search === '' ? () => true : (agent: BuilderAgentRecord) => [agent.name, agent.description ?? '', agent.uid].some((text) => text.toLowerCase().includes(search));
  return { limit, affix, createdAt, matches };
}
