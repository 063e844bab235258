// Finding an Agent Builder agent by the `{uid}` of a path: shared by the agent routes and the attach routes.
import type { BuilderAgentRecord } from '../../../core/agent-builder-wire.js';
import { ERROR_CODES } from '../../error-codes.js';
import { notFound } from '../../errors.js';
import type { ApiRequest } from '../../router.js';
import type { EmulatorStore } from '../../store.js';

export const AGENTS_PATH = '/ai-agents/agent-builder/agents';

export function findBuilderAgent(store: EmulatorStore, request: ApiRequest): BuilderAgentRecord {
  const uid = request.params.uid ?? '';
  const agent = store.builderAgents.get(uid);
  if (!agent) throw notFound(ERROR_CODES.agentNotFound, `Agent '${uid}' does not exist.`);
  return agent;
}
