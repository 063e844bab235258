// The manifest's resources and their references as a graph (docs/spec/commands.md#graph): agents point at the
// tools and actions they list. Built from Desired for `agentsync graph`, and from a plan's records
// for the markdown plan's graph of what changes. Pure data; render/graph.ts draws it.
import { SENSITIVE_PLACEHOLDER, type Action, type Change, type Plan } from './plan.js';
import { isSensitivePath, touchesSensitive } from './redact.js';
import type { Desired, SensitivePath, SpecJson } from './desired.js';
import { ADDRESS_FIELDS } from './address-references.js';
import { moduleOf, parseAddress, type ResourceType } from './kinds/index.js';
import type { GraphNodeKind } from './kinds/module.js';

export type { GraphNodeKind };

export interface GraphNode {
  /** The address (`agent.support`), or the bare name for a tool the manifest does not manage. */
  id: string;
  kind: GraphNodeKind;
  /** A second line: an agent's name. */
  detail?: string;
  /** In a plan's graph: what happens to it (absent: unchanged, shown for context). */
  action?: Exclude<Action, 'no-op'>;
}

export interface GraphEdge {
  from: string;
  to: string;
  /** The list that names it: an agent's `tools` or `actions`, or an address field (a builder agent's `knowledge`). */
  via: string;
}

export interface Graph {
  nodes: GraphNode[];
  edges: GraphEdge[];
}

export function manifestGraph(desired: Desired): Graph {
  const nodes: GraphNode[] = [];
  const records = new Map<string, SpecJson>();
  for (const resource of desired.resources) {
    const shown = hideSensitive(resource.spec as unknown as SpecJson, resource.sensitive);
    records.set(resource.address, shown);
    nodes.push(nodeOf(resource.type, resource.address, shown));
  }
  return withEdges(nodes, records, (name) => (records.has(`tool.${name}`) ? `tool.${name}` : undefined));
}

/**
 * What the graph reads (an agent's name, its tools and actions) where ${secret:…} filled it: hidden,
 * as the plan's graph, built from redacted records, hides it. A hidden list draws no edges.
 */
function hideSensitive(spec: SpecJson, sensitive: readonly SensitivePath[]): SpecJson {
  if (sensitive.length === 0) return spec;
  const shown: SpecJson = { ...spec };
  if (isSensitivePath(['name'], sensitive)) shown.name = SENSITIVE_PLACEHOLDER;
  for (const list of ['tools', 'actions']) if (touchesSensitive([list], sensitive)) shown[list] = [];
  return shown;
}

/** The changed resources, and the unchanged tools their agents name (for context). */
export function planGraph(plan: Plan): Graph {
  const changed = plan.changes.filter((c) => c.action !== 'no-op');
  const records = new Map<string, SpecJson>();
  const nodes: GraphNode[] = [];
  for (const change of changed) {
    const record = recordOf(change);
    records.set(change.address, record);
    nodes.push({ ...nodeOf(change.type, change.address, record), action: change.action as Exclude<Action, 'no-op'> });
  }
  const known = new Set(plan.changes.map((c) => c.address));
  return withEdges(nodes, records, (name) => (known.has(`tool.${name}`) ? `tool.${name}` : undefined));
}

function recordOf(change: Change): SpecJson {
  switch (change.action) {
    case 'create':
    case 'update':
      return change.after;
    case 'delete':
    case 'forget':
      return change.before;
    case 'no-op':
      return {};
    default: {
      const _exhaustive: never = change;
      return _exhaustive;
    }
  }
}

function nodeOf(type: ResourceType, address: string, record: SpecJson): GraphNode {
  return { id: address, ...moduleOf(type).graphNode(record) };
}

/** The edges of a record's address fields (core/address-references.ts) to the entries of this graph they name. */
function addressEdges(id: string, record: SpecJson, ids: ReadonlySet<string>): GraphEdge[] {
  const type = parseAddress(id)?.type;
  const fields = type === undefined ? undefined : ADDRESS_FIELDS.get(type);
  if (fields === undefined) return [];
  return fields.flatMap(({ field }) => {
    const list = record[field];
    return Array.isArray(list) ? list.flatMap((to) => (typeof to === 'string' && ids.has(to) ? [{ from: id, to, via: field }] : [])) : [];
  });
}

/** Adds each agent's edges; a name that is not one of the graph's tools becomes a node of its own. */
function withEdges(nodes: GraphNode[], records: ReadonlyMap<string, SpecJson>, addressOf: (name: string) => string | undefined): Graph {
  const edges: GraphEdge[] = [];
  const ids = new Set(nodes.map((n) => n.id));
  const extra: GraphNode[] = [];
  for (const node of nodes) {
    for (const edge of addressEdges(node.id, records.get(node.id) ?? {}, ids)) edges.push(edge);
    if (node.kind !== 'agent') continue;
    const record = records.get(node.id) ?? {};
    for (const via of ['tools', 'actions'] as const) {
      const names = record[via];
      if (!Array.isArray(names)) continue;
      for (const name of names) {
        if (typeof name !== 'string') continue;
        const address = addressOf(name);
        const to = address ?? name;
        if (!ids.has(to)) {
          ids.add(to);
          extra.push(address ? { id: to, kind: via === 'tools' ? 'tool' : 'action' } : { id: to, kind: 'external' });
        }
        edges.push({ from: node.id, to, via });
      }
    }
  }
  return { nodes: [...nodes, ...extra], edges };
}
