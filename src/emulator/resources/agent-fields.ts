// Field rules shared by agent creation (POST) and update (PATCH). A field sent as null clears an
// optional field; that is how a client removes, say, an icon it no longer manages.
import type { AgentRecord, IntegrationType, JsonObject } from '../../core/api-types.js';
import { badRequest } from '../errors.js';
import type { EmulatorStore } from '../store.js';
import { isHttpUrl, quoteList, rejectUnknownKeys, requireObject, requireString, requireStringArray } from '../validate.js';

const REQUIRED_FIELDS = ['name', 'integrateWith', 'integrationType', 'tools', 'actions'] as const;
const OPTIONAL_FIELDS = ['icon', 'integrationMeta', 'platformTools', 'cometchatTools', 'instruction', 'suggestions', 'metaData'] as const;
const AGENT_KEYS = new Set<string>([...REQUIRED_FIELDS, ...OPTIONAL_FIELDS, 'isActive']);
const INTEGRATION_TYPES: readonly IntegrationType[] = ['llm', 'agent'];

type OptionalField = (typeof OPTIONAL_FIELDS)[number];

/** The agent fields a body sets; `null` marks an optional field to clear. */
export type AgentChanges = Partial<Omit<AgentRecord, 'uid' | 'appId' | 'deletedAt' | 'createdAt' | 'updatedAt' | OptionalField>> & {
  [K in OptionalField]?: AgentRecord[K] | null;
};

/** Validates the fields present in `body`. With `requireAll`, the POST rules also demand the required ones. */
export function parseAgentChanges(body: JsonObject, requireAll: boolean): AgentChanges {
  rejectUnknownKeys(body, AGENT_KEYS, '');
  const changes: AgentChanges = {};
  for (const field of REQUIRED_FIELDS) {
    if (body[field] === null) throw badRequest(`'${field}' is required and cannot be null.`);
    if (body[field] === undefined && requireAll) throw badRequest(`'${field}' is required.`);
  }
  if (body.name !== undefined) changes.name = requireString(body, 'name');
  if (body.integrateWith !== undefined) changes.integrateWith = requireString(body, 'integrateWith');
  if (body.integrationType !== undefined) changes.integrationType = parseIntegrationType(body.integrationType);
  if (body.tools !== undefined) changes.tools = requireStringArray(body.tools, 'tools');
  if (body.actions !== undefined) changes.actions = requireStringArray(body.actions, 'actions');
  if (body.isActive === null) throw badRequest("'isActive' must be a boolean.");
  if (body.isActive !== undefined) {
    if (typeof body.isActive !== 'boolean') throw badRequest("'isActive' must be a boolean.");
    changes.isActive = body.isActive;
  }
  parseOptionalFields(body, changes);
  return changes;
}

function parseIntegrationType(value: unknown): IntegrationType {
  if (typeof value !== 'string' || !INTEGRATION_TYPES.includes(value as IntegrationType)) {
    throw badRequest("'integrationType' must be \"llm\" or \"agent\".");
  }
  return value as IntegrationType;
}

function parseOptionalFields(body: JsonObject, changes: AgentChanges): void {
  for (const field of OPTIONAL_FIELDS) if (body[field] === null) changes[field] = null;
  if (body.icon !== undefined && body.icon !== null) {
    const icon = body.icon;
    if (typeof icon !== 'string' || !isHttpUrl(icon)) throw badRequest("'icon' must be an http(s) URL.");
    changes.icon = icon;
  }
  if (body.instruction !== undefined && body.instruction !== null) {
    if (typeof body.instruction !== 'string') throw badRequest("'instruction' must be a string.");
    changes.instruction = body.instruction;
  }
  if (body.integrationMeta !== undefined && body.integrationMeta !== null) {
    changes.integrationMeta = requireObject(body.integrationMeta, 'integrationMeta');
  }
  if (body.metaData !== undefined && body.metaData !== null) changes.metaData = requireObject(body.metaData, 'metaData');
  // The seed calls CometChat-supplied tools platformTools, version A cometchatTools; both are kept as sent.
  for (const field of ['platformTools', 'cometchatTools'] as const) {
    const value = body[field];
    if (value !== undefined && value !== null) changes[field] = requireStringArray(value, field);
  }
  if (body.suggestions !== undefined && body.suggestions !== null) {
    changes.suggestions = requireStringArray(body.suggestions, 'suggestions');
  }
}

/** Rules that depend on several fields, checked on the agent as it would be stored. */
export function checkAgentRecord(agent: AgentRecord): void {
  const meta = agent.integrationMeta;
  const baseUrl = meta?.baseUrl;
  if (agent.integrationType === 'agent' && meta === undefined) {
    throw badRequest("'integrationMeta' is required when 'integrationType' is \"agent\", with 'baseUrl'.");
  }
  if (agent.integrationType === 'agent' && baseUrl === undefined) {
    throw badRequest("'integrationMeta.baseUrl' is required when 'integrationType' is \"agent\".");
  }
  if (baseUrl !== undefined && (typeof baseUrl !== 'string' || !isHttpUrl(baseUrl))) {
    throw badRequest("'integrationMeta.baseUrl' must be an http(s) URL.");
  }
}

/** Which list each tool type belongs in: `tool` (doNotExecute) in `tools`, `action` in `actions`. */
const LIST_OF_TYPE = { tool: 'tools', action: 'actions' } as const;

/**
 * The agent's `tools` must name existing tools of type `tool`, and its `actions` existing tools of
 * type `action`. Only the lists a body sends are checked, as the reference checks them "when they
 * are sent"; one 400 names every unknown or misplaced name.
 */
export function checkToolReferences(store: EmulatorStore, changes: AgentChanges): void {
  const problems: string[] = [];
  for (const field of ['tools', 'actions'] as const) {
    const names = changes[field] ?? [];
    const unknown = names.filter((name) => !store.tools.has(name));
    if (unknown.length > 0) problems.push(`'${field}' names unknown tool${unknown.length > 1 ? 's' : ''} ${quoteList(unknown)} (create with POST /ai-agents/tools first)`);
    for (const name of names) {
      const type = store.tools.get(name)?.type;
      if (type === undefined || LIST_OF_TYPE[type] === field) continue;
      const why = type === 'tool' ? 'doNotExecute is true' : 'doNotExecute is false';
      problems.push(`'${field}' names '${name}', which is of type '${type}' (${why}); put it in '${LIST_OF_TYPE[type]}'`);
    }
  }
  if (problems.length > 0) throw badRequest(`${problems.join('; ')}.`);
}

export function applyAgentChanges(agent: AgentRecord, changes: AgentChanges): void {
  for (const [key, value] of Object.entries(changes)) {
    if (value === null) delete (agent as unknown as Record<string, unknown>)[key];
    else if (value !== undefined) (agent as unknown as Record<string, unknown>)[key] = value;
  }
}
