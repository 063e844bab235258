// The local files a manifest's entries name (`file: kb/refunds.md`), as the kinds' rules say
// (core/kinds/entry.ts LocalFileRule): where they are written, and what is wrong with them once read.
// Reading is io's (io/manifest/local-files.ts); this stays pure.
import type { Diagnostic, PathSegment } from './diagnostics.js';
import { entryOf } from './kinds/entries.js';
import type { LocalFile, LocalFileRule, LocalFiles } from './kinds/entry.js';
import { addressOf, isObject, RESOURCE_TYPES, type ResourceType } from './kinds/kind.js';
import type { ManifestLocator } from './yaml-locate.js';

/** One entry's `file:` value: the address it belongs to, where it is written, and the path as written. */
export interface LocalFileSite {
  address: string;
  type: ResourceType;
  path: PathSegment[];
  written: string;
}

/** Every `file:` of every kind that reads one, from the parsed tree (before interpolation). */
export function localFileSites(tree: Readonly<Record<string, unknown>>): LocalFileSite[] {
  const sites: LocalFileSite[] = [];
  for (const type of RESOURCE_TYPES) {
    const entry = entryOf(type);
    const rule = entry.localFile;
    if (rule === undefined) continue;
    let map: unknown = tree;
    for (const segment of entry.section) map = isObject(map) ? map[segment] : undefined;
    if (!isObject(map)) continue;
    for (const [key, value] of Object.entries(map)) {
      const written = isObject(value) ? value[rule.field] : undefined;
      if (typeof written === 'string') sites.push({ address: addressOf(type, key), type, path: [...entry.section, key, rule.field], written });
    }
  }
  return sites;
}

/** The rule of a kind that reads local files; undefined for the others. */
export function localFileRule(type: ResourceType): LocalFileRule<object> | undefined {
  return entryOf(type).localFile as LocalFileRule<object> | undefined;
}

/** One diagnostic per file that could not be read, or that its kind refuses (its type, its length). */
export function localFileDiagnostics(tree: Readonly<Record<string, unknown>>, files: LocalFiles | undefined, locator: ManifestLocator): Diagnostic[] {
  const diagnostics: Diagnostic[] = [];
  for (const site of localFileSites(tree)) {
    const read = files?.get(site.address);
    const problem = read === undefined ? `${site.written} was not read (local files are read by the manifest loader)` : 'problem' in read ? read.problem : localFileRule(site.type)?.problem?.(read);
    if (problem !== undefined) diagnostics.push(locator.diagnostic(site.path, problem));
  }
  return diagnostics;
}

/** The local file read for an address, when there is one and it can be used. */
export function usableLocalFile(files: LocalFiles | undefined, address: string): LocalFile | undefined {
  const read = files?.get(address);
  return read === undefined || 'problem' in read ? undefined : read;
}
