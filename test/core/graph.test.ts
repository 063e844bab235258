// The resource graph, from a manifest and from a plan, and its Mermaid and DOT renderings.
import { describe, expect, it } from 'vitest';
import { manifestGraph, planGraph } from '../../src/core/graph.js';
import { parseManifest } from '../../src/core/parse.js';
import { resolveManifest } from '../../src/core/resolve.js';
import { renderGraphDot, renderGraphMermaid } from '../../src/render/graph.js';
import { changedGraphMarkdown, MAX_GRAPH_NODES } from '../../src/render/plan-graph.js';
import { noChangePlan, samplePlan } from '../render/plan-fixtures.js';

const MANIFEST = `version: 1
environments:
  prod: { appId: acme, region: eu }
tools:
  lookup_order: { displayName: L, executionText: l, description: Finds an order by number, parameters: {} }
  show_card: { displayName: S, executionText: s, doNotExecute: true }
agents:
  support: { name: 'Support "24/7" <b>', integrationType: llm, integrateWith: m, tools: [show_card], actions: [lookup_order, search_web] }
  idle: { name: Idle, integrationType: llm, integrateWith: m }
knowledgeBase:
  websites:
    docs: { parentUniqueId: web_1, exclude: [] }
external:
  tools: [search_web]
`;

function desired() {
  const resolution = resolveManifest(parseManifest('agents.yaml', MANIFEST), { env: {}, mode: 'validate' });
  if (!resolution.desired) throw new Error(JSON.stringify(resolution.diagnostics));
  return resolution.desired;
}

describe('manifestGraph', () => {
  it('has every resource, each agent → its tools and actions, and external names as their own nodes', () => {
    const graph = manifestGraph(desired());
    expect(graph.nodes.map((n) => `${n.kind} ${n.id}`)).toEqual([
      'action tool.lookup_order',
      'tool tool.show_card',
      'agent agent.idle',
      'agent agent.support',
      'website website.docs',
      'external search_web',
    ]);
    expect(graph.edges).toEqual([
      { from: 'agent.support', to: 'tool.show_card', via: 'tools' },
      { from: 'agent.support', to: 'tool.lookup_order', via: 'actions' },
      { from: 'agent.support', to: 'search_web', via: 'actions' },
    ]);
  });

  it('renders Mermaid with every label escaped', () => {
    expect(renderGraphMermaid(manifestGraph(desired()))).toBe(
      [
        'flowchart LR',
        '  n0[["tool.lookup_order"]]',
        '  n1(["tool.show_card"])',
        '  n2["agent.idle<br/>Idle"]',
        '  n3["agent.support<br/>Support #34;24/7#34; #60;b#62;"]',
        '  n4[/"website.docs"/]',
        '  n5{{"search_web<br/>(external)"}}',
        '  n3 -->|tool| n1',
        '  n3 -->|action| n0',
        '  n3 -->|action| n5',
        '',
      ].join('\n'),
    );
  });

  it('renders DOT with quotes escaped', () => {
    const dot = renderGraphDot(manifestGraph(desired()));
    expect(dot.startsWith('digraph agentsync {\n  rankdir=LR;\n')).toBe(true);
    expect(dot).toContain('  "agent.support" [label="agent.support\\nSupport \\"24/7\\" <b>", shape=box];');
    expect(dot).toContain('  "agent.support" -> "search_web" [label="action"];');
    expect(dot).toContain('  "search_web" [label="search_web\\n(external)", shape=hexagon, style=dashed];');
    expect(dot.endsWith('}\n')).toBe(true);
  });
});

describe('planGraph and the markdown plan', () => {
  it('shows the changed resources with their action, and unchanged tools they name for context', () => {
    const graph = planGraph(samplePlan());
    expect(graph.nodes.filter((n) => n.action !== undefined).map((n) => `${n.action} ${n.id}`)).toEqual([
      'update tool.get_weather',
      'create tool.new_tool',
      'create agent.ghost',
      'update agent.support',
      'forget website.old',
    ]);
    expect(graph.nodes.some((n) => n.id === 'website.docs')).toBe(false);
  });

  it('is collapsed in <details> as a mermaid block; absent without changes or past the node limit', () => {
    const block = changedGraphMarkdown(samplePlan());
    expect(block.slice(0, 3)).toEqual(['<details><summary>Graph of the changed resources</summary>', '', '```mermaid']);
    expect(block.slice(-3)).toEqual(['', '</details>', '']);
    expect(changedGraphMarkdown(noChangePlan())).toEqual([]);
    const big = samplePlan();
    const template = big.changes.find((c) => c.action === 'create');
    if (!template) throw new Error('fixture has a create');
    big.changes = Array.from({ length: MAX_GRAPH_NODES + 1 }, (_, i) => ({ ...template, address: `tool.t${i}`, key: `t${i}` }));
    expect(changedGraphMarkdown(big)).toEqual([]);
  });
});
