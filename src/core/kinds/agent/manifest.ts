// An agent's manifest entry (docs/spec/manifest.md#agents): its schema and the spec it asks for.
// The map key is the agent's address in the manifest and is never sent.
import * as z from 'zod/mini';
import { described } from '../../zod.js';
import type { KindEntry } from '../entry.js';
import { isObject } from '../kind.js';
import { ADDRESS_KEY_PATTERN, addressKey, freeObject, httpUrl, isObjectPayload, nameSet, resourceEnvironments } from '../schema-parts.js';

export const agentSchema = described(
  z
    .strictObject({
      name: described(z.string().check(z.minLength(1)), 'Agent name.'),
      integrationType: described(z.enum(['llm', 'agent']), 'llm or agent.'),
      integrateWith: described(z.string().check(z.minLength(1)), 'The model or platform identifier.'),
      isActive: z._default(z.boolean(), true),
      tools: described(z._default(nameSet, []), 'Names of tools (from this manifest or external.tools).'),
      actions: described(z._default(nameSet, []), 'Names of actions (from this manifest or external.tools).'),
      icon: described(z.optional(httpUrl), 'http(s) URL of the agent icon.'),
      instruction: z.optional(z.string()),
      suggestions: z.optional(z.array(z.string())),
      platformTools: z.optional(nameSet),
      integrationMeta: described(z.optional(freeObject), 'Required for integrationType agent, with baseUrl.'),
      metaData: described(z.optional(freeObject), 'Free-form metadata.'),
      environments: resourceEnvironments,
    })
    .check(
      z.superRefine(
        (agent, ctx) => {
          if (agent.integrationType !== 'agent') return;
          const meta: unknown = agent.integrationMeta;
          const baseUrl = isObject(meta) ? meta.baseUrl : undefined;
          if (agent.integrationMeta === undefined) {
            ctx.addIssue({ code: 'custom', path: ['integrationMeta'], message: 'integrationMeta with baseUrl is required when integrationType is agent' });
          } else if (typeof baseUrl !== 'string') {
            ctx.addIssue({ code: 'custom', path: ['integrationMeta', 'baseUrl'], message: 'integrationMeta.baseUrl (an http(s) URL) is required when integrationType is agent' });
          } else if (!httpUrl.safeParse(baseUrl).success) {
            ctx.addIssue({ code: 'custom', path: ['integrationMeta', 'baseUrl'], message: 'integrationMeta.baseUrl must be an http(s) URL' });
          }
        },
        { when: isObjectPayload },
      ),
    ),
  'An AI agent. The map key is its address in this manifest and is never sent.',
);

export type ManifestAgent = z.output<typeof agentSchema>;

/** What POST/PATCH `/ai-agents/agents` sends. Set-like arrays are sorted and de-duplicated. */
export type AgentSpec = Omit<ManifestAgent, 'environments'>;

export const agentManifest: KindEntry<ManifestAgent, AgentSpec, readonly ['agents']> = {
  section: ['agents'],
  keyPattern: ADDRESS_KEY_PATTERN,
  keySchema: addressKey,
  schema: agentSchema,
  build: (spec) => spec,
  // integrationMeta.headers usually carries credentials even when written inline.
  alwaysSensitive: (spec) => (spec.integrationMeta?.headers === undefined ? [] : [['integrationMeta', 'headers']]),
};
