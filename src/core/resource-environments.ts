// A resource's `environments: [us, eu]` (docs/spec/manifest.md#per-environment-resources): it
// exists only in those environments. This file owns the rules around that key, on the raw manifest
// tree (so that it runs even when the schema failed elsewhere): the names must exist (and there
// must be one), an agent may only name tools that exist wherever the agent does, and a resource's
// interpolated values matter only where it exists.
import type { Diagnostic, PathSegment } from './diagnostics.js';
import { MANIFEST_SECTIONS } from './kinds/index.js';
import { didYouMean } from './suggest.js';
import type { ManifestLocator } from './yaml-locate.js';

/** Where each resource kind lives in the manifest: the path before its key. */
const SECTIONS = Object.values(MANIFEST_SECTIONS);

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

/** A shallow copy of the manifest without the resources the environment does not have. */
export function withoutResourcesOutside(tree: Record<string, unknown>, environment: string): Record<string, unknown> {
  const copy: Record<string, unknown> = { ...tree };
  for (const section of SECTIONS) {
    let parent: Record<string, unknown> | undefined = copy;
    for (const segment of section.slice(0, -1)) {
      const child: unknown = parent[segment];
      parent = isPlainObject(child) ? (parent[segment] = { ...child }) : undefined;
      if (parent === undefined) break;
    }
    const last = section[section.length - 1]!;
    const map = parent?.[last];
    if (parent === undefined || !isPlainObject(map)) continue;
    parent[last] = Object.fromEntries(Object.entries(map).filter(([, value]) => !isPlainObject(value) || !Array.isArray(value.environments) || value.environments.includes(environment)));
  }
  return copy;
}

/** Unknown environment names, with a did-you-mean, and empty lists. */
export function resourceEnvironmentDiagnostics(tree: Record<string, unknown>, locator: ManifestLocator): Diagnostic[] {
  const envs = tree.environments;
  const names = isPlainObject(envs) ? Object.keys(envs) : [];
  if (names.length === 0) return [];
  const diagnostics: Diagnostic[] = [];
  for (const entry of resourceEntries(tree)) {
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
  return diagnostics;
}

/**
 * An agent of this environment that names a tool the environment does not have would be refused
 * by its server: say so now. Checked per environment, after its vars are in the tree, because
 * `tools: ${var.list}` may name different tools in each.
 */
export function agentToolsDiagnostics(tree: Record<string, unknown>, environment: string, locator: ManifestLocator): Diagnostic[] {
  const entries = resourceEntries(tree);
  const absent = new Map<string, string[]>();
  for (const entry of entries) {
    if (entry.path[0] === 'tools' && entry.environments !== undefined && !entry.environments.includes(environment)) absent.set(String(entry.path[1]), entry.environments);
  }
  if (absent.size === 0) return [];
  const diagnostics: Diagnostic[] = [];
  for (const entry of entries) {
    if (entry.path[0] !== 'agents' || !existsIn(entry.environments, environment)) continue;
    for (const field of ['tools', 'actions'] as const) {
      const list = entry.value[field];
      if (!Array.isArray(list)) continue;
      list.forEach((tool, i) => {
        const only = typeof tool === 'string' ? absent.get(tool) : undefined;
        if (only === undefined) return;
        diagnostics.push(
          locator.diagnostic(
            [...entry.path, field, i],
            `tool "${String(tool)}" does not exist in environment "${environment}" (it has environments: [${only.join(', ')}]), but this agent does; add "${environment}" to the tool's environments, or limit the agent with environments:`,
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
