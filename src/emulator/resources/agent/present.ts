// An agent as an answer carries it: stored records keep ISO 8601 timestamps, and the answer is
// shaped here, on the way out, in the form the current mode claims (whole, sparse or version A's entry).
import type { AgentListEntryWithoutUid, AgentRecord, WithWireTimestamps } from '../../../core/api-types.js';
import { wireTimestamp, type ServerMode } from '../../mode.js';
import { storedAgentFields } from './storage.js';

export type WireAgent = WithWireTimestamps<AgentRecord>;

export function presentAgent(agent: AgentRecord, mode: ServerMode): WireAgent {
  if (mode.timestamps === 'iso') return agent;
  return { ...agent, createdAt: wireTimestamp(agent.createdAt, mode), updatedAt: wireTimestamp(agent.updatedAt, mode) };
}

/** The fields a sparse list leaves out, computed once. */
const MAYBE_RETURNED: readonly string[] = storedAgentFields.filter(([, stored]) => stored.mayBeLeftOut).map(([field]) => field);

/** A list entry of a server that leaves out what it may (docs/spec/server.md#what-a-server-may-do): the whole record without those fields. */
export function sparseAgent(agent: AgentRecord, mode: ServerMode): WireAgent {
  const entry = { ...presentAgent(agent, mode) } as Record<string, unknown>;
  for (const name of MAYBE_RETURNED) delete entry[name];
  return entry as unknown as WireAgent;
}

/**
 * Version A's list entry. It has no identity field, which is the point of this form: a client must
 * not conclude from such a list that an agent was deleted. `apiKey` is a per-agent key on CometChat;
 * the emulator has none to give and never echoes the app's key, so it is empty.
 */
export function agentListEntryWithoutUid(agent: AgentRecord): AgentListEntryWithoutUid {
  const baseUrl = agent.integrationMeta?.baseUrl;
  return {
    name: agent.name,
    description: agent.instruction ?? '',
    deploymentUrl: typeof baseUrl === 'string' ? baseUrl : '',
    apiKey: '',
  };
}
