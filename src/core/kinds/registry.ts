// The kinds, listed once. Everything that walks the kinds (the manifest's sections, the sections
// that may hold secrets, the set-like lists `fmt` sorts, the address wording, the graph, the
// refresh, lint's sections and references) derives from MODULES here. `satisfies` over a mapped type makes a kind of RESOURCE_TYPES
// missing here (or one here that is not there) a compile error.
import type { DesiredResource } from '../desired.js';
import { agentModule } from './agent/module.js';
import { fileModule } from './file/module.js';
import { factsOf } from './fields.js';
import { parseAddress, RESOURCE_TYPES, type Kind, type ResourceType } from './kind.js';
import type { KindModule, SpecOf } from './module.js';
import { textModule } from './text/module.js';
import { toolModule } from './tool/module.js';
import { websiteModule } from './website/module.js';
import { builderAgentModule } from './builder-agent/module.js';

const MODULES = {
  tool: toolModule,
  agent: agentModule,
  website: websiteModule,
  text: textModule,
  file: fileModule,
  builderAgent: builderAgentModule,
} satisfies { readonly [T in ResourceType]: KindModule<SpecOf<T>> };

/** A type's module, with its spec type erased: for code that handles every kind alike. */
export function moduleOf(type: ResourceType): KindModule<object> {
  return MODULES[type] as unknown as KindModule<object>;
}

export const KINDS = Object.fromEntries(RESOURCE_TYPES.map((type) => [type, MODULES[type].kind])) as { readonly [T in ResourceType]: (typeof MODULES)[T]['kind'] };

/** Where each kind's map sits in a manifest, from the kinds themselves. */
export const MANIFEST_SECTIONS = Object.fromEntries(RESOURCE_TYPES.map((type) => [type, KINDS[type].section])) as Record<ResourceType, readonly string[]>;

/** The manifest's top-level keys that hold resources, where `${secret:…}` may stand (`tools`, `knowledgeBase`). */
export const RESOURCE_ROOTS: ReadonlySet<string> = new Set(RESOURCE_TYPES.map((type) => KINDS[type].section[0] ?? ''));

/**
 * The set-like lists of every kind's entries (`*` is any key), from the field tables' `set: true`:
 * `['agents', '*', 'tools']`.
 */
export const KIND_SET_PATHS: readonly (readonly string[])[] = RESOURCE_TYPES.flatMap((type) =>
  factsOf(KINDS[type].fields).flatMap(([field, fact]) => (fact.set === true ? [[...KINDS[type].section, '*', field]] : [])),
);

/** The fields whose items name another kind's entries, from the field tables' `refersTo`: an agent's `tools` and `actions`. */
export const REFERRING_FIELDS: readonly { type: ResourceType; field: string; refersTo: ResourceType }[] = RESOURCE_TYPES.flatMap((type) =>
  factsOf(KINDS[type].fields).flatMap(([field, fact]) => (fact.refersTo === undefined ? [] : [{ type, field, refersTo: fact.refersTo }])),
);

/** `tool.<name>, agent.<key> or website.<key>`: how addresses look, for help and errors. */
export const ADDRESS_FORMS = RESOURCE_TYPES.map((type) => MODULES[type].addressForm)
  .join(', ')
  .replace(/, ([^,]*)$/, ' or $1');

export function kindOf(type: ResourceType): Kind<object> {
  return KINDS[type] as unknown as Kind<object>;
}

/** The kind that handles a desired resource, typed to that resource's spec. */
export function kindFor<R extends DesiredResource>(resource: R): Kind<R['spec']> {
  return KINDS[resource.type] as unknown as Kind<R['spec']>;
}

/** Position of a type in apply order (tools, agents, websites). */
export const TYPE_RANK = Object.fromEntries(RESOURCE_TYPES.map((type, rank) => [type, rank])) as Record<ResourceType, number>;

/**
 * Why a manifest could never have this address, or undefined when it could: a known type and a
 * key its section's rule allows. A new address (`state mv`'s target) must pass, or no manifest key
 * would ever match it.
 */
export function addressProblem(address: string): string | undefined {
  const parsed = parseAddress(address);
  if (parsed === undefined) return `addresses look like ${ADDRESS_FORMS}`;
  const { keyPattern } = kindOf(parsed.type);
  return keyPattern.test(parsed.key) ? undefined : `a ${parsed.type} key must match ${keyPattern.source}`;
}
