// The registry of resource kinds. `Record<ResourceType, …>` makes a kind missing here a compile
// error, so RESOURCE_TYPES in kind.ts is the one list to extend.
import type { DesiredResource } from '../desired.js';
import { agentKind } from './agent/index.js';
import { parseAddress, RESOURCE_TYPES, type Kind, type ResourceType } from './kind.js';
import { toolKind } from './tool/index.js';
import { websiteKind } from './website/index.js';

export * from './kind.js';

type KindOf = { tool: typeof toolKind; agent: typeof agentKind; website: typeof websiteKind };

export const KINDS: { [T in ResourceType]: KindOf[T] } = { tool: toolKind, agent: agentKind, website: websiteKind };

/** The kind of a type, with its spec type erased: for code that handles every kind alike. */
/** Where each kind's map sits in a manifest, from the kinds themselves. */
export const MANIFEST_SECTIONS = Object.fromEntries(RESOURCE_TYPES.map((type) => [type, KINDS[type].section])) as Record<ResourceType, readonly string[]>;

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
  if (parsed === undefined) return 'addresses look like tool.<name>, agent.<key> or website.<key>';
  const { keyPattern } = kindOf(parsed.type);
  return keyPattern.test(parsed.key) ? undefined : `a ${parsed.type} key must match ${keyPattern.source}`;
}
