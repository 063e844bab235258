// The markdown plan's picture: a collapsed Mermaid graph of the changed resources and the tools
// their agents name. GitHub renders a ```mermaid block in comments and job summaries.
import { planGraph } from '../core/graph.js';
import type { Plan } from '../core/plan.js';
import { renderGraphMermaid } from './graph.js';

/** Past this many nodes a picture stops helping (and Mermaid's layout slows down): leave it out. */
export const MAX_GRAPH_NODES = 60;

/** The `<details>` block, or [] when nothing changes or the graph is too large to read. */
export function changedGraphMarkdown(plan: Plan): string[] {
  if (!plan.changes.some((c) => c.action !== 'no-op')) return [];
  const graph = planGraph(plan);
  if (graph.nodes.length > MAX_GRAPH_NODES) return [];
  return ['<details><summary>Graph of the changed resources</summary>', '', '```mermaid', renderGraphMermaid(graph).trimEnd(), '```', '', '</details>', ''];
}
