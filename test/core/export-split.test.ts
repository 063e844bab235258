// splitExport: an exported document cut into the files of a manifest folder; merging them gives the
// document back, each tool lives with the one agent that uses it, and file names are safe.
import { describe, expect, it } from 'vitest';
import type { JsonObject } from '../../src/core/api-types.js';
import { splitExport } from '../../src/core/export-split.js';
import { addressOf, kindOf, RESOURCE_TYPES } from '../../src/core/kinds/index.js';
import { mergeParts } from '../../src/core/merge-parts.js';
import { parseManifestPart } from '../../src/core/parse.js';
import { renderManifestYaml } from '../../src/render/manifest-yaml.js';

const tool = (name: string): JsonObject => ({ displayName: name, executionText: 'x', doNotExecute: true });
const agent = (name: string, actions: string[], tools: string[] = []): JsonObject => ({ name, integrationType: 'llm', integrateWith: 'gpt-4o', actions, tools });

const DOCUMENT: JsonObject = {
  version: 1,
  environments: { local: { appId: 'local', region: 'us' } },
  tools: { mine: tool('mine'), shared: tool('shared'), unused: tool('unused'), also_mine: tool('also_mine') },
  agents: { Support: agent('Support', ['mine', 'shared'], ['also_mine']), support: agent('support 2', ['shared']), '../odd key': agent('Odd', []) },
  knowledgeBase: { websites: { docs: { url: 'https://docs.example/' } } },
  external: { tools: ['search_web'] },
};

describe('splitExport', () => {
  it('puts environments, each agent with its own tools, shared tools and websites in their own files', () => {
    const parts = splitExport(DOCUMENT);
    expect(parts.map((p) => p.path)).toEqual(['environments.yaml', 'agents/Support.yaml', 'agents/support-2.yaml', 'agents/_._odd_key.yaml', 'tools.yaml', 'websites.yaml']);
    expect(Object.keys((parts[1]?.document.tools ?? {}) as object)).toEqual(['mine', 'also_mine']);
    expect(parts[2]?.document.tools).toBeUndefined();
    expect(parts[4]?.document).toEqual({ tools: { shared: tool('shared'), unused: tool('unused') }, external: { tools: ['search_web'] } });
    expect([...(parts[1]?.addresses ?? [])]).toEqual(['agent.Support', 'tool.mine', 'tool.also_mine']);
  });

  it('never names a file that starts with a dot or differs from another only in case', () => {
    const names = splitExport(DOCUMENT).map((p) => p.path.split('/').at(-1) ?? '');
    expect(names.filter((n) => n.startsWith('.'))).toEqual([]);
    expect(new Set(names.map((n) => n.toLowerCase())).size).toBe(names.length);
  });

  it('merges back into the document it came from', () => {
    const parts = splitExport(DOCUMENT).map((p) => parseManifestPart(p.path, renderManifestYaml(p.document)));
    const merged = mergeParts('folder', parts);
    expect(merged.diagnostics).toEqual([]);
    expect(merged.value).toEqual({ ...DOCUMENT, tools: expect.objectContaining(DOCUMENT.tools as object) });
    expect(Object.keys(merged.value?.tools as object).sort()).toEqual(Object.keys(DOCUMENT.tools as object).sort());
  });
});

describe('splitExport file names', () => {
  it('never a name Windows reserves for a device (con, aux, com1…), whatever its case or what follows a dot', () => {
    const keys = ['con', 'AUX', 'com1', 'Lpt9.x', 'nul', 'prn', 'console', 'com10', 'conx'];
    const document: JsonObject = { version: 1, agents: Object.fromEntries(keys.map((key) => [key, agent(key, [])])) };
    expect(splitExport(document).map((p) => p.path)).toEqual([
      'environments.yaml',
      'agents/con_.yaml',
      'agents/AUX_.yaml',
      'agents/com1_.yaml',
      'agents/Lpt9_.x.yaml',
      'agents/nul_.yaml',
      'agents/prn_.yaml',
      'agents/console.yaml',
      'agents/com10.yaml',
      'agents/conx.yaml',
    ]);
  });
});

describe('splitExport placement comes from the kind registry', () => {
  it('puts one entry of every registered kind in exactly one part, so no kind drops out of a split export', () => {
    const document: JsonObject = { version: 1 };
    for (const type of RESOURCE_TYPES) {
      let at = document;
      for (const segment of kindOf(type).section) at = (at[segment] ??= {}) as JsonObject;
      at[`one_${type}`] = {};
    }
    const placed = splitExport(document).flatMap((part) => [...part.addresses]);
    expect(placed.sort()).toEqual(RESOURCE_TYPES.map((type) => addressOf(type, `one_${type}`)).sort());
  });
});
