// The agent's field facts (docs/spec/server.md#field-facts): one line per field of the manifest's
// agent. The client (body, reader, normalization, export) and the emulator (what it stores and
// returns) read them.
import type { AgentSpec } from '../../desired.js';
import type { FieldTable } from '../fields.js';

export const AGENT_FIELDS: FieldTable<AgentSpec> = {
  name: {},
  integrationType: {},
  integrateWith: {},
  // Version A requires these three in a create, so they are always sent, defaults included.
  isActive: { default: () => true },
  tools: { default: () => [], set: true, refersTo: 'tool' },
  actions: { default: () => [], set: true, refersTo: 'tool' },
  // The seed calls the list platformTools; version A records it as cometchatTools.
  platformTools: { readAs: ['cometchatTools'], empty: () => [], set: true },
  icon: { empty: () => '' },
  instruction: { empty: () => '' },
  // An ordered list (docs/spec/server.md#how-records-compare): users see the prompts in this order, so it is not a set.
  suggestions: { empty: () => [] },
  integrationMeta: { empty: () => ({}), secrets: { wholeKeys: ['headers'], credentialKeys: true } },
  metaData: { empty: () => ({}), secrets: { credentialKeys: true } },
};
