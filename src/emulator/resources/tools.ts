// Tools: PUT (create or merge-update), GET one, GET list (?type=action|tool), DELETE.
import { API_ERROR_CODES, TOOL_NAME_PATTERN, type ToolRecord } from '../../core/api-types.js';
import { isoAfter } from '../clock.js';
import { badRequest, notFound } from '../errors.js';
import type { ApiRequest, ApiResponse, Route } from '../router.js';
import type { EmulatorStore } from '../store.js';
import { optionalBoolean, optionalString, rejectUnknownKeys, requireObjectBody, requireString } from '../validate.js';
import { isEmptyParameters, validateParameters } from './tool-parameters.js';

const TOOL_KEYS = new Set(['name', 'displayName', 'executionText', 'description', 'doNotExecute', 'parameters']);

/** A validated PUT body. Absent optional fields stay absent so the merge can keep stored values. */
interface ToolUpdate {
  name: string;
  displayName: string;
  executionText: string;
  doNotExecute: boolean;
  description?: string;
  parameters?: ToolRecord['tool']['parameters'];
}

export function toolRoutes(store: EmulatorStore): Route[] {
  return [
    { pattern: '/ai-agents/tools', methods: { GET: (request) => listTools(store, request) } },
    {
      pattern: '/ai-agents/tools/:name',
      methods: {
        GET: (request) => ({ status: 200, body: findTool(store, request.params.name ?? '') }),
        PUT: (request) => putTool(store, request),
        DELETE: (request) => deleteTool(store, request),
      },
    },
  ];
}

function listTools(store: EmulatorStore, request: ApiRequest): ApiResponse {
  const type = request.query.get('type');
  if (type !== null && type !== 'action' && type !== 'tool') throw badRequest("'type' must be \"action\" or \"tool\".");
  const tools = [...store.tools.values()].filter((tool) => type === null || tool.type === type);
  return { status: 200, body: tools };
}

function findTool(store: EmulatorStore, name: string): ToolRecord {
  const tool = store.tools.get(name);
  if (!tool) throw notFound(API_ERROR_CODES.toolNotFound, `Tool '${name}' does not exist.`);
  return tool;
}

function deleteTool(store: EmulatorStore, request: ApiRequest): ApiResponse {
  const name = request.params.name ?? '';
  findTool(store, name);
  store.tools.delete(name);
  store.changed();
  return { status: 200, body: { deleted: true } };
}

function putTool(store: EmulatorStore, request: ApiRequest): ApiResponse {
  const update = parseToolBody(request.body);
  const pathName = request.params.name ?? '';
  if (update.name !== pathName) {
    throw badRequest(`'name' ("${update.name}") must equal the tool name in the path ("${pathName}"); a tool cannot be renamed.`);
  }
  const existing = store.tools.get(update.name);
  const record = mergeTool(store.appId, existing, update, isoAfter(existing?.updatedAt));
  store.tools.set(record.name, record);
  store.changed();
  return { status: 200, body: record };
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
    doNotExecute: optionalBoolean(object, 'doNotExecute') ?? false,
  };
  const description = optionalString(object, 'description');
  if (description !== undefined) update.description = description;
  if (update.doNotExecute) {
    if (object.parameters !== undefined && !isEmptyParameters(object.parameters)) {
      throw badRequest("'parameters' must be empty or omitted when 'doNotExecute' is true.");
    }
    if (object.parameters !== undefined) update.parameters = {};
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
 */
function mergeTool(appId: string, existing: ToolRecord | undefined, update: ToolUpdate, now: string): ToolRecord {
  const tool: ToolRecord['tool'] = { name: update.name };
  const description = update.description ?? existing?.tool.description;
  const parameters = update.parameters ?? existing?.tool.parameters;
  if (description !== undefined) tool.description = description;
  if (parameters !== undefined) tool.parameters = parameters;
  return {
    _id: `${appId}_${update.name}`,
    appId,
    name: update.name,
    type: update.doNotExecute ? 'tool' : 'action',
    displayName: update.displayName,
    executionText: update.executionText,
    doNotExecute: update.doNotExecute,
    tool,
    createdAt: existing?.createdAt ?? now,
    updatedAt: now,
  };
}
