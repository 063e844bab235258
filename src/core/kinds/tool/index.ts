// Tools: `PUT /ai-agents/tools/{name}` first for create and update (the seed's reading); a 404 there
// means the server is one that only creates with `POST /ai-agents/tools` (the public reference).
// A tool is identified by its name, which is also its manifest key.
import { toolManifest } from './manifest.js';
import { type JsonObject, type JsonValue, type ToolBody } from '../../api-types.js';
import type { ToolSpec } from '../../desired.js';
import { UserError } from '../../errors.js';
import { bodyOf, isEmptyValue, readFieldsOf } from '../fields.js';
import { TOOL_FIELDS } from './fields.js';
import { answeredStatus, isObject, seg, sendDelete, stringField, type CallContext, type CallOutcome, type Kind, type RemoteRecord } from '../kind.js';

/** Remembered for the rest of a run once a PUT answered 404: creates then go straight to POST. */
const POST_CREATES = 'tool:post-creates';

export const toolKind: Kind<ToolSpec> = {
  type: 'tool',
  remoteIdLabel: '_id',
  keyPattern: toolManifest.keyPattern,
  section: toolManifest.section,
  createIsRepeatable: true,
  dependsOn: [],
  fields: TOOL_FIELDS,
  normalizeMore: normalizeParameters,
  refresh: { listPath: '/ai-agents/tools', matchBy: 'key', read: readTool },
  identityOf: (spec) => spec.name,
  async create(ctx, spec) {
    if (ctx.memory.facts.has(POST_CREATES)) return postTool(ctx, spec);
    // Whether this server creates with PUT or only with POST is learned from the first create; the
    // others wait for that answer instead of each sending a PUT that would answer 404 (32 wasted
    // calls at --concurrency 32). They lose no time: the first create's PUT is one they would make.
    const learning = ctx.memory.learning.get(POST_CREATES);
    if (learning !== undefined) {
      await learning;
      return ctx.memory.facts.has(POST_CREATES) ? postTool(ctx, spec) : putOrPost(ctx, spec);
    }
    const first = putOrPost(ctx, spec);
    ctx.memory.learning.set(
      POST_CREATES,
      first.then(
        () => undefined,
        () => undefined,
      ),
    );
    return first;
  },
  // An update starts with PUT too; a 404 means the tool was deleted on the server since the plan.
  update: (ctx, spec) => putOrPost(ctx, spec),
  // A tool is deleted by name, which is its manifest key.
  remove: {
    describe: (_remoteId, key) => `DELETE /ai-agents/tools/${seg(key)}`,
    send: (ctx, _remoteId, key) => sendDelete(ctx, `/ai-agents/tools/${seg(key)}`),
  },
  describe: (_action, spec) => `PUT /ai-agents/tools/${seg(spec.name)}`,
  export: {
    keyOf: (record) => record.identity ?? '',
    renameable: false,
    // ToolDto and ParametersDto.
    keyOrder: { '': ['displayName', 'description', 'executionText', 'name', 'doNotExecute', 'parameters'], parameters: ['type', 'properties', 'required'] },
    entry: toolEntry,
  },
};

async function putOrPost(ctx: CallContext, spec: ToolSpec): Promise<CallOutcome> {
  try {
    return await putTool(ctx, spec);
  } catch (err) {
    if (!answeredStatus(err, 404)) throw err;
    ctx.memory.facts.add(POST_CREATES);
    return postTool(ctx, spec);
  }
}

async function putTool(ctx: CallContext, spec: ToolSpec): Promise<CallOutcome> {
  const answer = await ctx.wire.send({ method: 'PUT', path: `/ai-agents/tools/${seg(spec.name)}`, body: toolBody(spec) });
  return { remoteId: toolId(answer, spec.name) };
}

/** A POST refused with 400 may mean the name is taken (a create raced us, or the plan is old): then PUT updates it. */
async function postTool(ctx: CallContext, spec: ToolSpec): Promise<CallOutcome> {
  try {
    // Repeatable: if a lost answer hides that the first POST created the tool, the repeat's 400 falls back to PUT below.
    const answer = await ctx.wire.send({ method: 'POST', path: '/ai-agents/tools', body: toolBody(spec), repeatable: true });
    return { remoteId: toolId(answer, spec.name) };
  } catch (err) {
    if (!answeredStatus(err, 400)) throw err;
    try {
      return await putTool(ctx, spec);
    } catch {
      // The PUT did not help, so the 400 was about the body, not the name: that is the error to show.
      throw err;
    }
  }
}

/**
 * Every managed field, always: the server merges a PUT into the stored tool, so a field left out
 * would keep its old value. `parameters` follows the public ParametersDto, which requires `type`
 * and `properties` whenever it is sent: `{}` goes out as an empty object schema, and a tool that
 * is not executed sends none (the reference says it must be empty or absent then).
 */
