// Tools: POST (create), PUT (merge-update; creates too only in putCreates mode), GET one,
// GET list (?type=action|tool), DELETE.
import type { ToolDeleteResponse, ToolRecord } from '../../../core/api-types.js';
import { ERROR_CODES, TOOL_NAME_PATTERN } from '../../error-codes.js';
import { isoAfter } from '../../clock.js';
import { badRequest, expectedError, notFound } from '../../errors.js';
import type { ServerMode } from '../../mode.js';
import { presentTool } from './present.js';
import type { ApiRequest, ApiResponse, Route } from '../../router.js';
import type { EmulatorStore } from '../../store.js';
import { optionalBoolean, optionalString, rejectUnknownKeys, requireObjectBody, requireString } from '../../validate.js';
import { isEmptyParameters, validateParameters } from './parameters.js';
import { MERGED_TOOL_FIELDS, STORED_PARAMETERS, STORED_TOOL_FIELDS, storedParametersOfTool, storedToolType, toolIdFor } from './storage.js';

const TOOL_KEYS = new Set(Object.keys(STORED_TOOL_FIELDS));

/** A validated POST or PUT body. Absent optional fields stay absent so the merge can keep stored values. */
interface ToolUpdate {
  name: string;
  displayName: string;
  executionText: string;
  doNotExecute: boolean;
  description?: string;
  parameters?: ToolRecord['tool']['parameters'];
}

export function toolRoutes(store: EmulatorStore, mode: ServerMode): Route[] {
  return [
    {
      pattern: '/ai-agents/tools',
      methods: {
        GET: (request) => listTools(store, mode, request),
        POST: (request) => createTool(store, mode, request),
      },
    },
    {
      pattern: '/ai-agents/tools/:name',
      methods: {
        GET: (request) => ({ status: 200, body: presentTool(findTool(store, request.params.name ?? ''), mode) }),
        PUT: (request) => putTool(store, mode, request),
        DELETE: (request) => deleteTool(store, request),
      },
    },
  ];
}

function listTools(store: EmulatorStore, mode: ServerMode, request: ApiRequest): ApiResponse {
  const type = request.query.get('type');
  if (type !== null && type !== 'action' && type !== 'tool') throw badRequest('\'type\' must be "action" or "tool".');
  const tools = [...store.tools.values()].filter((tool) => type === null || tool.type === type);
  return { status: 200, body: tools.map((tool) => presentTool(tool, mode)) };
}

function findTool(store: EmulatorStore, name: string): ToolRecord {
  const tool = store.tools.get(name);
  if (!tool) throw notFound(ERROR_CODES.toolNotFound, `Tool '${name}' does not exist.`);
  return tool;
}

function deleteTool(store: EmulatorStore, request: ApiRequest): ApiResponse {
  const name = request.params.name ?? '';
  findTool(store, name);
  store.tools.delete(name);
  store.changed();
  const body: ToolDeleteResponse = { deleted: true };
  return { status: 200, body };
}

/** Tool names are unique per app: a second POST with a known name is a 400, as the reference says. */
function createTool(store: EmulatorStore, mode: ServerMode, request: ApiRequest): ApiResponse {
  const update = parseToolBody(request.body);
  if (store.tools.has(update.name)) {
    throw badRequest(`A tool named '${update.name}' already exists. Update it with PUT /ai-agents/tools/${update.name}.`);
  }
  const record = storeTool(mode, mergeTool(store.appId, undefined, update, isoAfter(undefined)), undefined);
  store.tools.set(record.name, record);
  store.changed();
  return { status: mode.createStatus, body: presentTool(record, mode) };
}

