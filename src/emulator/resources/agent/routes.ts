// Agents: POST (create), GET list (live agents, bare array), PATCH, DELETE (soft delete). The public
// reference has no GET of one agent, so neither does the emulator: a client cannot come to rely on it.
import { randomUUID } from 'node:crypto';
import type { AgentDeleteResponse, AgentRecord, AgentUpdateResponse } from '../../../core/api-types.js';
import { ERROR_CODES } from '../../error-codes.js';
import { isoAfter, isoNow } from '../../clock.js';
import { notFound } from '../../errors.js';
import type { ServerMode } from '../../mode.js';
import { agentListEntryWithoutUid, presentAgent, sparseAgent } from './present.js';
import type { ApiRequest, ApiResponse, Route } from '../../router.js';
import type { EmulatorStore } from '../../store.js';
import { requireObjectBody } from '../../validate.js';
import { applyAgentChanges, checkAgentRecord, checkToolReferences, parseAgentChanges, storeLikeServer } from './fields.js';

export function agentRoutes(store: EmulatorStore, mode: ServerMode): Route[] {
  return [
    {
      pattern: '/ai-agents/agents',
      methods: {
        GET: () => ({ status: 200, body: listAgents(store, mode) }),
        POST: (request) => createAgent(store, mode, request),
      },
    },
    {
      pattern: '/ai-agents/agents/:uid',
      methods: {
        PATCH: (request) => updateAgent(store, mode, request),
        DELETE: (request) => deleteAgent(store, request),
      },
    },
  ];
}

function listAgents(store: EmulatorStore, mode: ServerMode): unknown[] {
  const live = [...store.agents.values()].filter((agent) => agent.deletedAt === null);
  if (mode.agentList === 'no-uid') return live.map(agentListEntryWithoutUid);
  if (mode.agentList === 'sparse') return live.map((agent) => sparseAgent(agent, mode));
  return live.map((agent) => presentAgent(agent, mode));
}

function findLiveAgent(store: EmulatorStore, request: ApiRequest): AgentRecord {
  const uid = request.params.uid ?? '';
  const agent = store.liveAgent(uid);
  if (!agent) throw notFound(ERROR_CODES.agentNotFound, `Agent '${uid}' does not exist.`);
  return agent;
}

/** Answers `{ agent }` with the mode's create status: 200 in version A, 201 in version O. */
function createAgent(store: EmulatorStore, mode: ServerMode, request: ApiRequest): ApiResponse {
  const changes = parseAgentChanges(requireObjectBody(request.body), true, mode);
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
  if (!mode.storeAsSent) storeLikeServer(agent);
  store.agents.set(agent.uid, agent);
  store.changed();
  return { status: mode.createStatus, body: { agent: presentAgent(agent, mode) } };
}

/** Answers a success flag, not the agent: both public versions say so. */
function updateAgent(store: EmulatorStore, mode: ServerMode, request: ApiRequest): ApiResponse {
  const current = findLiveAgent(store, request);
  const changes = parseAgentChanges(requireObjectBody(request.body), false, mode);
  // Validate on a copy so a rejected PATCH leaves the stored agent untouched.
  const next: AgentRecord = { ...current };
  applyAgentChanges(next, changes);
  checkAgentRecord(next);
  checkToolReferences(store, changes);
  if (!mode.storeAsSent) storeLikeServer(next, current);
  next.updatedAt = isoAfter(current.updatedAt);
  store.agents.set(next.uid, next);
  store.changed();
  const body: AgentUpdateResponse = { success: true };
  return { status: 200, body };
}

function deleteAgent(store: EmulatorStore, request: ApiRequest): ApiResponse {
  const agent = findLiveAgent(store, request);
  const now = isoAfter(agent.updatedAt);
  store.agents.set(agent.uid, { ...agent, deletedAt: now, updatedAt: now });
  store.changed();
  const body: AgentDeleteResponse = { success: true, message: `Agent with UID '${agent.uid}' has been deleted successfully` };
  return { status: 200, body };
}
