// The names of the kinds, on their own so that the field tables (./fields.ts) can name a kind
// without importing the Kind contract (./kind.ts), which imports them.

/** Every kind agentsync manages, in apply order. The one list every other list derives from. */
export const RESOURCE_TYPES = ['tool', 'agent', 'website', 'text', 'file', 'builderAgent'] as const;
export type ResourceType = (typeof RESOURCE_TYPES)[number];
