// Rules about what the manifest's resources say to each other: unused tools, agents that share a
// name, agents without an instruction, tool descriptions too short for a model to choose by.
// The kinds' sections and the fields that name tools come from the kind registry.
import { ADDRESS_FIELDS } from '../address-references.js';
import { REFERRING_FIELDS, type ResourceType } from '../kinds/index.js';
import type { TreeLintInput, RuleHit } from './types.js';
import { entriesOf, entriesOfKind, isPlainObject, pathOf } from './types.js';

/** Below this a description rarely tells a model when to call the tool. */
export const MIN_TOOL_DESCRIPTION = 20;

export function unusedTools({ tree }: TreeLintInput): RuleHit[] {
  const used = new Set<string>();
  for (const { type, field } of REFERRING_FIELDS.filter((referring) => referring.refersTo === 'tool')) {
    for (const [, entry] of entriesOfKind(tree, type)) for (const name of namesIn(entry[field], tree)) used.add(name);
  }
  return entriesOfKind(tree, 'tool')
    .filter(([name]) => !used.has(name))
    .map(([name]) => ({ path: pathOf('tool', name), atKey: true, message: `tool "${name}" is not used by any agent (no agent lists it in tools or actions)` }));
}

/**
 * A knowledge-base source no agent attaches (no address field of any entry names it) answers no
 * one: only attached sources are used in an agent's retrieval (cometchat-kb-text-files.md §4.1).
 */
export function unattachedSources({ tree }: TreeLintInput): RuleHit[] {
  const attached = new Set<string>();
  const sources = new Set<ResourceType>();
  for (const [type, fields] of ADDRESS_FIELDS) {
    for (const { field, kinds } of fields) {
      for (const kind of kinds) sources.add(kind);
      for (const [, entry] of entriesOfKind(tree, type)) for (const item of namesIn(entry[field], tree)) attached.add(item);
    }
  }
  return [...sources].flatMap((type) =>
    entriesOfKind(tree, type)
      .filter(([key]) => !attached.has(`${type}.${key}`))
      .map(([key]) => ({ path: pathOf(type, key), atKey: true, message: `${type}.${key} is attached to no agent (no knowledge: names it), so no agent uses it` })),
  );
}

export function duplicateAgentNames({ tree, locator }: TreeLintInput): RuleHit[] {
  const firstByName = new Map<string, string>();
  const hits: RuleHit[] = [];
  for (const [key, agent] of entriesOfKind(tree, 'agent')) {
    const name = agent.name;
    // A name from a variable may differ per environment: only literal names can be compared.
    if (typeof name !== 'string' || name === '' || name.includes('${')) continue;
    const first = firstByName.get(name);
    if (first === undefined) {
      firstByName.set(name, key);
      continue;
    }
    const firstAt = locator.diagnostic(pathOf('agent', first, 'name'), '');
    const here = locator.diagnostic(pathOf('agent', key, 'name'), '');
    const where = firstAt.file === here.file ? `line ${firstAt.line}` : `${firstAt.file}:${firstAt.line}`;
    hits.push({ path: pathOf('agent', key, 'name'), message: `agents ${key} and ${first} (${where}) have the same name "${name}"; users and the dashboard cannot tell them apart` });
  }
  return hits;
}

/** `${var.NAME}` exactly: the lint runs before interpolation, so vars are read from every environment. */
const WHOLE_VAR = /^\$\{var\.([A-Za-z_][A-Za-z0-9_-]*)\}$/;

/** The names a `tools`/`actions` list can hold: its items, and what `${var.…}` gives in any environment. */
function namesIn(value: unknown, tree: Record<string, unknown>): string[] {
  if (typeof value === 'string') {
    const name = WHOLE_VAR.exec(value)?.[1];
    return name === undefined ? [value] : entriesOf(tree.environments).flatMap(([, env]) => namesIn(isPlainObject(env.vars) ? env.vars[name] : undefined, tree));
  }
  return Array.isArray(value) ? value.flatMap((item) => (typeof item === 'string' || Array.isArray(item) ? namesIn(item, tree) : [])) : [];
}

export function missingInstructions({ tree }: TreeLintInput): RuleHit[] {
  return entriesOfKind(tree, 'agent')
    .filter(([, agent]) => typeof agent.instruction !== 'string' || agent.instruction.trim() === '')
    .map(([key, agent]) => ({
      path: agent.instruction === undefined ? pathOf('agent', key) : pathOf('agent', key, 'instruction'),
      atKey: true,
      message: `agent ${key} has no instruction; without one the model gets no guidance on its role`,
    }));
}

export function shortToolDescriptions({ tree }: TreeLintInput): RuleHit[] {
  const hits: RuleHit[] = [];
  for (const [name, tool] of entriesOfKind(tree, 'tool')) {
    const description = tool.description;
    if (typeof description !== 'string' || description.includes('${')) continue;
    const length = description.trim().length;
    if (length >= MIN_TOOL_DESCRIPTION) continue;
    hits.push({
      path: pathOf('tool', name, 'description'),
      message: `tool "${name}" has a ${length}-character description; a model chooses tools by their description, so say in ${MIN_TOOL_DESCRIPTION} characters or more what it does and when to use it`,
    });
  }
  return hits;
}
