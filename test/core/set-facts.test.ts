// Set-ness is written once, in the field tables (`set: true`): build-desired sorts those lists from
// there, and the schema's `nameSet` must agree with it. Each list a manifest entry may hold is
// written out of order with a repeat: in the desired spec it comes out sorted and without the
// repeat exactly when its table calls it a set.
import { describe, expect, it } from 'vitest';
import { factsOf } from '../../src/core/kinds/fields.js';
import { kindOf, MANIFEST_SECTIONS, RESOURCE_TYPES, type ResourceType } from '../../src/core/kinds/index.js';
import { parseManifest } from '../../src/core/parse.js';
import { resolveManifest } from '../../src/core/resolve.js';

/** A valid entry of each kind: a kind missing here does not compile. */
const ENTRY: { readonly [T in ResourceType]: Record<string, unknown> } = {
  tool: { displayName: 'Lookup', executionText: 'Looking up', doNotExecute: true },
  agent: { name: 'Support', integrationType: 'llm', integrateWith: 'gpt-4o' },
  website: { url: 'https://docs.example/' },
  text: { title: 'Refunds', text: 'Refunds take 5 days.' },
  file: { file: 'handbook.pdf' },
  builderAgent: { name: 'Concierge' },
};

/**
 * Lists out of order, with a repeat, of the things lists hold: tools of the manifest that are not
 * executed (`a`, `b`), tools that are (`c`, `d`: actions), and URL globs. A field is tried with each
 * until one makes a valid manifest.
 */
const LISTS: readonly (readonly string[])[] = [
  ['b', 'a', 'b'],
  ['d', 'c', 'd'],
  ['https://docs.example/b/**', 'https://docs.example/a/**', 'https://docs.example/b/**'],
  // Addresses of the manifest's websites (a builder agent's knowledge).
  ['website.site_b', 'website.site_a', 'website.site_b'],
];
const executed = { displayName: 'Run', executionText: 'Running', description: 'Runs it', parameters: {} };

/** The desired spec of `one_<type>` and the list its `field` holds, for the first of LISTS that makes a valid manifest. */
function listIn(type: ResourceType, field: string): { written: readonly string[]; spec: Record<string, unknown> } | undefined {
  for (const written of LISTS) {
    const spec = specWith(type, field, written);
    if (spec !== undefined) return { written, spec };
  }
  return undefined;
}

function specWith(type: ResourceType, field: string, written: readonly string[]): Record<string, unknown> | undefined {
  const tree: Record<string, unknown> = {
    version: 1,
    environments: { prod: { appId: 'acme', region: 'eu' } },
    tools: { a: ENTRY.tool, b: ENTRY.tool, c: executed, d: executed },
    knowledgeBase: { websites: { site_a: ENTRY.website, site_b: ENTRY.website } },
  };
  let at = tree;
  for (const segment of MANIFEST_SECTIONS[type]) at = (at[segment] ??= {}) as Record<string, unknown>;
  at[`one_${type}`] = { ...ENTRY[type], [field]: written };
  const resolved = resolveManifest(parseManifest('manifest.yaml', JSON.stringify(tree, null, 1)), { env: { COMETCHAT_API_KEY: 'key' }, mode: 'plan' });
  const resource = resolved.desired?.resources.find((r) => r.type === type && r.key === `one_${type}`);
  return resource?.spec as Record<string, unknown> | undefined;
}

describe('set-ness comes from the field tables', () => {
  for (const type of RESOURCE_TYPES) {
    it(`${type}: a list is sorted and de-duplicated in the desired spec exactly when its table says set`, () => {
      const lists: string[] = [];
      for (const [field, fact] of factsOf(kindOf(type).fields)) {
        const list = listIn(type, field);
        if (list === undefined) continue;
        lists.push(field);
        expect(list.spec[field], `${type}.${field}`).toEqual(fact.set === true ? [...new Set(list.written)].sort() : list.written);
      }
      // Every set field took part: none was skipped as invalid.
      const sets = factsOf(kindOf(type).fields).flatMap(([field, fact]) => (fact.set === true ? [field] : []));
      expect(lists).toEqual(expect.arrayContaining(sets));
    });
  }

  it("the probe reaches an ordered list too (an agent's suggestions keep their order)", () => {
    expect(listIn('agent', 'suggestions')?.spec.suggestions).toEqual(['b', 'a', 'b']);
  });
});