/** The body is validated first, as a DTO is on the real server; only then is an unknown name a 404. */
function putTool(store: EmulatorStore, mode: ServerMode, request: ApiRequest): ApiResponse {
  const update = parseToolBody(request.body);
  const pathName = request.params.name ?? '';
  if (update.name !== pathName) {
    throw badRequest(`'name' ("${update.name}") must equal the tool name in the path ("${pathName}"); a tool cannot be renamed.`);
  }
  const existing = store.tools.get(update.name);
  if (!existing && !mode.putCreates) {
    // agentsync (and other upserting clients) PUT first and create with POST on this 404.
    throw expectedError(notFound(ERROR_CODES.toolNotFound, `Tool '${update.name}' does not exist. Create it with POST /ai-agents/tools.`), 'a PUT that probes for a tool before creating it with POST');
  }
  const record = storeTool(mode, mergeTool(store.appId, existing, update, isoAfter(existing?.updatedAt)), existing);
  store.tools.set(record.name, record);
  store.changed();
  return { status: 200, body: presentTool(record, mode) };
}

/**
 * A tool as a document store keeps it (docs/spec/emulator.md#stores-like-a-server, the facts in
 * storage.ts): parameters get `required: []` when they have none and keep it sorted, and a version
 * counter `__v` moves on every write.
 */
function storeTool(mode: ServerMode, tool: ToolRecord, previous: ToolRecord | undefined): ToolRecord {
  if (mode.storeAsSent) return tool;
  const parameters = tool.tool.parameters;
  if (parameters !== undefined && parameters.type !== undefined) {
    const required = parameters.required ?? STORED_PARAMETERS.requiredWhenNotSent();
    tool.tool.parameters = { ...parameters, required: STORED_PARAMETERS.requiredSorted ? [...new Set(required)].sort() : required };
  }
  tool.__v = previous?.__v === undefined ? 0 : previous.__v + 1;
  return tool;
}

function parseToolBody(body: unknown): ToolUpdate {
  const object = requireObjectBody(body);
  rejectUnknownKeys(object, TOOL_KEYS, '');
  const name = requireString(object, 'name');
  if (!TOOL_NAME_PATTERN.test(name)) {
    throw badRequest(`'name' must match ${TOOL_NAME_PATTERN.source}: a letter, _ or $ first, then letters, digits, _, $ or -.`);
  }
  const update: ToolUpdate = {
    name,
    displayName: requireString(object, 'displayName'),
    executionText: requireString(object, 'executionText'),
    doNotExecute: optionalBoolean(object, 'doNotExecute') ?? STORED_TOOL_FIELDS.doNotExecute.whenNotSent.default,
  };
  const description = optionalString(object, 'description');
  if (description !== undefined) update.description = description;
  if (update.doNotExecute) {
    if (object.parameters !== undefined && !isEmptyParameters(object.parameters)) {
      throw badRequest("'parameters' must be empty or omitted when 'doNotExecute' is true.");
    }
    if (object.parameters !== undefined) update.parameters = storedParametersOfTool();
  } else {
    if (description === undefined) throw badRequest("'description' is required when 'doNotExecute' is false.");
    if (object.parameters === undefined) throw badRequest("'parameters' is required when 'doNotExecute' is false ({} is allowed).");
    update.parameters = validateParameters(object.parameters);
  }
  return update;
}

/**
 * The public reference says the body is merged into the existing tool: a field the body leaves
 * out keeps its stored value. So a client that stops sending `description` does not remove it.
 * The type follows doNotExecute on every write, even when agents name the tool in the list of its
 * old type: the reference sets no rule for that, and agents are only checked when they are written.
 */
function mergeTool(appId: string, existing: ToolRecord | undefined, update: ToolUpdate, now: string): ToolRecord {
  const tool: ToolRecord['tool'] = { name: update.name };
  for (const field of MERGED_TOOL_FIELDS) {
    const value = update[field] ?? existing?.tool[field];
    if (value !== undefined) (tool as Record<string, unknown>)[field] = value;
  }
  return {
    _id: toolIdFor(appId, update.name),
    appId,
    name: update.name,
    type: storedToolType(update.doNotExecute),
    displayName: update.displayName,
    executionText: update.executionText,
    doNotExecute: update.doNotExecute,
    tool,
    createdAt: existing?.createdAt ?? now,
    updatedAt: now,
  };
}
