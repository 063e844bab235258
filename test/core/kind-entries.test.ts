// The manifest's sections and the desired resources are built from the kinds' entries
// (core/kinds/entries.ts): a kind's schema reaches validation, `agentsync schema` and the builder
// without a line anywhere else, and a forgotten entry does not compile.
import { describe, expect, it } from 'vitest';
import { ENTRIES, entryOf } from '../../src/core/kinds/entries.js';
import type { AnyKindEntry } from '../../src/core/kinds/entry.js';
import { MANIFEST_SECTIONS, RESOURCE_TYPES, type ResourceType } from '../../src/core/kinds/index.js';
import { manifestJsonSchema } from '../../src/core/json-schema.js';
import { manifestSchema } from '../../src/core/schema.js';
import { agentManifest } from '../../src/core/kinds/agent/manifest.js';
import { toolManifest } from '../../src/core/kinds/tool/manifest.js';

describe('the kinds’ manifest entries', () => {
  it('each kind’s entry says the same section and key rule as its Kind', () => {
    for (const type of RESOURCE_TYPES) expect(entryOf(type).section).toEqual(MANIFEST_SECTIONS[type]);
  });

  it("the manifest schema has a map for every kind's section, and refuses an entry its kind's schema refuses", () => {
    const manifest = { version: 1, environments: { local: { appId: 'local', region: 'us' } } };
    for (const type of RESOURCE_TYPES) {
      const section = entryOf(type).section;
      const nested = section.reduceRight<unknown>((inner, segment) => ({ [segment]: inner }), { 'x-1': { notAField: true } });
      const result = manifestSchema.safeParse({ ...manifest, ...(nested as object) });
      expect(result.success, type).toBe(false);
      const paths = result.success ? [] : result.error.issues.map((issue) => issue.path.join('.'));
      expect(
        paths.some((path) => path.startsWith([...section, 'x-1'].join('.'))),
        `${type}: ${paths.join(', ')}`,
      ).toBe(true);
    }
  });

  it('agentsync schema describes every section, in the kinds’ order', () => {
    const properties = Object.keys((manifestJsonSchema() as { properties: Record<string, unknown> }).properties);
    const roots = [...new Set(RESOURCE_TYPES.map((type) => entryOf(type).section[0]))];
    expect(properties.filter((key) => roots.includes(key))).toEqual(roots);
  });

  it('an entries table that forgets a kind does not compile', () => {
    // @ts-expect-error website is missing: the mapped type over ResourceType requires every kind.
    const incomplete: { readonly [T in ResourceType]: AnyKindEntry } = { tool: toolManifest, agent: agentManifest };
    expect(Object.keys(incomplete)).toHaveLength(2);
    expect(Object.keys(ENTRIES)).toEqual([...RESOURCE_TYPES]);
  });
});
