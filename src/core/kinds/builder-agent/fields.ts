// The Agent Builder agent's field facts (docs/spec/server.md#field-facts), from the public
// reference (cometchat-agent-builder.md §1.1): one line per spec field.
import type { FieldTable } from '../fields.js';
import type { BuilderAgentSpec } from './manifest.js';

/** The model the server fills in when a create names none (the DTO's default). */
export const DEFAULT_MODEL = 'gpt-4o-mini';

export const BUILDER_AGENT_FIELDS: FieldTable<BuilderAgentSpec> = {
  name: {},
  icon: { empty: () => '' },
  isActive: { default: () => true },
  description: { empty: () => '' },
  instruction: { empty: () => '' },
  // Not sent when absent: the server fills its default, which both sides then take, so a server
  // that stores only what was sent (and returns no model) and one that fills it in both agree.
  model: { default: () => DEFAULT_MODEL },
  modelMetaData: { empty: () => ({}) },
  metaData: { empty: () => ({}), secrets: { credentialKeys: true } },
  // Slugs of kinds a later issue adds: plain sets for now.
  tools: { empty: () => [], set: true },
  apiTools: { empty: () => [], set: true },
  mcpServers: { empty: () => [], set: true },
  // Attached through …/knowledge-base/{sourceType}/add|remove, never in a create or update body;
  // read back from the agent's `files` and `websites` (./knowledge.ts).
  knowledge: { empty: () => [], set: true, sentWhen: () => false, refersToAddresses: ['website', 'text', 'file'] },
};
