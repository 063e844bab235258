// Rules about what the manifest's resources say to each other: unused tools, agents that share a
// name, agents without an instruction, tool descriptions too short for a model to choose by.
import type { TreeLintInput, RuleHit } from './types.js';
import { entriesOf, isPlainObject } from './types.js';

/** Below this a description rarely tells a model when to call the tool. */
export const MIN_TOOL_DESCRIPTION = 20;

export function unusedTools({ tree }: TreeLintInput): RuleHit[] {
  const used = new Set<string>();
  for (const [, agent] of entriesOf(tree.agents)) {
    for (const field of ['tools', 'actions']) for (const name of namesIn(agent[field], tree)) used.add(name);
  }
  return entriesOf(tree.tools)
    .filter(([name]) => !used.has(name))
    .map(([name]) => ({ path: ['tools', name], atKey: true, message: `tool "${name}" is not used by any agent (no agent lists it in tools or actions)` }));
}

export function duplicateAgentNames({ tree, locator }: TreeLintInput): RuleHit[] {
  const firstByName = new Map<string, string>();
  const hits: RuleHit[] = [];
  for (const [key, agent] of entriesOf(tree.agents)) {
    const name = agent.name;
    // A name from a variable may differ per environment: only literal names can be compared.
    if (typeof name !== 'string' || name === '' || name.includes('${')) continue;
    const first = firstByName.get(name);
    if (first === undefined) {
      firstByName.set(name, key);
      continue;
    }
    const firstAt = locator.diagnostic(['agents', first, 'name'], '');
    const here = locator.diagnostic(['agents', key, 'name'], '');
    const where = firstAt.file === here.file ? `line ${firstAt.line}` : `${firstAt.file}:${firstAt.line}`;
    hits.push({ path: ['agents', key, 'name'], message: `agents ${key} and ${first} (${where}) have the same name "${name}"; users and the dashboard cannot tell them apart` });
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
  return entriesOf(tree.agents)
    .filter(([, agent]) => typeof agent.instruction !== 'string' || agent.instruction.trim() === '')
    .map(([key, agent]) => ({
      path: agent.instruction === undefined ? ['agents', key] : ['agents', key, 'instruction'],
      atKey: true,
      message: `agent ${key} has no instruction; without one the model gets no guidance on its role`,
    }));
}

export function shortToolDescriptions({ tree }: TreeLintInput): RuleHit[] {
  const hits: RuleHit[] = [];
  for (const [name, tool] of entriesOf(tree.tools)) {
    const description = tool.description;
    if (typeof description !== 'string' || description.includes('${')) continue;
    const length = description.trim().length;
    if (length >= MIN_TOOL_DESCRIPTION) continue;
    hits.push({
      path: ['tools', name, 'description'],
      message: `tool "${name}" has a ${length}-character description; a model chooses tools by their description, so say in ${MIN_TOOL_DESCRIPTION} characters or more what it does and when to use it`,
    });
  }
  return hits;
}
