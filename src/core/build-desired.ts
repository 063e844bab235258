// The validated manifest, for one environment → Desired: what the API should hold.
import type { Region } from './api-types.js';
import type { PathSegment } from './diagnostics.js';
import { addressOf, type Desired, type DesiredEnvironment, type DesiredResource, type SensitivePath } from './desired.js';
import { entryOf } from './kinds/entries.js';
import type { LocalFiles } from './kinds/entry.js';
import { usableLocalFile } from './local-files.js';
import { existsIn } from './resource-environments.js';
import { kindOf, MANIFEST_SECTIONS, RESOURCE_TYPES } from './kinds/index.js';
import { emptyDefaultsLeftOut, factsOf } from './kinds/fields.js';
import type { ResourceType } from './kinds/kind.js';
import type { Manifest } from './schema.js';

const byKey = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** `written` is the manifest as the user wrote it (before the schema's defaults), to tell written values from defaults. */
export function buildDesired(
  manifest: Manifest,
  environment: DesiredEnvironment,
  sensitiveSites: readonly PathSegment[][],
  written?: Readonly<Record<string, unknown>>,
  localFiles?: LocalFiles,
): Desired {
  const byResource = groupByResource(sensitiveSites);
  const sensitive = (type: ResourceType, key: string) => sensitivePaths(byResource.get(addressOf(type, key)) ?? [], MANIFEST_SECTIONS[type].length + 1);

  // A resource with `environments:` exists only there (docs/spec/manifest.md#per-environment-resources); the key itself is never sent.
  const here = (resource: { environments?: readonly string[] | undefined }) => existsIn(resource.environments, environment.name);

  const resources: DesiredResource[] = RESOURCE_TYPES.flatMap((type) => {
    const entry = entryOf(type);
    const map = sectionOf(manifest, entry.section);
    return Object.keys(map)
      .filter((key) => here(map[key]!))
      .sort(byKey)
      .map((key) => {
        const { environments: _only, ...written } = map[key]!;
        const address = addressOf(type, key);
        const file = entry.localFile === undefined ? undefined : usableLocalFile(localFiles, address);
        const spec = file === undefined ? entry.build(written, key) : entry.localFile!.fill(entry.build(written, key), file);
        const paths = sensitive(type, key);
        for (const path of entry.alwaysSensitive?.(spec) ?? []) addPath(paths, path);
        return { type, key, address, spec, sensitive: paths, ...(file === undefined ? {} : { localFile: file.path }) } as DesiredResource;
      });
  });
  for (const resource of resources) resource.spec = setsSorted(resource.type, resource.spec);
  if (written !== undefined) for (const resource of resources) markDefaulted(resource, written);
  const addresses = new Set(resources.map((resource) => resource.address));
  const desired: Desired = {
    environment,
    resources,
    externalTools: [...new Set(manifest.external?.tools ?? [])].sort(byKey),
    // Only moves to a resource this environment has: elsewhere there is nothing to move it to.
    moved: manifest.moved.filter((move) => addresses.has(move.to)).map(({ from, to }) => ({ from, to })),
  };
  if (manifest.notify !== undefined) desired.notify = manifest.notify;
  if (manifest.state !== undefined) desired.state = manifest.state;
  return desired;
}

export function desiredEnvironment(name: string, config: { appId: string; region: Region; apiKeyEnv: string }, baseUrl: string): DesiredEnvironment {
  return { name, appId: config.appId, region: config.region, baseUrl, apiKeyEnv: config.apiKeyEnv };
}

/**
 * The spec with every list its kind's field table calls a set (`set: true`) sorted and without
 * repeats: the one place set-ness is applied to a desired spec. The schema already sorts most of
 * them (`nameSet`, so validation sees them sorted) but leaves a website's `exclude` in manifest
 * order, so its errors point at their items (test/core/set-facts.test.ts keeps the two agreeing).
 */
function setsSorted<Spec extends object>(type: ResourceType, spec: Spec): Spec {
  let sorted: Spec | undefined;
  for (const field of SET_FIELDS.get(type) ?? []) {
    const value: unknown = (spec as Record<string, unknown>)[field];
    if (!Array.isArray(value)) continue;
    sorted ??= { ...spec };
    (sorted as Record<string, unknown>)[field] = [...new Set(value)].sort();
  }
  return sorted ?? spec;
}

/** Each kind's set fields, from its field table. */
const SET_FIELDS = new Map(RESOURCE_TYPES.map((type) => [type, factsOf(kindOf(type).fields).flatMap(([field, fact]) => (fact.set === true ? [field] : []))]));

/** Notes the fields the resource's manifest entry leaves out that take an empty default. */
function markDefaulted(resource: DesiredResource, written: Readonly<Record<string, unknown>>): void {
  let entry: unknown = written;
  for (const segment of [...MANIFEST_SECTIONS[resource.type], resource.key]) entry = isRecord(entry) && Object.hasOwn(entry, segment) ? entry[segment] : undefined;
  if (!isRecord(entry)) return;
  const defaulted = emptyDefaultsLeftOut(kindOf(resource.type).fields, entry);
  if (defaulted.length > 0) resource.defaulted = defaulted;
}

/** A kind's map in the validated manifest (`knowledgeBase.websites`); empty when the manifest has none. */
function sectionOf(manifest: Manifest, section: readonly string[]): Record<string, { environments?: readonly string[] }> {
  let at: unknown = manifest;
  for (const segment of section) at = isRecord(at) ? at[segment] : undefined;
  return isRecord(at) ? (at as Record<string, { environments?: readonly string[] }>) : {};
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Secret sites grouped by the address of the resource they are in; one pass, no scanning per resource. */
function groupByResource(sites: readonly PathSegment[][]): Map<string, PathSegment[][]> {
  const groups = new Map<string, PathSegment[][]>();
  for (const site of sites) {
    for (const [type, prefix] of Object.entries(MANIFEST_SECTIONS) as [ResourceType, readonly string[]][]) {
      if (!prefix.every((segment, i) => site[i] === segment)) continue;
      const key = site[prefix.length];
      if (typeof key !== 'string') continue;
      const address = addressOf(type, key);
      const group = groups.get(address);
      if (group === undefined) groups.set(address, [site]);
      else group.push(site);
    }
  }
  return groups;
}

/**
 * Sensitive paths of one resource, relative to its spec. A secret inside a list marks the whole
 * list: set-like lists are sorted, so an index in the file is not an index in the spec.
 */
function sensitivePaths(sites: readonly PathSegment[][], prefixLength: number): SensitivePath[] {
  const paths: SensitivePath[] = [];
  for (const site of sites) {
    const relative = site.slice(prefixLength);
    const firstIndex = relative.findIndex((segment) => typeof segment === 'number');
    addPath(paths, firstIndex < 0 ? relative : relative.slice(0, firstIndex));
  }
  return paths;
}

function addPath(paths: SensitivePath[], path: SensitivePath): void {
  if (!paths.some((p) => p.length === path.length && p.every((segment, i) => segment === path[i]))) paths.push(path);
}
