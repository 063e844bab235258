// A resource's `environments: [us, eu]` (CONTRACT §9.2): it exists only in those environments.
// This file owns the rules around that key, on the raw manifest tree (so that it runs even when
// the schema failed elsewhere): the names must exist (and there must be one), an agent may only name tools that exist
// wherever the agent does, and a resource's interpolated values matter only where it exists.
import type { Diagnostic, PathSegment } from './diagnostics.js';
import { didYouMean } from './suggest.js';
import type { YamlLocator } from './yaml-locate.js';

/** Where each resource kind lives in the manifest: the path before its key. */
const SECTIONS: readonly (readonly string[])[] = [['tools'], ['agents'], ['knowledgeBase', 'websites']];

interface ResourceEntry {
  path: PathSegment[];
  /** The `environments:` strings as written, or undefined when the key is absent (every environment). */
  environments: string[] | undefined;
  value: Record<string, unknown>;
}

/** True when a resource with this `environments:` (already validated) exists in the environment. */
export function existsIn(environments: readonly string[] | undefined, environment: string): boolean {
  return environments === undefined || environments.includes(environment);
}

/** Whether any resource carries `environments:`; without one every environment sees the same resources. */
export function usesResourceEnvironments(tree: Record<string, unknown>): boolean {
  return resourceEntries(tree).some((entry) => entry.environments !== undefined);
}

/**
 * A test for key paths that lie inside a resource the environment does not have. Interpolation
 * problems there are not problems of that environment: an eu-only agent may use a var only eu has.
 */
export function excludedFrom(tree: Record<string, unknown>, environment: string): (path: readonly PathSegment[]) => boolean {
  const excluded = new Set<string>();
  for (const entry of resourceEntries(tree)) if (!existsIn(entry.environments, environment)) excluded.add(pathKey(entry.path));
  if (excluded.size === 0) return () => false;
  return (path) => SECTIONS.some((section) => section.every((segment, i) => path[i] === segment) && excluded.has(pathKey(path.slice(0, section.length + 1))));
}

/** Unknown environment names (with a did-you-mean), and agents that name a tool missing from one of their environments. */
export function resourceEnvironmentDiagnostics(tree: Record<string, unknown>, locator: YamlLocator): Diagnostic[] {
  const envs = tree.environments;
  const names = isPlainObject(envs) ? Object.keys(envs) : [];
  if (names.length === 0) return [];
  const entries = resourceEntries(tree);
  const diagnostics: Diagnostic[] = [];
  for (const entry of entries) {
    const list = entry.value.environments;
    if (!Array.isArray(list)) continue;
    if (list.length === 0) {
      diagnostics.push(locator.diagnostic([...entry.path, 'environments'], 'environments: [] puts this resource in no environment; name at least one, or leave the key out to mean every environment'));
    }
    list.forEach((name, i) => {
      if (typeof name !== 'string' || names.includes(name)) return;
      diagnostics.push(locator.diagnostic([...entry.path, 'environments', i], `unknown environment "${name}"; the manifest defines ${names.join(', ')}${didYouMean(name, names)}`));
    });
  }
  diagnostics.push(...agentReferenceDiagnostics(tree, entries, names, locator));
  return diagnostics;
}

/** An agent in eu that names a tool only us has would be refused by eu's server: say so now. */
function agentReferenceDiagnostics(tree: Record<string, unknown>, entries: readonly ResourceEntry[], names: readonly string[], locator: YamlLocator): Diagnostic[] {
  const toolEnvironments = new Map<string, string[]>();
  for (const entry of entries) {
    if (entry.path[0] === 'tools' && entry.environments !== undefined) toolEnvironments.set(String(entry.path[1]), entry.environments);
  }
  if (toolEnvironments.size === 0 || !isPlainObject(tree.agents)) return [];
  const diagnostics: Diagnostic[] = [];
  for (const entry of entries) {
    if (entry.path[0] !== 'agents') continue;
    const agentEnvironments = (entry.environments ?? names).filter((name) => names.includes(name));
    for (const field of ['tools', 'actions'] as const) {
      const list = entry.value[field];
      if (!Array.isArray(list)) continue;
      list.forEach((tool, i) => {
        const only = typeof tool === 'string' ? toolEnvironments.get(tool) : undefined;
        if (only === undefined) return;
        const missing = agentEnvironments.filter((name) => !only.includes(name));
        if (missing.length === 0) return;
        const where = missing.length === 1 ? `environment "${missing[0]}"` : `environments ${missing.map((m) => `"${m}"`).join(', ')}`;
        diagnostics.push(
          locator.diagnostic(
            [...entry.path, field, i],
            `tool "${String(tool)}" does not exist in ${where}, where this agent does (the tool has environments: [${only.join(', ')}]); add ${missing.length === 1 ? 'it' : 'them'} to the tool's environments, or give the agent environments: too`,
          ),
        );
      });
    }
  }
  return diagnostics;
}

function resourceEntries(tree: Record<string, unknown>): ResourceEntry[] {
  const entries: ResourceEntry[] = [];
  for (const section of SECTIONS) {
    let map: unknown = tree;
    for (const segment of section) map = isPlainObject(map) ? map[segment] : undefined;
    if (!isPlainObject(map)) continue;
    for (const [key, value] of Object.entries(map)) {
      if (!isPlainObject(value)) continue;
      const list = value.environments;
      const environments = Array.isArray(list) ? list.filter((name): name is string => typeof name === 'string') : undefined;
      entries.push({ path: [...section, key], environments, value });
    }
  }
  return entries;
}

function pathKey(path: readonly PathSegment[]): string {
  return JSON.stringify(path);
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}
