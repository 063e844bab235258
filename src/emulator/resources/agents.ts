// Agents: POST (create), GET list (live agents, bare array), GET one, PATCH, DELETE (soft delete).
import { randomUUID } from 'node:crypto';
import { API_ERROR_CODES, type AgentRecord } from '../../core/api-types.js';
import { isoAfter, isoNow } from '../clock.js';
import { notFound } from '../errors.js';
import type { ApiRequest, ApiResponse, Route } from '../router.js';
import type { EmulatorStore } from '../store.js';
import { requireObjectBody } from '../validate.js';
import { applyAgentChanges, checkAgentRecord, checkToolReferences, parseAgentChanges } from './agent-fields.js';

export function agentRoutes(store: EmulatorStore): Route[] {
  return [
    {
      pattern: '/ai-agents/agents',
      methods: {
        GET: () => ({ status: 200, body: [...store.agents.values()].filter((agent) => agent.deletedAt === null) }),
        POST: (request) => createAgent(store, request),
      },
    },
    {
      pattern: '/ai-agents/agents/:uid',
      methods: {
        GET: (request) => ({ status: 200, body: { agent: findLiveAgent(store, request) } }),
        PATCH: (request) => updateAgent(store, request),
        DELETE: (request) => deleteAgent(store, request),
      },
    },
  ];
}

function findLiveAgent(store: EmulatorStore, request: ApiRequest): AgentRecord {
  const uid = request.params.uid ?? '';
  const agent = store.liveAgent(uid);
  if (!agent) throw notFound(API_ERROR_CODES.agentNotFound, `Agent '${uid}' does not exist.`);
  return agent;
}

/** Answers 201 with `{ agent }`; the reference allows 200 or 201 and we pick the one its extract shows. */
function createAgent(store: EmulatorStore, request: ApiRequest): ApiResponse {
  const changes = parseAgentChanges(requireObjectBody(request.body), true);
  const now = isoNow();
  const agent: AgentRecord = {
    uid: randomUUID(),
    appId: store.appId,
    name: '',
    isActive: true,
    integrateWith: '',
    integrationType: 'llm',
    tools: [],
    actions: [],
    deletedAt: null,
    createdAt: now,
    updatedAt: now,
  };
  applyAgentChanges(agent, changes);
  checkAgentRecord(agent);
  checkToolReferences(store, changes);
  store.agents.set(agent.uid, agent);
  store.changed();
  return { status: 201, body: { agent } };
}

function updateAgent(store: EmulatorStore, request: ApiRequest): ApiResponse {
  const current = findLiveAgent(store, request);
  const changes = parseAgentChanges(requireObjectBody(request.body), false);
  // Validate on a copy so a rejected PATCH leaves the stored agent untouched.
  const next: AgentRecord = { ...current };
  applyAgentChanges(next, changes);
  checkAgentRecord(next);
  checkToolReferences(store, changes);
  next.updatedAt = isoAfter(current.updatedAt);
  store.agents.set(next.uid, next);
  store.changed();
  return { status: 200, body: { agent: next } };
}

function deleteAgent(store: EmulatorStore, request: ApiRequest): ApiResponse {
  const agent = findLiveAgent(store, request);
  const now = isoAfter(agent.updatedAt);
  store.agents.set(agent.uid, { ...agent, deletedAt: now, updatedAt: now });
  store.changed();
  return { status: 200, body: { deleted: true } };
}
