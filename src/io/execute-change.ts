// One resource change → one API call. Bodies are built from the UNREDACTED desired spec (the server
// needs the real values); what is recorded in state is the change's redacted `after`.
import type { AgentBody, JsonObject, ToolBody } from '../core/api-types.js';
import type { AgentSpec, DesiredResource, ToolSpec, WebsiteSpec } from '../core/desired.js';
import type { CreateChange, UpdateChange } from '../core/plan.js';
import type { AgentPatchBody, ApiClient, CallOptions } from './api/client.js';

export type CallableChange = CreateChange | UpdateChange;

export interface CallOutcome {
  remoteId: string;
  call: string;
}

/** Optional agent fields: absent from the spec but present before means "clear it" (PATCH null). */
const OPTIONAL_AGENT_FIELDS = ['icon', 'integrationMeta', 'platformTools', 'instruction', 'suggestions', 'metaData'] as const;

export function describeCall(change: CallableChange, resource: DesiredResource): string {
  const seg = encodeURIComponent;
  switch (resource.type) {
    case 'tool':
      return `PUT /ai-agents/tools/${seg(resource.key)}`;
    case 'agent':
      return change.action === 'create' ? 'POST /ai-agents/agents' : `PATCH /ai-agents/agents/${seg(change.action === 'update' ? change.remoteId : '')}`;
    case 'website':
      return `POST /ai-agents/agent-builder/knowledge-base/website/${seg(resource.spec.parentUniqueId)}/discovered-urls/process`;
    default: {
      const _exhaustive: never = resource;
      return _exhaustive;
    }
  }
}

export async function callFor(change: CallableChange, resource: DesiredResource, client: ApiClient, options: CallOptions): Promise<CallOutcome> {
  const call = describeCall(change, resource);
  switch (resource.type) {
    case 'tool': {
      const record = await client.putTool(toolBody(resource.spec), options);
      return { remoteId: record._id, call };
    }
    case 'agent': {
      if (change.action === 'create') {
        const record = await client.createAgent(agentBody(resource.spec), options);
        return { remoteId: record.uid, call };
      }
      const record = await client.updateAgent(change.remoteId, agentPatchBody(resource.spec, change.before), options);
      return { remoteId: record.uid || change.remoteId, call };
    }
    case 'website': {
      const batch = await client.processWebsite(resource.spec.parentUniqueId, websiteExclude(resource.spec), options);
      return { remoteId: batch.batchId, call };
    }
    default: {
      const _exhaustive: never = resource;
      return _exhaustive;
    }
  }
}

/** Every managed field, always: the server merges a PUT into the existing tool. */
export function toolBody(spec: ToolSpec): ToolBody {
  const body: ToolBody = {
    name: spec.name,
    displayName: spec.displayName,
    executionText: spec.executionText,
    description: spec.description,
    doNotExecute: spec.doNotExecute,
    parameters: spec.parameters as ToolBody['parameters'],
  };
  return body;
}

/** The agent fields exactly as api-interface.md names them; absent optional fields are not sent. */
export function agentBody(spec: AgentSpec): AgentBody {
  const body: AgentBody = {
    name: spec.name,
    isActive: spec.isActive,
    integrateWith: spec.integrateWith,
    integrationType: spec.integrationType,
    actions: [...spec.actions],
    tools: [...spec.tools],
  };
  if (spec.icon !== undefined) body.icon = spec.icon;
  if (spec.integrationMeta !== undefined) body.integrationMeta = spec.integrationMeta;
  if (spec.platformTools !== undefined) body.platformTools = [...spec.platformTools];
  if (spec.instruction !== undefined) body.instruction = spec.instruction;
  if (spec.suggestions !== undefined) body.suggestions = [...spec.suggestions];
  if (spec.metaData !== undefined) body.metaData = spec.metaData;
  return body;
}

/** The full spec, plus null for each optional field that was applied before and is now gone. */
export function agentPatchBody(spec: AgentSpec, before: JsonObject): AgentPatchBody {
  const body: AgentPatchBody = agentBody(spec);
  for (const field of OPTIONAL_AGENT_FIELDS) {
    if (body[field] === undefined && before[field] !== undefined) body[field] = null;
  }
  return body;
}

function websiteExclude(spec: WebsiteSpec): string[] {
  return [...spec.exclude];
}
