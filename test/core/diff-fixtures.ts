// Builders shared by the diff, redaction and render tests. Desired objects come from the real
// manifest schema (so defaults and set sorting are the real ones), not from the resolver.
import { createHmac } from 'node:crypto';
import type { JsonObject } from '../../src/core/api-types.js';
import type { Desired, DesiredResource, ResourceType, SensitivePath } from '../../src/core/desired.js';
import { emptyDefaultsLeftOut } from '../../src/core/kinds/fields.js';
import { kindOf } from '../../src/core/kinds/index.js';
import { redactSpec } from '../../src/core/redact.js';
import { manifestSchema, type ManifestInput } from '../../src/core/schema.js';
import { emptyState, foldEntry, type State } from '../../src/core/state.js';
import { DIGEST_PREFIX } from '../../src/io/state/digest.js';

export const SALT = Buffer.from('agentsync-test-salt-0123456789').toString('base64');
/**
 * A fast keyed digest in the production format. The diff needs only a deterministic keyed digest;
 * the real one (scrypt, io/state/digest.ts) costs ~100 ms by design, too slow for property tests
 * that digest thousands of random values. Its cost and caching are tested in test/torture.
 */
export const digest = (canonical: string): string => DIGEST_PREFIX + createHmac('sha256', Buffer.from(SALT, 'base64')).update(canonical).digest('hex');
export const APPLIED_AT = '2025-01-01T00:00:00.000Z';

type ManifestBody = Omit<ManifestInput, 'version' | 'environments'>;

/** Sensitive paths per address, relative to the resource's spec. */
export type SensitiveMap = Record<string, SensitivePath[]>;

export function desiredOf(body: ManifestBody, sensitive: SensitiveMap = {}): Desired {
  const manifest = manifestSchema.parse({ version: 1, environments: { local: { appId: 'local', region: 'us' } }, ...body });
  const resources: DesiredResource[] = [];
  // As the resolver does: the empty defaults each entry leaves out, from the entry as written.
  const defaulted = (type: ResourceType, written: object | undefined): { defaulted?: string[] } => {
    const fields = emptyDefaultsLeftOut(kindOf(type).fields, (written ?? {}) as Record<string, unknown>);
    return fields.length > 0 ? { defaulted: fields } : {};
  };
  for (const [name, tool] of Object.entries(manifest.tools)) {
    const spec = { name, displayName: tool.displayName, executionText: tool.executionText, description: tool.description ?? '', doNotExecute: tool.doNotExecute, parameters: tool.parameters ?? {} };
    resources.push({ type: 'tool', key: name, address: `tool.${name}`, spec, sensitive: sensitive[`tool.${name}`] ?? [], ...defaulted('tool', body.tools?.[name] as object | undefined) });
  }
  for (const [key, spec] of Object.entries(manifest.agents)) {
    resources.push({ type: 'agent', key, address: `agent.${key}`, spec, sensitive: sensitive[`agent.${key}`] ?? [], ...defaulted('agent', body.agents?.[key] as object | undefined) });
  }
  for (const [key, spec] of Object.entries(manifest.knowledgeBase?.websites ?? {})) {
    resources.push({
      type: 'website',
      key,
      address: `website.${key}`,
      spec,
      sensitive: sensitive[`website.${key}`] ?? [],
      ...defaulted('website', body.knowledgeBase?.websites?.[key] as object | undefined),
    });
  }
  return {
    environment: { name: 'local', appId: 'local', region: 'us', baseUrl: 'http://127.0.0.1:4010/v3', apiKeyEnv: 'COMETCHAT_API_KEY' },
    resources,
    externalTools: manifest.external?.tools ?? [],
  };
}

export function newState(): State {
  return emptyState({ environment: 'local', appId: 'local', region: 'us', lineage: '00000000-0000-4000-8000-000000000000', salt: SALT });
}

export function remoteIdFor(resource: { type: string; key: string }): string {
  return `${resource.type}-${resource.key}-id`;
}

/** The state a successful apply of `desired` leaves: every redacted spec recorded via the journal fold. */
export function stateOf(desired: Desired): State {
  const state = newState();
  for (const resource of desired.resources) {
    foldEntry(state, {
      op: 'applied',
      address: resource.address,
      type: resource.type,
      remoteId: remoteIdFor(resource),
      spec: redactSpec(resource, digest),
      appliedAt: APPLIED_AT,
    });
  }
  return state;
}

/** Edits one recorded spec in place (simulates what an older apply stored). */
export function editRecorded(state: State, address: string, edit: (spec: JsonObject) => void): State {
  const entry = state.resources[address];
  if (entry === undefined) throw new Error(`no ${address} in state`);
  edit(entry.spec);
  return state;
}

export const weatherTool = {
  displayName: 'Get weather',
  executionText: 'Checking the weather',
  description: 'Current weather for a city',
  parameters: {
    type: 'object' as const,
    properties: { city: { type: 'string', description: 'City name' }, unit: { type: 'string', description: 'Unit', enum: ['c', 'f'] } },
    required: ['city', 'unit'],
  },
};

export const supportAgent = {
  name: 'Support assistant',
  integrationType: 'llm' as const,
  integrateWith: 'gpt-4o',
  tools: ['get_weather', 'search_web'],
  actions: ['get_weather'],
  instruction: 'You help customers.\nBe brief.\nNever guess.',
  suggestions: ['Where is my order?', 'Refund'],
  platformTools: ['web', 'calc'],
  metaData: { team: 'care', 'a.b': 1 },
};

export const baseBody: ManifestBody = {
  tools: { get_weather: weatherTool },
  agents: { support: supportAgent },
  knowledgeBase: { websites: { docs: { parentUniqueId: 'web_123', exclude: ['url_9', 'url_7'] } } },
  external: { tools: ['search_web'] },
};
