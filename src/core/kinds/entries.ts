// The kinds' manifest entries, listed once (beside ./registry.ts, which lists their calls): the
// manifest schema's sections (core/schema.ts) and the desired resources (core/build-desired.ts)
// are built from this table. `satisfies` over a mapped type makes a kind of RESOURCE_TYPES missing
// here (or one here that is not there) a compile error.
import { agentManifest } from './agent/manifest.js';
import type { AnyKindEntry, EntrySpec, KindEntry } from './entry.js';
import type { ResourceType } from './resource-types.js';
import { fileManifest } from './file/manifest.js';
import { textManifest } from './text/manifest.js';
import { toolManifest } from './tool/manifest.js';
import { websiteManifest } from './website/manifest.js';
import { builderAgentManifest } from './builder-agent/manifest.js';

export const ENTRIES = {
  tool: toolManifest,
  agent: agentManifest,
  website: websiteManifest,
  text: textManifest,
  file: fileManifest,
  builderAgent: builderAgentManifest,
} satisfies { readonly [T in ResourceType]: AnyKindEntry };

/** Each kind's spec: what its entry builds, what the diff compares and the API receives. */
export type KindSpecs = { [T in ResourceType]: EntrySpec<(typeof ENTRIES)[T]> };

/** A kind's entry with its types erased, for code that handles every kind alike. */
export function entryOf(type: ResourceType): KindEntry<object, object> {
  return ENTRIES[type] as unknown as KindEntry<object, object>;
}
