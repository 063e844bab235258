// Agent Builder agents (cometchat-agent-builder.md §1): `POST /ai-agents/agent-builder/agents`
// creates (not repeatable: a lost answer may leave an agent we do not know the uid of, found again
// by its name), `PATCH …/agents/{uid}` updates only the changed fields and answers only
// `{success: true}` (what is recorded is the plan's spec; the next refresh reads the rest), `DELETE`
// removes. `knowledge:` is attached through its own routes (./knowledge.ts). Refresh reads the
// paged list, 100 agents a page.
import type { JsonObject } from '../../api-types.js';
import { bodyOf, factsOf, patchBodyOf, readFieldsOf } from '../fields.js';
import { isObject, PartlyDone, seg, sendDelete, recordOf, stringField, UnexpectedAnswer, type CallContext, type CallOutcome, type Kind, type RemoteRecord } from '../kind.js';
import { RESOURCE_TYPES, type ResourceType } from '../resource-types.js';
import { builderAgentEntry, builderAgentKeyOf, BUILDER_AGENT_KEY_ORDER } from './export.js';
import { BUILDER_AGENT_FIELDS } from './fields.js';
import { AGENTS_PATH, attachedIdsOf, knowledgeCalls, knowledgeOf, knowledgeSteps, sendKnowledgeCalls } from './knowledge.js';
import { builderAgentManifest, type BuilderAgentSpec } from './manifest.js';

/** Every field sent in a body: what an update of an agent whose record is unknown (an adopted create) sends. */
const BODY_FIELDS: ReadonlySet<string> = new Set(factsOf(BUILDER_AGENT_FIELDS).flatMap(([field, fact]) => (fact.sentWhen === undefined ? [field] : [])));

/** The kinds an agent's knowledge names that this build has: their changes come first (a new source's id is needed). */
const SOURCE_TYPES: readonly ResourceType[] = RESOURCE_TYPES.filter((type) => BUILDER_AGENT_FIELDS.knowledge.refersToAddresses?.includes(type) === true);

export const builderAgentKind: Kind<BuilderAgentSpec> = {
  type: 'builderAgent',
  remoteIdLabel: 'uid',
  keyPattern: builderAgentManifest.keyPattern,
  section: builderAgentManifest.section,
  createIsRepeatable: false,
  dependsOn: SOURCE_TYPES,
  fields: BUILDER_AGENT_FIELDS,
  refresh: { listPath: `${AGENTS_PATH}?limit=100`, matchBy: 'remoteId', read: readBuilderAgent, onlyWhenUsed: true },
  identityOf: (spec) => spec.name,
  create: createAgent,
  update: updateAgent,
  remove: {
    describe: (remoteId) => `DELETE ${AGENTS_PATH}/${seg(remoteId)}`,
    send: (ctx, remoteId) => sendDelete(ctx, `${AGENTS_PATH}/${seg(remoteId)}`),
  },
  // --target builderAgent.x brings the sources it names.
  needs: (spec) => knowledgeOf(spec),
  describe: (action, _spec, _key, remoteId) => (action === 'create' ? `POST ${AGENTS_PATH}` : `PATCH ${AGENTS_PATH}/${seg(remoteId ?? '')}`),
  export: { keyOf: builderAgentKeyOf, renameable: true, keyOrder: BUILDER_AGENT_KEY_ORDER, entry: builderAgentEntry },
};

async function createAgent(ctx: CallContext, spec: BuilderAgentSpec): Promise<CallOutcome> {
  // Every id is found before anything is sent: a source without one fails the change, not half of it.
  const attach = knowledgeCalls(ctx, [], knowledgeOf(spec));
  const answer = await ctx.wire.send({ method: 'POST', path: AGENTS_PATH, body: bodyOf(BUILDER_AGENT_FIELDS, spec as JsonObject) });
  // The reference wraps the record in `agent`; a bare record is accepted as well.
  const record = isObject(answer) && isObject(answer.agent) ? answer.agent : answer;
  const uid = isObject(record) ? stringField(record, 'uid') : undefined;
  if (uid === undefined) throw new UnexpectedAnswer('the answer has no "uid" for the new agent');
  try {
    await sendKnowledgeCalls(ctx, uid, attach);
  } catch (err) {
    // The agent exists: its uid is kept, so the next plan attaches what is missing instead of creating a second one.
    throw new PartlyDone(uid, { knowledge: [] }, err);
  }
  return attach.length === 0 ? { remoteId: uid } : { remoteId: uid, steps: ['POST', ...knowledgeSteps(attach)] };
}

async function updateAgent(ctx: CallContext, spec: BuilderAgentSpec, _key: string, remoteId: string, changed: ReadonlySet<string> = ALL_FIELDS): Promise<CallOutcome> {
  const fields = new Set([...changed].filter((field) => BODY_FIELDS.has(field)));
  // An adopted create (`changed` absent): what it holds is unknown, so every source is attached (an attached one is a no-op) and none detached.
  const attach = changed.has('knowledge') ? knowledgeCalls(ctx, changed === ALL_FIELDS ? [] : knowledgeOf(ctx.before), knowledgeOf(spec)) : [];
  if (fields.size > 0) {
    const answer = await ctx.wire.send({ method: 'PATCH', path: `${AGENTS_PATH}/${seg(remoteId)}`, body: patchBodyOf(BUILDER_AGENT_FIELDS, spec as JsonObject, fields) });
    // The answer is only `{success: true}`: what is recorded is the plan's spec, and the next refresh reads the rest.
    if (isObject(answer) && answer.success === false) throw new UnexpectedAnswer('the answer says "success": false');
  }
  await sendKnowledgeCalls(ctx, remoteId, attach);
  return attach.length === 0 ? { remoteId } : { remoteId, steps: [...(fields.size > 0 ? ['PATCH'] : []), ...knowledgeSteps(attach)] };
}

const ALL_FIELDS: ReadonlySet<string> = new Set(factsOf(BUILDER_AGENT_FIELDS).map(([field]) => field));

/**
 * One entry of the agent list. Only the table's fields are read; `knowledge` is the ids of `files`
 * and `websites` together (servers differ in which array a source type fills), which the refresh
 * turns back into addresses through the state (core/address-references.ts).
 */
function readBuilderAgent(entry: unknown): RemoteRecord | undefined {
  if (!isObject(entry)) return undefined;
  const spec = readFieldsOf(BUILDER_AGENT_FIELDS, entry);
  spec.knowledge = attachedIdsOf(entry);
  return recordOf(spec, stringField(entry, 'uid'), stringField(entry, 'name'), entry.createdAt);
}
