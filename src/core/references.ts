// An agent's `tools` and `actions` must name tools that exist (in this manifest or external.tools),
// and of the right type (docs/spec/manifest.md#tools-and-actions): a tool with doNotExecute: true
// has type `tool` and belongs in `tools`; any other is an `action` and belongs in `actions`. The
// server refuses a misplaced name, so validate says which list it goes in. external.tools names
// have no type here.
import { MAX_DIAGNOSTICS_OF_A_KIND, moreOfAKind, type Diagnostic } from './diagnostics.js';
import { didYouMean } from './suggest.js';
import type { ManifestLocator } from './yaml-locate.js';

type ToolType = 'tool' | 'action';

const LIST_OF: Record<ToolType, 'tools' | 'actions'> = { tool: 'tools', action: 'actions' };

export function referenceDiagnostics(tree: Record<string, unknown>, locator: ManifestLocator): Diagnostic[] {
  const types = toolTypes(tree.tools);
  const external = isPlainObject(tree.external) && Array.isArray(tree.external.tools) ? tree.external.tools.filter((t) => typeof t === 'string') : [];
  const known = new Set<string>([...types.keys(), ...external]);
  const diagnostics: Diagnostic[] = [];
  if (!isPlainObject(tree.agents)) return diagnostics;
  for (const [key, agent] of Object.entries(tree.agents)) {
    if (!isPlainObject(agent)) continue;
    for (const field of ['tools', 'actions'] as const) {
      const list = agent[field];
      if (!Array.isArray(list)) continue;
      // Past the first unknown names of a list only the count is kept: placing and suggesting
      // for each of 200,000 would take seconds, for lines that are not shown.
      let unknown = 0;
      let firstUnshown: Diagnostic | undefined;
      const kind = field === 'tools' ? 'tool' : 'action';
      list.forEach((name, i) => {
        if (typeof name !== 'string') return;
        const at = ['agents', key, field, i];
        if (!known.has(name)) {
          if (++unknown > MAX_DIAGNOSTICS_OF_A_KIND) {
            firstUnshown ??= locator.diagnostic(at, unknownMessage(kind, name, ''));
            return;
          }
          diagnostics.push(locator.diagnostic(at, unknownMessage(kind, name, didYouMean(name, known))));
          return;
        }
        const type = types.get(name);
        if (type === undefined || LIST_OF[type] === field) return;
        const why = type === 'tool' ? 'doNotExecute is true' : 'doNotExecute is false';
        diagnostics.push(locator.diagnostic(at, `${name} is ${type === 'tool' ? 'a tool' : 'an action'} (${why}): move it from ${field} to ${LIST_OF[type]}`));
      });
      if (firstUnshown !== undefined) diagnostics.push(moreOfAKind(firstUnshown, unknown - MAX_DIAGNOSTICS_OF_A_KIND));
    }
  }
  return diagnostics;
}

function unknownMessage(kind: 'tool' | 'action', name: string, hint: string): string {
  return `unknown ${kind} "${name}": it is not a tool in this manifest and not listed in external.tools${hint}`;
}

/** Each manifest tool's type; a tool whose doNotExecute is malformed has none (the schema reports it). */
function toolTypes(tools: unknown): Map<string, ToolType | undefined> {
  const types = new Map<string, ToolType | undefined>();
  if (!isPlainObject(tools)) return types;
  for (const [name, tool] of Object.entries(tools)) {
    const flag = isPlainObject(tool) ? tool.doNotExecute : undefined;
    types.set(name, flag === true ? 'tool' : flag === false || flag === undefined ? 'action' : undefined);
  }
  return types;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}
