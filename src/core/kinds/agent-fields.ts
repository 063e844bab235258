// The agent's field facts (docs/spec/server.md#field-facts): one line per field of the manifest's
// agent. The client (body, reader, normalization, export) and the emulator (what it stores and
// returns) read them.
import type { AgentSpec } from '../desired.js';
import type { FieldTable } from './fields.js';

export const AGENT_FIELDS: FieldTable<AgentSpec> = {
  name: { returned: 'always' },
  integrationType: { returned: 'always' },
  integrateWith: { returned: 'always' },
  // Version A requires these three in a create, so they are always sent, defaults included.
  isActive: { default: () => true, returned: 'always' },
  tools: { default: () => [], set: true, returned: 'always' },
  actions: { default: () => [], set: true, returned: 'always' },
  // The seed calls the list platformTools; version A records it as cometchatTools.
  platformTools: { readAs: ['cometchatTools'], empty: () => [], set: true, returned: 'maybe' },
  icon: { empty: () => '', returned: 'always' },
  instruction: { empty: () => '', returned: 'always' },
  // An ordered list (docs/spec/server.md#how-records-compare): users see the prompts in this order, so it is not a set.
  suggestions: { empty: () => [], returned: 'maybe' },
  integrationMeta: { empty: () => ({}), secrets: { wholeKeys: ['headers'], credentialKeys: true }, returned: 'always' },
  metaData: { empty: () => ({}), secrets: { credentialKeys: true }, returned: 'always' },
};
