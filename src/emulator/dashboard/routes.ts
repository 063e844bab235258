// The dashboard's JSON endpoints (below /__dashboard/api). Reads show records exactly as the store
// holds them (docs/spec/emulator.md#stores-like-a-server: `_id`, `__v`, filled defaults). Edits go
// through the API's own handlers, so a change made in the page is validated and stored exactly as
// the same change sent to the API: it is the real dashboard's edit, made behind the CLI's back, and
// `agentsync plan` sees it as drift. They are not written to the request log, which holds what API
// clients sent.
import { badRequest } from '../errors.js';
import type { KbContext } from '../kb/context.js';
import { statusAt, websiteStatus } from '../kb/progress.js';
import { LOG_POLL_BOUNDS, type RequestLog } from '../request-log.js';
import { Router, type ApiRequest, type ApiResponse, type Method } from '../router.js';
import { seedData } from '../seed.js';
import type { EmulatorStore } from '../store.js';
import { requireObjectBody, requireString } from '../validate.js';
import { agentsBySource, agentsOf, builderAgentsView, textEntriesView, uploadsView, type AgentLink, type KnowledgeRecords } from './knowledge-view.js';

export interface DashboardDeps {
  store: EmulatorStore;
  api: Router;
  admin: Router;
  log: RequestLog;
  kb: KbContext;
}

export const DASHBOARD_API_PREFIX = '/__dashboard/api';
/** A website's first discovered URLs only: enough to watch, small enough to poll every second. */
const URLS_SHOWN = 200;
const REQUESTS_SHOWN = 200;
/** The fields of a tool's PUT body, which is a whole tool: an edit sends the stored values beside the changed one. */
const TOOL_FIELDS = new Set(['displayName', 'executionText', 'description', 'doNotExecute', 'parameters']);
const KB_WEBSITE = '/ai-agents/agent-builder/knowledge-base/website';

export function dashboardRouter(deps: DashboardDeps): Router {
  const call = (router: Router, method: Method, path: string, body?: unknown): ApiResponse | Promise<ApiResponse> => {
    const match = router.match(method, path);
    return match.handler({ params: match.params, query: new URLSearchParams(), body, headers: {} });
  };
  const { store } = deps;
  return new Router([
    {
      pattern: `${DASHBOARD_API_PREFIX}/resources`,
      methods: {
        GET: () => ({
          status: 200,
          body: { appId: store.appId, tools: [...store.tools.values()], agents: [...store.agents.values()].filter((agent) => agent.deletedAt === null), seed: seedRecords(store) },
        }),
      },
    },
    {
      pattern: `${DASHBOARD_API_PREFIX}/agents/:uid`,
      methods: {
        // `{field, value}`: one field, as the dashboard's form changes one.
        PATCH: (request) => call(deps.api, 'PATCH', `/ai-agents/agents/${encodeURIComponent(uidOf(request))}`, fieldChange(request)),
        DELETE: (request) => call(deps.api, 'DELETE', `/ai-agents/agents/${encodeURIComponent(uidOf(request))}`),
      },
    },
    {
      pattern: `${DASHBOARD_API_PREFIX}/tools/:name`,
      methods: {
        PATCH: (request) => {
          const name = request.params.name ?? '';
          const change = fieldChange(request);
          const [field] = Object.keys(change);
          if (field === undefined || !TOOL_FIELDS.has(field)) throw badRequest(`A tool's editable fields are ${[...TOOL_FIELDS].join(', ')}.`);
          const tool = store.tools.get(name);
          const whole = tool && {
            name,
            displayName: tool.displayName,
            executionText: tool.executionText,
            doNotExecute: tool.doNotExecute,
            description: tool.tool.description,
            parameters: tool.tool.parameters,
          };
          return call(deps.api, 'PUT', `/ai-agents/tools/${encodeURIComponent(name)}`, { ...whole, ...change });
        },
        DELETE: (request) => call(deps.api, 'DELETE', `/ai-agents/tools/${encodeURIComponent(request.params.name ?? '')}`),
      },
    },
    { pattern: `${DASHBOARD_API_PREFIX}/builder-agents`, methods: { GET: () => ({ status: 200, body: builderAgentsView(knowledgeRecords(deps.kb)) }) } },
    { pattern: `${DASHBOARD_API_PREFIX}/kb`, methods: { GET: () => ({ status: 200, body: knowledgeBase(deps.kb) }) } },
    {
      pattern: `${DASHBOARD_API_PREFIX}/websites/:id/process`,
      methods: { POST: (request) => call(deps.api, 'POST', `${KB_WEBSITE}/${encodeURIComponent(request.params.id ?? '')}/discovered-urls/process`, { exclude: [] }) },
    },
    {
      pattern: `${DASHBOARD_API_PREFIX}/requests`,
      methods: {
        GET: () => ({ status: 200, body: deps.log.tail(REQUESTS_SHOWN, LOG_POLL_BOUNDS) }),
        DELETE: () => call(deps.admin, 'DELETE', '/__emulator/requests'),
      },
    },
    // One body, fetched when the page opens it: the poll above carries none.
    { pattern: `${DASHBOARD_API_PREFIX}/requests/:seq`, methods: { GET: (request) => call(deps.admin, 'GET', `/__emulator/requests/${encodeURIComponent(request.params.seq ?? '')}`) } },
    {
      pattern: `${DASHBOARD_API_PREFIX}/config`,
      methods: {
        GET: () => call(deps.admin, 'GET', '/__emulator/config'),
        POST: (request) => call(deps.admin, 'POST', '/__emulator/config', request.body),
      },
    },
  ]);
}

