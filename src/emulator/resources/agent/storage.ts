// How the emulator's agent store keeps each field: its JSON type (what a `null` is refused with),
// the value it stores when a body never sent the field, whether it keeps the list sorted, and
// whether a sparse list leaves the field out. Written from the public reference
// (../shared/reference/public-api-versions.md: the create body's optional fields, the list entry of
// version O, which marks no field required) and docs/spec/server.md#what-a-server-may-do, not from
// the client's field table (core/kinds/agent/fields.ts): the two are meant to be able to disagree,
// so that a wrong belief in the client fails a round trip instead of moving the server double with it.
import type { AgentRecord, JsonValue } from '../../../core/api-types.js';

interface StoredField {
  type: 'string' | 'boolean' | 'array' | 'object';
  /** Stored when a create never sent the field: a document store's default for an optional field. */
  whenAbsent?: () => JsonValue;
  /** A set the store keeps sorted and de-duplicated (version O lists them in no declared order). */
  sorted?: true;
  /** Left out of a sparse list entry (`agentList: 'sparse'`): no list schema marks it required. */
  mayBeLeftOut?: true;
}

type AgentField = keyof Omit<AgentRecord, 'uid' | 'appId' | '_id' | '__v' | 'createdAt' | 'updatedAt' | 'deletedAt'>;

export const STORED_AGENT_FIELDS: { readonly [K in AgentField]-?: StoredField } = {
  name: { type: 'string' },
  integrationType: { type: 'string' },
  integrateWith: { type: 'string' },
  isActive: { type: 'boolean' },
  tools: { type: 'array', sorted: true },
  actions: { type: 'array', sorted: true },
  // The seed's name for CometChat's own tools; this store records them as cometchatTools (version A's).
  platformTools: { type: 'array', mayBeLeftOut: true },
  cometchatTools: { type: 'array', whenAbsent: () => [], sorted: true, mayBeLeftOut: true },
  icon: { type: 'string', whenAbsent: () => '' },
  instruction: { type: 'string', whenAbsent: () => '' },
  // Shown to users in the order given: kept as sent, never sorted.
  suggestions: { type: 'array', whenAbsent: () => [], mayBeLeftOut: true },
  integrationMeta: { type: 'object', whenAbsent: () => ({}) },
  metaData: { type: 'object', whenAbsent: () => ({}) },
};

/** The fields as a list, for loops. */
export const storedAgentFields = Object.entries(STORED_AGENT_FIELDS) as [AgentField, StoredField][];
