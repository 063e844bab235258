// The body of an Agent Builder agent's create (POST) and update (PATCH), and how a record is stored.
// Written from ../shared/reference/cometchat-agent-builder.md §1.1–1.5: the keys CreateCometChatAgentDto
// lists, the name and instruction limits of the properties page, and the defaults of the create
// example. A key the DTO does not list (files, websites, frontendActions, ragVersion, uid, …) is a 400:
// the cautious reading of "not shown" (a server that strips it silently would hide a client's mistake).
import type { BuilderAgentBody, BuilderAgentRecord } from '../../../core/agent-builder-wire.js';
import type { JsonObject } from '../../../core/api-types.js';
import { badRequest } from '../../errors.js';
import { isHttpUrl, quoteList, requireObject, requireStringArray } from '../../validate.js';

export const NAME_MAX_CHARS = 100;
export const INSTRUCTION_MAX_CHARS = 32_000;
/** The DTO's default model (the models list names another default; the DTO's is the one stored). */
const DEFAULT_MODEL = 'gpt-4o-mini';

const LIST_FIELDS = ['tools', 'apiTools', 'mcpServers'] as const;
const OBJECT_FIELDS = ['metaData', 'modelMetaData'] as const;
const BODY_KEYS: ReadonlySet<string> = new Set(['name', 'icon', 'isActive', 'description', 'instruction', 'model', ...LIST_FIELDS, ...OBJECT_FIELDS]);
/** Keys a client might try for knowledge, answered with where knowledge really goes. */
const KNOWLEDGE_KEYS: ReadonlySet<string> = new Set(['files', 'websites', 'knowledge', 'knowledgeBase']);

/** Validates a body; `creating` demands `name`. Lengths are JavaScript string lengths, as a NestJS validator counts. */
export function parseBuilderAgentBody(body: JsonObject, creating: boolean): BuilderAgentBody {
  rejectOtherKeys(body);
  const parsed: BuilderAgentBody = {};
  if (body.name !== undefined || creating) parsed.name = parseName(body.name);
  for (const field of ['icon', 'description', 'instruction', 'model'] as const) {
    const value = body[field];
    if (value === undefined) continue;
    if (typeof value !== 'string') throw badRequest(`'${field}' must be a string.`);
    parsed[field] = value;
  }
  // "" is how a client clears the icon; anything else must be a link.
  if (parsed.icon !== undefined && parsed.icon !== '' && !isHttpUrl(parsed.icon)) throw badRequest("'icon' must be an http(s) URL.");
  if (parsed.instruction !== undefined && parsed.instruction.length > INSTRUCTION_MAX_CHARS) {
    throw badRequest(`'instruction' must be at most ${INSTRUCTION_MAX_CHARS} characters; it has ${parsed.instruction.length}.`);
  }
  if (body.isActive !== undefined) {
    if (typeof body.isActive !== 'boolean') throw badRequest("'isActive' must be a boolean.");
    parsed.isActive = body.isActive;
  }
  // Tool, API-tool and MCP-server slugs are taken as given: those kinds are not emulated yet.
  for (const field of LIST_FIELDS) if (body[field] !== undefined) parsed[field] = [...requireStringArray(body[field], field)];
  for (const field of OBJECT_FIELDS) if (body[field] !== undefined) parsed[field] = requireObject(body[field], field);
  return parsed;
}

function rejectOtherKeys(body: JsonObject): void {
  const unknown = Object.keys(body).filter((key) => !BODY_KEYS.has(key));
  if (unknown.length === 0) return;
  const hint = unknown.some((key) => KNOWLEDGE_KEYS.has(key)) ? ' Knowledge is attached with PATCH /ai-agents/agent-builder/agents/{uid}/knowledge-base/{sourceType}/add.' : '';
  throw badRequest(`Unknown field${unknown.length > 1 ? 's' : ''} ${quoteList(unknown)}: an agent's body takes ${quoteList([...BODY_KEYS])}.${hint}`);
}

function parseName(value: JsonObject[string] | undefined): string {
  if (value === undefined || value === null) throw badRequest("'name' is required.");
  if (typeof value !== 'string') throw badRequest("'name' must be a string.");
  if (value.trim() === '') throw badRequest("'name' must not be empty.");
  if (value.length > NAME_MAX_CHARS) throw badRequest(`'name' must be at most ${NAME_MAX_CHARS} characters; it has ${value.length}.`);
  return value;
}

/** What the server makes itself, whatever it was sent. */
export interface ServerMade {
  uid: string;
  appId: string;
  createdAt: number;
}

/**
 * A new record. Stored like a server (the default): every field the create example shows, its
 * default when not sent (`formattedInstruction` copies `instruction`). `storeAsSent`: what was sent
 * plus the server-made fields only.
 */
export function newBuilderAgent(body: BuilderAgentBody, made: ServerMade, storeAsSent: boolean): BuilderAgentRecord {
  const stamps = { files: [], websites: [], createdAt: made.createdAt, updatedAt: made.createdAt };
  if (storeAsSent) return { uid: made.uid, appId: made.appId, name: body.name ?? '', ...body, ...stamps };
  const record: BuilderAgentRecord = {
    uid: made.uid,
    appId: made.appId,
    name: body.name ?? '',
    isActive: true,
    model: DEFAULT_MODEL,
    tools: [],
    apiTools: [],
    mcpServers: [],
    frontendActions: [],
    otherKbIntegrations: [],
    metaData: {},
    modelMetaData: {},
    instruction: '',
    ragVersion: 'v2',
    lastMessageAt: null,
    ...body,
    ...stamps,
  };
  record.formattedInstruction = record.instruction;
  return record;
}

/** An update: every field sent replaces the stored one, arrays and objects whole. */
export function updatedBuilderAgent(current: BuilderAgentRecord, body: BuilderAgentBody, updatedAt: number, storeAsSent: boolean): BuilderAgentRecord {
  const next: BuilderAgentRecord = { ...current, ...body, updatedAt };
  if (!storeAsSent && body.instruction !== undefined) next.formattedInstruction = body.instruction;
  return next;
}
