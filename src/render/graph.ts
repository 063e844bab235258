// The resource graph (core/graph.ts) as Mermaid, which GitHub renders in markdown, or as Graphviz
// DOT. Every label is escaped for its language: names come from the manifest and, in a pull-request
// comment, from whoever wrote the change.
import type { Graph, GraphNode } from '../core/graph.js';

const MERMAID_SHAPE: Record<GraphNode['kind'], [string, string]> = {
  agent: ['[', ']'],
  tool: ['([', '])'],
  action: ['[[', ']]'],
  website: ['[/', '/]'],
  text: ['>', ']'],
  external: ['{{', '}}'],
};

const ACTION_STYLE = {
  create: 'fill:#e6ffec,stroke:#1a7f37',
  update: 'fill:#fff8c5,stroke:#9a6700',
  delete: 'fill:#ffebe9,stroke:#cf222e',
  forget: 'fill:#f6f8fa,stroke:#cf222e,stroke-dasharray:4',
} as const;

const ACTION_SIGN = { create: '+', update: '~', delete: '-', forget: '-' } as const;

export function renderGraphMermaid(graph: Graph): string {
  const id = idsOf(graph);
  const lines = ['flowchart LR'];
  for (const node of graph.nodes) {
    const [open, close] = MERMAID_SHAPE[node.kind];
    const text = [node.action ? `${ACTION_SIGN[node.action]} ${node.id}` : node.id, node.detail, node.kind === 'external' ? '(external)' : undefined].filter((s) => s !== undefined);
    lines.push(`  ${id(node.id)}${open}"${text.map(mermaidText).join('<br/>')}"${close}`);
  }
  for (const edge of graph.edges) lines.push(`  ${id(edge.from)} -->|${edge.via === 'tools' ? 'tool' : 'action'}| ${id(edge.to)}`);
  const used = new Set(graph.nodes.flatMap((n) => (n.action ? [n.action] : [])));
  for (const action of Object.keys(ACTION_STYLE) as (keyof typeof ACTION_STYLE)[]) {
    if (!used.has(action)) continue;
    lines.push(`  classDef ${action} ${ACTION_STYLE[action]}`);
    lines.push(
      `  class ${graph.nodes
        .filter((n) => n.action === action)
        .map((n) => id(n.id))
        .join(',')} ${action}`,
    );
  }
  return lines.join('\n') + '\n';
}

const DOT_SHAPE: Record<GraphNode['kind'], string> = { agent: 'box', tool: 'ellipse', action: 'component', website: 'parallelogram', text: 'note', external: 'hexagon' };
const DOT_COLOR = { create: 'darkgreen', update: 'darkgoldenrod', delete: 'red', forget: 'red' } as const;

export function renderGraphDot(graph: Graph): string {
  const lines = ['digraph agentsync {', '  rankdir=LR;', '  node [fontname="Helvetica"];'];
  for (const node of graph.nodes) {
    const label = [node.id, node.detail, node.kind === 'external' ? '(external)' : undefined]
      .filter((s) => s !== undefined)
      .map(dotText)
      .join('\\n');
    const color = node.action ? `, color=${DOT_COLOR[node.action]}` : '';
    const style = node.kind === 'external' ? ', style=dashed' : '';
    lines.push(`  "${dotText(node.id)}" [label="${label}", shape=${DOT_SHAPE[node.kind]}${color}${style}];`);
  }
  for (const edge of graph.edges) lines.push(`  "${dotText(edge.from)}" -> "${dotText(edge.to)}" [label="${edge.via === 'tools' ? 'tool' : 'action'}"];`);
  lines.push('}');
  return lines.join('\n') + '\n';
}

/** Mermaid ids must be plain words; addresses are not, so nodes are numbered in order. */
function idsOf(graph: Graph): (address: string) => string {
  const ids = new Map(graph.nodes.map((n, i) => [n.id, `n${i}`]));
  return (address) => ids.get(address) ?? 'n_unknown';
}

/** Inside a quoted Mermaid label, anything but plain characters becomes an entity code (`#35;`). */
function mermaidText(text: string): string {
  return [...text].map((ch) => (/[A-Za-z0-9 _.,:/()+~-]/.test(ch) ? ch : `#${ch.codePointAt(0) ?? 32};`)).join('');
}

function dotText(text: string): string {
  // eslint-disable-next-line no-control-regex -- control characters (C1 too) have no place in a label
  return text.replace(/[\\"]/g, (ch) => `\\${ch}`).replace(/[\u0000-\u001f\u007f-\u009f]/g, ' ');
}
