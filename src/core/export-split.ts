// `export --split DIR`: one exported manifest document cut into the parts of a manifest in many
// files, the way a team would lay it out: the environments in one file, each agent in a file of
// its own with the tools only it uses, the tools several agents share (or none uses) in one file,
// and the websites in one. Each kind's module says where its entries go (`splitPart`,
// kinds/module.ts), so a kind can never drop out of a split export. Merging the parts
// (core/merge-parts.ts) gives the document back.
import type { JsonObject, JsonValue } from './api-types.js';
import { addressOf, kindOf, moduleOf, RESOURCE_TYPES, type ResourceType } from './kinds/index.js';

export interface ExportPart {
  /** Relative to the folder, with `/` between names. */
  path: string;
  document: JsonObject;
  /** The resources it holds (for the secrets and shared identities its comments list). */
  addresses: ReadonlySet<string>;
}

export const ENVIRONMENTS_PART = 'environments.yaml';
/** The folders of the kinds whose entries each get a file (`agents`): io refuses links there. */
const EACH_FOLDERS = RESOURCE_TYPES.flatMap((type) => {
  const placement = moduleOf(type).splitPart;
  return 'each' in placement ? [placement.each] : [];
});
export const AGENTS_FOLDER = EACH_FOLDERS[0] ?? 'agents';

type Entry = readonly [string, JsonValue];

/** A part being filled: its sections' entries in the order they were added, then the top-level keys beside them. */
class PartBuilder {
  private readonly sections = new Map<ResourceType, Entry[]>();
  private readonly beside: Entry[] = [];
  readonly addresses = new Set<string>();
  /** Written even when it holds nothing (a `file` part whose section the document has). */
  always = false;

  constructor(readonly path: string) {}

  add(type: ResourceType, entry: Entry): void {
    this.section(type).push(entry);
    this.addresses.add(addressOf(type, entry[0]));
  }

  /** Opens the type's section, so the part writes it even when no entry follows. */
  section(type: ResourceType): Entry[] {
    let entries = this.sections.get(type);
    if (entries === undefined) this.sections.set(type, (entries = []));
    return entries;
  }

  addBeside(key: string, value: JsonValue): void {
    this.beside.push([key, value]);
  }

  holdsSomething(): boolean {
    return this.always || this.beside.length > 0 || [...this.sections.values()].some((entries) => entries.length > 0);
  }

  build(): ExportPart {
    const document: JsonObject = {};
    // fromEntries: a tool may be named `__proto__`, and must stay a key.
    for (const [type, entries] of this.sections) setIn(document, kindOf(type).section, Object.fromEntries(entries));
    for (const [key, value] of this.beside) document[key] = value;
    return { path: this.path, document, addresses: this.addresses };
  }
}

export function splitExport(document: JsonObject): ExportPart[] {
  const head: JsonObject = { version: document.version ?? 1 };
  if (document.environments !== undefined) head.environments = document.environments;
  const own = ownFiles(document);
  const files = new Map<string, PartBuilder>();
  const fileAt = (path: string): PartBuilder => {
    const found = files.get(path);
    if (found !== undefined) return found;
    const part = new PartBuilder(path);
    files.set(path, part);
    return part;
  };
  for (const type of RESOURCE_TYPES) {
    const placement = moduleOf(type).splitPart;
    const section = sectionOf(document, type);
    if ('withSoleReferrer' in placement) {
      const shared = fileAt(placement.otherwise);
      for (const entry of Object.entries(objectAt(section))) (onlyUser(own.referrers.get(entry[0])) ?? shared).add(type, entry);
      for (const key of placement.alongside ?? []) if (document[key] !== undefined) shared.addBeside(key, document[key]);
    } else if ('file' in placement && section !== undefined) {
      const file = fileAt(placement.file);
      file.always = true;
      file.section(type);
      for (const entry of Object.entries(objectAt(section))) file.add(type, entry);
    }
  }
  const parts = [...own.parts, ...files.values()].filter((part) => part.holdsSomething()).map((part) => part.build());
  return [{ path: ENVIRONMENTS_PART, document: head, addresses: new Set() }, ...parts];
}

/** A file per entry of the `each` kinds, and which of those files refer to each name (`export.references`). */
function ownFiles(document: JsonObject): { parts: PartBuilder[]; referrers: Map<string, Set<PartBuilder>> } {
  const parts: PartBuilder[] = [];
  const referrers = new Map<string, Set<PartBuilder>>();
  for (const type of RESOURCE_TYPES) {
    const placement = moduleOf(type).splitPart;
    if (!('each' in placement)) continue;
    const fileNames = new FileNames(type);
    for (const [key, value] of Object.entries(objectAt(sectionOf(document, type)))) {
      const part = new PartBuilder(`${placement.each}/${fileNames.take(key)}.yaml`);
      part.add(type, [key, value]);
      parts.push(part);
      for (const name of kindOf(type).export?.references?.(objectAt(value)) ?? []) {
        const users = referrers.get(name) ?? new Set<PartBuilder>();
        users.add(part);
        referrers.set(name, users);
      }
    }
  }
  return { parts, referrers };
}

/** The kind's map in the document (`knowledgeBase.websites`), or undefined when the document has none. */
function sectionOf(document: JsonObject, type: ResourceType): JsonValue | undefined {
  let value: JsonValue | undefined = document;
  for (const segment of kindOf(type).section) {
    const at = objectAt(value);
    value = Object.hasOwn(at, segment) ? at[segment] : undefined;
  }
  return value;
}

function setIn(document: JsonObject, path: readonly string[], value: JsonObject): void {
  let at = document;
  path.forEach((segment, i) => {
    if (i === path.length - 1) at[segment] = value;
    else at = objectAt((at[segment] ??= {}));
  });
}

function onlyUser<T>(users: ReadonlySet<T> | undefined): T | undefined {
  if (users === undefined || users.size !== 1) return undefined;
  return users.values().next().value;
}

/**
 * A file name per entry key: only letters, digits, `_`, `-` and `.` (a key may hold anything
 * YAML allows), never a name starting with a dot (the manifest reader skips those), never a name
 * Windows reserves for a device (`con`, `aux`, `com1`…, whatever follows the first dot: `con.yaml`
 * cannot be created there), and unique without regard to case, so the folder is the same on a
 * file system that ignores case.
 */
class FileNames {
  private readonly taken = new Set<string>();

  /** `fallback` names a file whose key has no safe character at all. */
  constructor(private readonly fallback: string) {}

  take(key: string): string {
    const safe =
      key
        .replace(/[^A-Za-z0-9_.-]/g, '_')
        .replace(/^\./, '_')
        .slice(0, 100)
        .replace(WINDOWS_DEVICE, '$1_') || this.fallback;
    let name = safe;
    for (let n = 2; this.taken.has(name.toLowerCase()); n++) name = `${safe}-${n}`;
    this.taken.add(name.toLowerCase());
    return name;
  }
}

/** A stem Windows keeps for a device, with what follows it (from its first dot): `$1_` makes it a plain name. */
const WINDOWS_DEVICE = /^(con|prn|aux|nul|com[0-9\u00b9\u00b2\u00b3]|lpt[0-9\u00b9\u00b2\u00b3])(?=\.|$)/i;

function objectAt(value: JsonValue | undefined): JsonObject {
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? value : {};
}
