// What a lint rule sees and what it reports. Rules are pure functions of the parsed manifest: the
// plain tree (before interpolation, so `${secret:…}` is still visible) and the YAML document with
// its positions.
import type { Document } from 'yaml';
import type { PathSegment } from '../diagnostics.js';
import { MANIFEST_SECTIONS, type ResourceType } from '../kinds/index.js';
import type { ManifestLocator, YamlLocator } from '../yaml-locate.js';

/** What a rule about the resources sees: the whole manifest, merged from all its files. */
export interface TreeLintInput {
  /** The manifest as plain JS, before interpolation. */
  tree: Record<string, unknown>;
  locator: ManifestLocator;
}

/** What a rule about how the YAML is written sees: one file, run once per file. */
export interface DocLintInput {
  doc: Document.Parsed;
  locator: YamlLocator;
}

/** One problem a rule found: where (a key path, or an exact offset inside a value) and why. */
export interface RuleHit {
  path: readonly PathSegment[];
  message: string;
  /** An exact source offset (e.g. the `http://` inside a string); otherwise the path's value. */
  offset?: number;
  /** Point at the key instead of the value. */
  atKey?: boolean;
  /** Leave the source line out of the finding: it holds what looks like a secret. */
  hideLine?: boolean;
}

export type TreeLintRule = (input: TreeLintInput) => RuleHit[];
export type DocLintRule = (input: DocLintInput) => RuleHit[];

export type { LintFinding } from './finding.js';

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** The entries of a section such as `tools` or `agents` whose value is a map. */
export function entriesOf(section: unknown): [string, Record<string, unknown>][] {
  if (!isPlainObject(section)) return [];
  return Object.entries(section).filter((entry): entry is [string, Record<string, unknown>] => isPlainObject(entry[1]));
}

/** A kind's entries in the manifest, where the kind registry says its map sits (`knowledgeBase.websites`). */
export function entriesOfKind(tree: Record<string, unknown>, type: ResourceType): [string, Record<string, unknown>][] {
  let section: unknown = tree;
  for (const segment of MANIFEST_SECTIONS[type]) section = isPlainObject(section) ? section[segment] : undefined;
  return entriesOf(section);
}

/** The path of a field of a kind's entry (`['tools', 'x', 'description']`), from the kind registry. */
export function pathOf(type: ResourceType, key: string, ...inside: readonly PathSegment[]): PathSegment[] {
  return [...MANIFEST_SECTIONS[type], key, ...inside];
}
