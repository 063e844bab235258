// Agents: `POST /ai-agents/agents` creates (not idempotent: a lost answer may leave an agent we do
// not know the uid of), `PATCH /ai-agents/agents/{uid}` updates, `DELETE` removes. An agent's
// identity for conflicts and imports is its `name`; state tracks it by uid.
import { agentManifest } from './manifest.js';
import type { JsonObject } from '../../api-types.js';
import type { AgentSpec } from '../../desired.js';
import { AGENT_FIELDS } from './fields.js';
import { agentEntry, slugOf, stringsOf } from './export.js';
import { bodyOf, factsOf, patchBodyOf, readFieldsOf } from '../fields.js';
import { addressOf, isObject, seg, sendDelete, recordOf, stringField, UnexpectedAnswer, type Kind, type RemoteRecord } from '../kind.js';

/** Every agent field: what an update of an agent whose server record is unknown (an adopted create) sends. */
const ALL_FIELDS: ReadonlySet<string> = new Set(factsOf(AGENT_FIELDS).map(([field]) => field));

export const agentKind: Kind<AgentSpec> = {
  type: 'agent',
  remoteIdLabel: 'uid',
  keyPattern: agentManifest.keyPattern,
  section: agentManifest.section,
  createIsRepeatable: false,
  dependsOn: ['tool'],
  fields: AGENT_FIELDS,
  refresh: { listPath: '/ai-agents/agents', matchBy: 'remoteId', read: readAgent },
  identityOf: (spec) => spec.name,
  async create(ctx, spec) {
    const answer = await ctx.wire.send({ method: 'POST', path: '/ai-agents/agents', body: agentBody(spec) });
    // Both public versions wrap the record in `agent`; a bare record is accepted as well.
    const record = isObject(answer) && isObject(answer.agent) ? answer.agent : answer;
    const uid = isObject(record) ? stringField(record, 'uid') : undefined;
    if (uid === undefined) throw new UnexpectedAnswer('the answer has no "uid" for the new agent');
    return { remoteId: uid };
  },
  async update(ctx, spec, _key, remoteId, changed = ALL_FIELDS) {
    const answer = await ctx.wire.send({ method: 'PATCH', path: `/ai-agents/agents/${seg(remoteId)}`, body: agentPatchBody(spec, changed) });
    // The public reference answers `{success: true}`; the seed's reading answers the agent. Both
    // mean success, and the uid is the one that was sent.
    if (isObject(answer) && answer.success === false) throw new UnexpectedAnswer('the answer says "success": false');
    return { remoteId };
  },
  remove: {
    describe: (remoteId) => `DELETE /ai-agents/agents/${seg(remoteId)}`,
    send: (ctx, remoteId) => sendDelete(ctx, `/ai-agents/agents/${seg(remoteId)}`),
  },
  needs: (spec) => [...spec.tools, ...spec.actions].map((name) => addressOf('tool', name)),
  describe: (action, _spec, _key, remoteId) => (action === 'create' ? 'POST /ai-agents/agents' : `PATCH /ai-agents/agents/${seg(remoteId ?? '')}`),
  export: {
    // The key is only the agent's address in the manifest, so a readable slug of its name will do.
    keyOf: (record) => slugOf(record.identity ?? ''),
    renameable: true,
    // CreateAgentDTO, in the manifest's names (platformTools is the wire's cometchatTools).
    keyOrder: { '': ['name', 'icon', 'isActive', 'integrateWith', 'integrationType', 'integrationMeta', 'actions', 'tools', 'platformTools', 'instruction', 'suggestions', 'metaData'] },
    entry: agentEntry,
    references: (entry) => [...stringsOf(entry.tools), ...stringsOf(entry.actions)],
  },
};

/**
 * A create's body: every field the spec holds, under its wire name. The two public versions require
 * different fields (A: name, isActive, integrateWith, integrationType, actions, tools; O adds
 * `icon`), so everything A requires is always sent (the table gives those defaults); `icon` is
 * sent whenever the manifest has one, as there is no URL we could invent.
 */
export function agentBody(spec: AgentSpec): JsonObject {
  return bodyOf(AGENT_FIELDS, spec as JsonObject);
}

/** A PATCH's body: only the fields that change, a dropped optional one as its type's empty value (never null). */
export function agentPatchBody(spec: AgentSpec, changed: ReadonlySet<string>): JsonObject {
  return patchBodyOf(AGENT_FIELDS, spec as JsonObject, changed);
}

/**
 * One entry of `GET /ai-agents/agents`. Version O answers the whole record (every field optional);
 * version A answers `{name, description, deploymentUrl, apiKey}` without a uid, which cannot be
 * matched to state: such entries carry no remoteId. A soft-deleted agent is not there at all.
 * Only the table's fields are read (under any of their names): bookkeeping is never a spec field.
 */
function readAgent(entry: unknown): RemoteRecord | undefined {
  if (!isObject(entry)) return undefined;
  if (entry.deletedAt !== undefined && entry.deletedAt !== null) return undefined;
  return recordOf(readFieldsOf(AGENT_FIELDS, entry), stringField(entry, 'uid'), stringField(entry, 'name'), entry.createdAt);
}
