// An Agent Builder agent's manifest entry (docs/spec/manifest.md#builder-agents): its schema and
// the spec it asks for. The map key is the agent's address in the manifest and is never sent.
import * as z from 'zod/mini';
import { described } from '../../zod.js';
import type { KindEntry } from '../entry.js';
import { ADDRESS_KEY_PATTERN, addressKey, freeObject, httpUrl, nameSet, resourceEnvironments } from '../schema-parts.js';

/** The reference's limits (properties-and-constraints): name ≤ 100, instruction ≤ 32,000 characters. */
export const MAX_NAME_LENGTH = 100;
export const MAX_INSTRUCTION_LENGTH = 32_000;

/**
 * Model settings: `temperature` and `maxTokens` are numbers; any other key is kept as written (the
 * DTO allows extra keys). A map of JSON values with those two checked, rather than an object with a
 * catch-all, so its type stays a plain JSON object.
 */
const modelMetaData = freeObject.check(
  z.superRefine((settings, ctx) => {
    for (const key of ['temperature', 'maxTokens']) {
      if (Object.hasOwn(settings, key) && typeof settings[key] !== 'number') ctx.addIssue({ code: 'custom', path: [key], message: `${key} must be a number` });
    }
  }),
);

/** Built on first use (most manifests have no builder agents). */
export const builderAgentSchema = z.lazy(() =>
  described(
    z.strictObject({
      name: described(
        z.string().check(z.minLength(1), z.maxLength(MAX_NAME_LENGTH, `name is at most ${MAX_NAME_LENGTH} characters`)),
        `Agent name (1–${MAX_NAME_LENGTH} characters). Identifies the agent for conflicts and imports.`,
      ),
      icon: described(z.optional(httpUrl), 'http(s) URL of the agent icon.'),
      isActive: z._default(z.boolean(), true),
      description: z.optional(z.string()),
      instruction: described(
        z.optional(z.string().check(z.maxLength(MAX_INSTRUCTION_LENGTH, `instruction is at most ${MAX_INSTRUCTION_LENGTH.toLocaleString('en-US')} characters`))),
        `The agent's instructions (at most ${MAX_INSTRUCTION_LENGTH.toLocaleString('en-US')} characters).`,
      ),
      model: described(z.optional(z.string().check(z.minLength(1))), 'The model; the server fills gpt-4o-mini when absent.'),
      modelMetaData: described(z.optional(modelMetaData), 'Model settings: temperature, maxTokens (numbers); other keys are kept.'),
      metaData: described(z.optional(freeObject), 'Free-form metadata.'),
      tools: described(z.optional(nameSet), 'Composio toolkit slugs (plain strings for now).'),
      apiTools: described(z.optional(nameSet), 'Custom API tool slugs (plain strings for now).'),
      mcpServers: described(z.optional(nameSet), 'MCP server slugs (plain strings for now).'),
      knowledge: described(z.optional(nameSet), 'Knowledge-base sources the agent may use, as addresses: website.<key>, text.<key>, file.<key>. Only these are attached; any other is detached.'),
      environments: resourceEnvironments,
    }),
    'An Agent Builder agent (/ai-agents/agent-builder/agents). The map key is its address in this manifest and is never sent.',
  ),
);

export type ManifestBuilderAgent = z.output<typeof builderAgentSchema>;

/** What the Agent Builder routes send; `knowledge` is attached through its own routes, never in the body. */
export type BuilderAgentSpec = Omit<ManifestBuilderAgent, 'environments'>;

export const builderAgentManifest: KindEntry<ManifestBuilderAgent, BuilderAgentSpec, readonly ['builderAgents']> = {
  section: ['builderAgents'],
  keyPattern: ADDRESS_KEY_PATTERN,
  keySchema: addressKey,
  schema: builderAgentSchema,
  build: (spec) => spec,
};
