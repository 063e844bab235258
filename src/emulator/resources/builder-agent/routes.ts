// Agent Builder agents (`/ai-agents/agent-builder/agents`): create answers `{agent}` with the mode's
// create status, get answers the agent bare, update `{success: true}` only, delete
// `{success, message}`; a delete is hard (the reference shows no `deletedAt` and no restore), so a
// second DELETE is a 404. Attaching knowledge is in knowledge.ts.
import { randomUUID } from 'node:crypto';
import type { BuilderAgentCreateResponse, BuilderAgentDeleteResponse, SuccessOnlyResponse } from '../../../core/agent-builder-wire.js';
import type { ApiRequest, ApiResponse, Route } from '../../router.js';
import type { EmulatorStore } from '../../store.js';
import { requireObjectBody } from '../../validate.js';
import type { ResourceContext } from '../context.js';
import { newBuilderAgent, parseBuilderAgentBody, updatedBuilderAgent } from './fields.js';
import { attachRoute } from './knowledge.js';
import { listBuilderAgents } from './list.js';
import { AGENTS_PATH, findBuilderAgent } from './lookup.js';

export function builderAgentRoutes(context: ResourceContext): Route[] {
  const { store } = context;
  return [
    {
      pattern: AGENTS_PATH,
      methods: {
        GET: (request) => ({ status: 200, body: listBuilderAgents(store.builderAgents, request.query) }),
        POST: (request) => createAgent(context, request),
      },
    },
    {
      pattern: `${AGENTS_PATH}/:uid`,
      methods: {
        GET: (request) => ({ status: 200, body: findBuilderAgent(store, request) }),
        PATCH: (request) => updateAgent(context, request),
        DELETE: (request) => deleteAgent(store, request),
      },
    },
    attachRoute(context),
  ];
}

/** The list is paged by createdAt, so no two agents share one: a tie moves the newer one on by 1 ms. */
function nextCreatedAt(context: ResourceContext): number {
  const newest = context.store.builderAgents.newestCreatedAt();
  const now = context.kb.clock.now();
  return newest === undefined || now > newest ? now : newest + 1;
}

function createAgent(context: ResourceContext, request: ApiRequest): ApiResponse {
  const { store, mode } = context;
  const body = parseBuilderAgentBody(requireObjectBody(request.body), true);
  const agent = newBuilderAgent(body, { uid: randomUUID(), appId: store.appId, createdAt: nextCreatedAt(context) }, mode.storeAsSent);
  store.builderAgents.put(agent);
  store.changed();
  const answer: BuilderAgentCreateResponse = { agent };
  return { status: mode.createStatus, body: answer };
}

function updateAgent(context: ResourceContext, request: ApiRequest): ApiResponse {
  const { store, mode } = context;
  const current = findBuilderAgent(store, request);
  const body = parseBuilderAgentBody(requireObjectBody(request.body), false);
  const updatedAt = Math.max(context.kb.clock.now(), current.updatedAt + 1);
  store.builderAgents.put(updatedBuilderAgent(current, body, updatedAt, mode.storeAsSent));
  store.changed();
  const answer: SuccessOnlyResponse = { success: true };
  return { status: 200, body: answer };
}

function deleteAgent(store: EmulatorStore, request: ApiRequest): ApiResponse {
  const agent = findBuilderAgent(store, request);
  store.builderAgents.delete(agent.uid);
  store.changed();
  const answer: BuilderAgentDeleteResponse = { success: true, message: 'Operation completed successfully' };
  return { status: 200, body: answer };
}