/**
 * The records that are still the seed's (seed.ts): same name and same creation time, so a tool
 * deleted and made again by a client is its own. The page lists them last, marked as seed data.
 */
function seedRecords(store: EmulatorStore): { tools: string[]; agents: string[] } {
  const seed = seedData(store.appId);
  const tools = seed.tools.filter((tool) => store.tools.get(tool.name)?.createdAt === tool.createdAt).map((tool) => tool.name);
  const agents = seed.agents.filter((agent) => store.agents.get(agent.uid)?.createdAt === agent.createdAt).map((agent) => agent.uid);
  return { tools, agents };
}

function uidOf(request: ApiRequest): string {
  return request.params.uid ?? '';
}

function fieldChange(request: ApiRequest): Record<string, unknown> {
  const body = requireObjectBody(request.body);
  const field = requireString(body, 'field');
  if (!('value' in body)) throw badRequest("'value' is required.");
  return { [field]: body.value };
}

function knowledgeRecords(kb: KbContext): KnowledgeRecords {
  const { store } = kb;
  return { agents: store.builderAgents.values(), texts: store.kbTexts, uploads: store.kbUploads, websites: store.websites, now: kb.clock.now() };
}

/** Every source of the knowledge base, each with the Agent Builder agents it is attached to. */
function knowledgeBase(kb: KbContext): unknown {
  const records = knowledgeRecords(kb);
  const bySource = agentsBySource(records.agents);
  return { websites: websites(kb, bySource), texts: textEntriesView(records, bySource), uploads: uploadsView(records, bySource) };
}

function websites(kb: KbContext, bySource: ReadonlyMap<string, readonly AgentLink[]>): unknown[] {
  const now = kb.clock.now();
  return [...kb.store.websites.values()].map((website) => {
    const counts: Record<string, number> = {};
    const statuses = website.discoveredUrls.map((entry) => statusAt(entry, now));
    for (const status of statuses) counts[status] = (counts[status] ?? 0) + 1;
    return {
      parentUniqueId: website.parentUniqueId,
      url: website.url,
      status: websiteStatus(website, now),
      total: website.discoveredUrls.length,
      counts,
      agents: agentsOf(bySource, website.parentUniqueId),
      discoveredUrls: website.discoveredUrls.slice(0, URLS_SHOWN).map((entry, index) => ({ uniqueId: entry.uniqueId, url: entry.url, title: entry.title ?? '', status: statuses[index] })),
    };
  });
}
