// Renames (docs/spec/plan-and-apply.md#renames). A manifest key is only an address, so renaming one
// would otherwise plan a create of the new address plus a forget of the old: a second agent with
// the same name. The `moved:` list says which state entry an address used to be; the plan moves it,
// and apply writes the move to the state, as Terraform's `moved` blocks do.
import type { Move } from './desired.js';
import type { Diagnostic } from './diagnostics.js';
import { MANIFEST_SECTIONS } from './kinds/index.js';
import { isObject, parseAddress, type ResourceType } from './kinds/kind.js';
import type { ManifestLocator } from './yaml-locate.js';

/** The manifest keys of a kind, read from the raw tree (before the schema, so every problem is found in one run). */
function keysOf(tree: Record<string, unknown>, type: ResourceType): ReadonlySet<string> {
  let node: unknown = tree;
  for (const segment of MANIFEST_SECTIONS[type]) node = isObject(node) ? node[segment] : undefined;
  return new Set(isObject(node) ? Object.keys(node) : []);
}

/** Every `moved:` entry checked: addresses of a known kind, the same kind, `to` in the manifest, `from` not, nothing twice. */
export function movedDiagnostics(tree: Record<string, unknown>, locator: ManifestLocator): Diagnostic[] {
  const list = tree.moved;
  if (!Array.isArray(list)) return [];
  const diagnostics: Diagnostic[] = [];
  const seen = { from: new Set<string>(), to: new Set<string>() };
  list.forEach((entry, i) => {
    if (!isObject(entry) || typeof entry.from !== 'string' || typeof entry.to !== 'string') return; // the schema reports it
    const from = parseAddress(entry.from);
    const to = parseAddress(entry.to);
    const at = (field: 'from' | 'to', message: string) => diagnostics.push(locator.diagnostic(['moved', i, field], message));
    if (from === undefined) at('from', `"${entry.from}" is not an address (tool.NAME, agent.KEY or website.KEY)`);
    if (to === undefined) at('to', `"${entry.to}" is not an address (tool.NAME, agent.KEY or website.KEY)`);
    if (from === undefined || to === undefined) return;
    if (from.type !== to.type) return at('to', `${article(from.type)} ${from.type} cannot move to ${article(to.type)} ${to.type}: moved entries keep their kind`);
    if (entry.from === entry.to) return at('to', 'from and to are the same address');
    if (from.type === 'tool') return at('from', "a tool's key is its name on the server: renaming it creates a new tool, which moved cannot express");
    const keys = keysOf(tree, to.type);
    if (!keys.has(to.key)) at('to', `${entry.to} is not in the manifest: moved names where a resource went`);
    if (keys.has(from.key)) at('from', `${entry.from} is still in the manifest: only a key that left it can have moved`);
    if (seen.from.has(entry.from)) at('from', `${entry.from} is moved twice`);
    if (seen.to.has(entry.to)) at('to', `two entries move to ${entry.to}`);
    seen.from.add(entry.from);
    seen.to.add(entry.to);
  });
  return diagnostics;
}

/** The `moved:` entry that turns a rename into a move, as the user would write it. */
export function movedEntryText(move: Move): string {
  return `moved: [{ from: ${move.from}, to: ${move.to} }]`;
}

export function stateMvCommand(move: Move): string {
  return `agentsync state mv ${move.from} ${move.to}`;
}

function article(word: string): string {
  return /^[aeiou]/.test(word) ? 'an' : 'a';
}
