// Stored records keep ISO 8601 timestamps (so the data file never depends on the mode); answers are
// shaped here, on the way out, in the form the current mode claims.
import type { AgentListEntryWithoutUid, AgentRecord, ToolRecord, WireTimestamp, WithWireTimestamps } from '../core/api-types.js';
import type { ServerMode } from './mode.js';
import { storedAgentFields } from './resources/agent-storage.js';

export type WireTool = WithWireTimestamps<ToolRecord>;
export type WireAgent = WithWireTimestamps<AgentRecord>;

/** Epoch timestamps are milliseconds: lossless against the ISO form, and updatedAt still moves on every write. */
function timestamp(iso: string, mode: ServerMode): WireTimestamp {
  return mode.timestamps === 'epoch' ? Date.parse(iso) : iso;
}

export function presentTool(tool: ToolRecord, mode: ServerMode): WireTool {
  // The common case answers the stored record itself, without a copy.
  if (mode.timestamps === 'iso') return tool;
  return { ...tool, createdAt: timestamp(tool.createdAt, mode), updatedAt: timestamp(tool.updatedAt, mode) };
}

export function presentAgent(agent: AgentRecord, mode: ServerMode): WireAgent {
  if (mode.timestamps === 'iso') return agent;
  return { ...agent, createdAt: timestamp(agent.createdAt, mode), updatedAt: timestamp(agent.updatedAt, mode) };
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
