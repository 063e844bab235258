// Agents: `POST /ai-agents/agents` creates (not idempotent: a lost answer may leave an agent we do
// not know the uid of), `PATCH /ai-agents/agents/{uid}` updates, `DELETE` removes. An agent's
// identity for conflicts and imports is its `name`; state tracks it by uid.
import type { AgentBody, JsonObject } from '../api-types.js';
import type { AgentSpec } from '../desired.js';
import { ADDRESS_KEY_PATTERN } from '../schema.js';
import { agentEntry, slugOf, stringsOf } from './agent-export.js';
import { addressOf, isObject, seg, sendDelete, stringField, timestampMs, type Kind, type RemoteRecord } from './kind.js';

/** A PATCH body: any subset of the agent fields, with null clearing an optional one. */
export type AgentPatchBody = { [K in keyof AgentBody]?: AgentBody[K] | null };

/** Optional agent fields: absent from the spec but present before means "clear it" (PATCH null). */
const OPTIONAL_FIELDS = ['icon', 'integrationMeta', 'platformTools', 'instruction', 'suggestions', 'metaData'] as const;
const REQUIRED_FIELDS = ['name', 'isActive', 'integrateWith', 'integrationType', 'tools', 'actions'] as const;

export const agentKind: Kind<AgentSpec> = {
  type: 'agent',
  remoteIdLabel: 'uid',
  keyPattern: ADDRESS_KEY_PATTERN,
  createIsRepeatable: false,
  dependsOn: ['tool'],
  defaults: [
    ['isActive', () => true],
    ['tools', () => []],
    ['actions', () => []],
  ],
  sets: ['tools', 'actions', 'platformTools'],
  refresh: { listPath: '/ai-agents/agents', matchBy: 'remoteId', read: readAgent },
  identityOf: (spec) => spec.name,
  async create(ctx, spec) {
    const answer = await ctx.wire.send({ method: 'POST', path: '/ai-agents/agents', body: agentBody(spec) });
    // Both public versions wrap the record in `agent`; a bare record is accepted as well.
    const record = isObject(answer) && isObject(answer.agent) ? answer.agent : answer;
    const uid = isObject(record) ? stringField(record, 'uid') : undefined;
    if (uid === undefined) throw new UnexpectedAnswer('POST /ai-agents/agents answered without the new agent\'s "uid"');
    return { remoteId: uid };
  },
  async update(ctx, spec, _key, remoteId, before) {
    const answer = await ctx.wire.send({ method: 'PATCH', path: `/ai-agents/agents/${seg(remoteId)}`, body: agentPatchBody(spec, before) });
    // The public reference answers `{success: true}`; the seed's reading answers the agent. Both
    // mean success, and the uid is the one that was sent.
    if (isObject(answer) && answer.success === false) throw new UnexpectedAnswer(`PATCH /ai-agents/agents/${seg(remoteId)} answered "success": false`);
    return { remoteId };
  },
  remove: {
    describe: (remoteId) => `DELETE /ai-agents/agents/${seg(remoteId)}`,
    send: (ctx, remoteId) => sendDelete(ctx, `/ai-agents/agents/${seg(remoteId)}`),
  },
  needs: (spec) => [...spec.tools, ...spec.actions].map((name) => addressOf('tool', name)),
  describe: (action, _spec, _key, remoteId) => (action === 'create' ? 'POST /ai-agents/agents' : `PATCH /ai-agents/agents/${seg(remoteId ?? '')}`),
  export: {
    section: ['agents'],
    // The key is only the agent's address in the manifest, so a readable slug of its name will do.
    keyOf: (record) => slugOf(record.identity ?? ''),
    renameable: true,
    entry: agentEntry,
    references: (entry) => [...stringsOf(entry.tools), ...stringsOf(entry.actions)],
  },
};

/** A 2xx answer that cannot be right; status 200 so callers treat it as "the server answered". */
export class UnexpectedAnswer extends Error {
  readonly status = 200;
  readonly code = 'BAD_RESPONSE';
}

/**
 * The agent fields as the seed interface names them; absent optional fields are not sent. The two
 * public versions require different fields (A: name, isActive, integrateWith, integrationType,
 * actions, tools; O adds `icon`), so everything A requires is always sent. `icon` is sent whenever
 * the manifest has one: it is optional in the manifest, and there is no URL we could invent.
 * `platformTools` keeps the seed's name (A calls the list `cometchatTools`; neither schema forbids
 * extra keys).
 */
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
  for (const field of OPTIONAL_FIELDS) {
    if (body[field] === undefined && before[field] !== undefined) body[field] = null;
  }
  return body;
}

/**
 * One entry of `GET /ai-agents/agents`. Version O answers the whole record (every field optional);
 * version A answers `{name, description, deploymentUrl, apiKey}` without a uid, which cannot be
 * matched to state: such entries carry no remoteId. A soft-deleted agent is not there at all.
 * A null optional field is "absent", written as null so the refresh can drop it.
 */
function readAgent(entry: unknown): RemoteRecord | undefined {
  if (!isObject(entry)) return undefined;
  if (entry.deletedAt !== undefined && entry.deletedAt !== null) return undefined;
  const record: RemoteRecord = { spec: {} };
  const uid = stringField(entry, 'uid');
  if (uid !== undefined) record.remoteId = uid;
  const name = stringField(entry, 'name');
  if (name !== undefined) record.identity = name;
  const createdAtMs = timestampMs(entry.createdAt);
  if (createdAtMs !== undefined) record.createdAtMs = createdAtMs;
  for (const field of [...REQUIRED_FIELDS, ...OPTIONAL_FIELDS]) {
    if (!(field in entry)) continue;
    const value = entry[field];
    if (value === null || value === undefined) {
      if ((OPTIONAL_FIELDS as readonly string[]).includes(field)) record.spec[field] = null;
      continue;
    }
    record.spec[field] = value as JsonObject[string];
  }
  return record;
}
