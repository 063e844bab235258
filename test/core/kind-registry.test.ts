// The lists that walk every kind are derived from core/kinds/registry.ts: these are the values the
// code wrote out by hand before (issue 41), so a derivation that drops or adds an entry fails here.
import { describe, expect, it } from 'vitest';
import { ADDRESS_FORMS, KIND_SET_PATHS, MANIFEST_SECTIONS, moduleOf, REFERRING_FIELDS, RESOURCE_ROOTS, RESOURCE_TYPES, type ResourceType } from '../../src/core/kinds/index.js';
import type { KindModule, SpecOf } from '../../src/core/kinds/module.js';
import { agentModule } from '../../src/core/kinds/agent/module.js';
import { toolModule } from '../../src/core/kinds/tool/module.js';

describe('the kind registry', () => {
  it('derives the address wording, the secret sections and the manifest sections from the kinds', () => {
    expect(ADDRESS_FORMS).toBe('tool.<name>, agent.<key>, website.<key>, text.<key>, file.<key> or builderAgent.<key>');
    expect([...RESOURCE_ROOTS].sort()).toEqual(['agents', 'builderAgents', 'knowledgeBase', 'tools']);
    expect(MANIFEST_SECTIONS).toEqual({
      tool: ['tools'],
      agent: ['agents'],
      website: ['knowledgeBase', 'websites'],
      text: ['knowledgeBase', 'texts'],
      file: ['knowledgeBase', 'files'],
      builderAgent: ['builderAgents'],
    });
  });

  it('derives the set-like lists fmt sorts from the field tables', () => {
    expect(KIND_SET_PATHS.map((path) => path.join('.')).sort()).toEqual([
      'agents.*.actions',
      'agents.*.platformTools',
      'agents.*.tools',
      'builderAgents.*.apiTools',
      'builderAgents.*.knowledge',
      'builderAgents.*.mcpServers',
      'builderAgents.*.tools',
      'knowledgeBase.websites.*.exclude',
    ]);
  });

  it("derives the fields that name another kind's entries (lint's uses of a tool) from the field tables", () => {
    expect(REFERRING_FIELDS).toEqual([
      { type: 'agent', field: 'tools', refersTo: 'tool' },
      { type: 'agent', field: 'actions', refersTo: 'tool' },
    ]);
  });

  it('only websites are read resource by resource; each kind draws its own graph node', () => {
    expect(RESOURCE_TYPES.filter((type) => moduleOf(type).observe !== undefined)).toEqual(['website']);
    expect(moduleOf('tool').graphNode({ doNotExecute: true })).toEqual({ kind: 'tool' });
    expect(moduleOf('tool').graphNode({})).toEqual({ kind: 'action' });
    expect(moduleOf('agent').graphNode({ name: 'Support' })).toEqual({ kind: 'agent', detail: 'Support' });
    expect(moduleOf('website').graphNode({})).toEqual({ kind: 'website' });
  });

  it('a registry that forgets a kind does not compile', () => {
    // @ts-expect-error website is missing: the mapped type over ResourceType requires every kind.
    const incomplete: { readonly [T in ResourceType]: KindModule<SpecOf<T>> } = { tool: toolModule, agent: agentModule };
    expect(Object.keys(incomplete)).toHaveLength(2);
  });
});
