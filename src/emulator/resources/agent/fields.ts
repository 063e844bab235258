// Field rules shared by agent creation (POST) and update (PATCH). Stored like a real server stores
// (docs/spec/emulator.md#stores-like-a-server): `null` is refused, as the public schemas allow
// none, and a field is cleared with its type's empty value. With `storeAsSent`, the old echo: a
// null clears an optional field.
import type { AgentRecord, IntegrationType, JsonObject } from '../../../core/api-types.js';
import { badRequest } from '../../errors.js';
import type { ServerMode } from '../../mode.js';
import { STORED_AGENT_FIELDS, storedAgentFields } from './storage.js';
import type { EmulatorStore } from '../../store.js';
import { isHttpUrl, quoteList, rejectUnknownKeys, requireObject, requireString, requireStringArray } from '../../validate.js';

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
export function parseAgentChanges(body: JsonObject, requireAll: boolean, mode: Pick<ServerMode, 'storeAsSent'>): AgentChanges {
  rejectUnknownKeys(body, AGENT_KEYS, '');
  if (!mode.storeAsSent) rejectNulls(body);
  const changes = parseFields(body, requireAll);
  if (!mode.storeAsSent) recordPlatformToolsAsServer(changes);
  return changes;
}

/**
 * One list on the server: sent as `platformTools` (the seed's name) or `cometchatTools` (version
 * A's), or both, it is recorded and returned as `cometchatTools`, and a body that sends it replaces it.
 */
function recordPlatformToolsAsServer(changes: AgentChanges): void {
  if (changes.platformTools === undefined || changes.platformTools === null) return;
  changes.cometchatTools = [...(changes.cometchatTools ?? []), ...changes.platformTools];
  delete changes.platformTools;
}

function parseFields(body: JsonObject, requireAll: boolean): AgentChanges {
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
    throw badRequest('\'integrationType\' must be "llm" or "agent".');
  }
  return value as IntegrationType;
}

function parseOptionalFields(body: JsonObject, changes: AgentChanges): void {
  for (const field of OPTIONAL_FIELDS) if (body[field] === null) changes[field] = null;
  if (body.icon !== undefined && body.icon !== null) {
    const icon = body.icon;
    // "" is how a client clears the icon (a real server stores it as its default).
    if (typeof icon !== 'string' || (icon !== '' && !isHttpUrl(icon))) throw badRequest("'icon' must be an http(s) URL.");
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

/** What a `null` is refused with: the type the field's schema has (`icon must be a string`). */
function rejectNulls(body: JsonObject): void {
  for (const [field, value] of Object.entries(body)) {
    if (value !== null) continue;
    const type = STORED_AGENT_FIELDS[field as keyof typeof STORED_AGENT_FIELDS]?.type ?? 'string';
    throw badRequest(`${field} must be ${type === 'array' || type === 'object' ? 'an' : 'a'} ${type}`);
  }
}

/**
 * The agent as a document store keeps it: every optional field present (its empty value when never
 * sent), sets sorted, `_id` and a version counter `__v`. (The platform tools arrive renamed already:
 * see recordPlatformToolsAsServer.)
 */
export function storeLikeServer(agent: AgentRecord, previous?: AgentRecord): AgentRecord {
  const record = agent as unknown as Record<string, unknown>;
  for (const [field, stored] of storedAgentFields) {
    if (record[field] === undefined && stored.whenAbsent) record[field] = stored.whenAbsent();
    if (stored.sorted && Array.isArray(record[field])) record[field] = [...new Set(record[field] as string[])].sort();
  }
  agent._id = previous?._id ?? objectIdFor(agent.uid);
  agent.__v = previous?.__v === undefined ? 0 : previous.__v + 1;
  return agent;
}

/** A 24-hex-digit id shaped like a MongoDB ObjectId, derived from the uid so that it is stable. */
function objectIdFor(uid: string): string {
  return uid
    .replace(/[^0-9a-f]/g, '')
    .padEnd(24, '0')
    .slice(0, 24);
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