export function toolBody(spec: ToolSpec): ToolBody {
  const body = bodyOf(TOOL_FIELDS, spec as unknown as JsonObject) as unknown as ToolBody;
  if (body.parameters !== undefined && isEmptyParameters(body.parameters as JsonValue)) body.parameters = { type: 'object', properties: {} };
  return body;
}

/** `_id` when the answer carries one (both public versions do); the name otherwise, which is what identifies a tool. */
function toolId(answer: unknown, name: string): string {
  return (isObject(answer) && stringField(answer, '_id')) || name;
}

/** The fields at the top of a tool record; description and parameters are in its nested `tool` object. */
const { description: _description, parameters: _parameters, ...TOOL_TOP_FIELDS } = TOOL_FIELDS;

/** One entry of the tool list: the table's fields, description and parameters from the nested `tool` object. */
function readTool(entry: unknown): RemoteRecord | undefined {
  if (!isObject(entry)) return undefined;
  const record: RemoteRecord = { spec: {} };
  const id = stringField(entry, '_id');
  if (id !== undefined) record.remoteId = id;
  const spec = readFieldsOf(TOOL_TOP_FIELDS, entry, record.spec);
  const name = stringField(entry, 'name');
  if (name !== undefined) record.identity = name;
  else delete spec.name;
  for (const field of ['displayName', 'executionText'] as const) if (typeof spec[field] !== 'string') delete spec[field];
  if (typeof spec.doNotExecute !== 'boolean') {
    delete spec.doNotExecute;
    if (entry.type === 'tool' || entry.type === 'action') spec.doNotExecute = entry.type === 'tool';
  }
  // The description and parameters live in the nested `tool` object of the record.
  const inner = isObject(entry.tool) ? entry.tool : entry;
  if ('description' in inner) spec.description = typeof inner.description === 'string' ? inner.description : '';
  if ('parameters' in inner) spec.parameters = isObject(inner.parameters) ? (inner.parameters as JsonObject) : {};
  return record;
}

/**
 * A server tool as a manifest entry: the defaults left out (`doNotExecute: false`), `parameters`
 * only for a tool that is executed (`{}` when it has none), a description wherever it means
 * something.
 */
function toolEntry(record: RemoteRecord): JsonObject {
  const { spec } = record;
  const name = record.identity ?? '';
  const entry: JsonObject = {};
  for (const field of ['displayName', 'executionText'] as const) {
    const value = spec[field];
    if (typeof value !== 'string') throw new UserError('api_error', `cannot export tool "${name}": the server's record has no "${field}"`);
    entry[field] = value;
  }
  const doNotExecute = spec.doNotExecute === true;
  const description = typeof spec.description === 'string' ? spec.description : '';
  if (doNotExecute) entry.doNotExecute = true;
  if (!doNotExecute || description !== '') entry.description = description;
  // The parameters in their normal form: no server-filled `required: []`, `required` sorted.
  if (!doNotExecute) entry.parameters = normalizeParameters({ parameters: spec.parameters ?? {} }).parameters ?? {};
  return entry;
}

/**
 * `{}` and an empty object schema send the same thing, and a tool that is not executed has no
 * parameters at all (the server may still hold old ones, since PUT merges): all are `{}`.
 * `required` is a set: compared sorted, and an empty one (a server's filled-in default) is none.
 */
function normalizeParameters(spec: JsonObject): JsonObject {
  const parameters = spec.parameters;
  if (!isObject(parameters) || Object.keys(parameters).length === 0) return spec;
  if (spec.doNotExecute === true || isEmptyParameters(parameters as JsonValue)) return { ...spec, parameters: {} };
  const required = parameters.required;
  if (required === undefined || (Array.isArray(required) && isSortedStrings(required) && required.length > 0)) return spec;
  const normal: JsonObject = { ...(parameters as JsonObject) };
  if (isEmptyValue(required as JsonValue)) delete normal.required;
  else if (Array.isArray(required)) normal.required = [...new Set(required.map(String))].sort();
  return { ...spec, parameters: normal };
}

function isSortedStrings(list: readonly unknown[]): boolean {
  for (let i = 0; i < list.length; i++) {
    const item = list[i];
    if (typeof item !== 'string' || (i > 0 && !((list[i - 1] as string) < item))) return false;
  }
  return true;
}

function isEmptyParameters(parameters: JsonValue | undefined): boolean {
  if (!isObject(parameters)) return true;
  const keys = Object.keys(parameters);
  if (keys.length === 0) return true;
  // Cheapest test first: a tool with parameters (most of them) fails it. This runs for both sides
  // of every tool in every plan.
  const properties = parameters.properties;
  if (parameters.type !== 'object' || !isObject(properties) || hasOwnKeys(properties)) return false;
  const required = parameters.required;
  return (required === undefined || (Array.isArray(required) && required.length === 0)) && keys.every((k) => k === 'type' || k === 'properties' || k === 'required');
}

function hasOwnKeys(object: object): boolean {
  for (const key in object) if (Object.hasOwn(object, key)) return true;
  return false;
}
