// `export --split DIR`: one exported manifest document cut into the parts of a manifest in many
// files, the way a team would lay it out: the environments in one file, each agent in a file of
// its own with the tools only it uses, the tools several agents share (or none uses) in one file,
// and the websites in one. Each kind's module says where its entries go (`splitPart`,
// kinds/module.ts), so a kind can never drop out of a split export, and which field, if any, is a
// file of its own (`splitFile`: a text entry's text, as kb/<key>.md). Merging the parts
// (core/merge-parts.ts) gives the document back.
import type { JsonObject, JsonValue } from './api-types.js';
import { addressOf, kindOf, moduleOf, RESOURCE_TYPES, type ResourceType } from './kinds/index.js';

export interface ExportPart {
  /** Relative to the folder, with `/` between names. */
  path: string;
  document: JsonObject;
  /** A file written as it is, not as YAML (a text entry's text, kb/<key>.md); `document` is then empty. */
  content?: string;
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

  constructor(
    readonly path: string,
    private readonly ownFiles: FieldFiles,
  ) {}

  add(type: ResourceType, entry: Entry): void {
    this.section(type).push(this.ownFiles.take(type, entry, this.path));
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
  const fieldFiles = new FieldFiles();
  const own = ownFiles(document, fieldFiles);
  const files = new Map<string, PartBuilder>();
  const fileAt = (path: string): PartBuilder => {
    const found = files.get(path);
    if (found !== undefined) return found;
    const part = new PartBuilder(path, fieldFiles);
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
  return [{ path: ENVIRONMENTS_PART, document: head, addresses: new Set() }, ...parts, ...fieldFiles.parts];
}

/**
 * The fields written as files of their own (a kind's `splitFile`): each entry's value goes into
 * `<folder>/<key><extension>` and the entry names that file instead, relative to the part that
 * holds the entry. The value arrives escaped for the manifest (`$${` for a literal `${`); a file is
 * not interpolated, so it gets the text itself. A value that holds a `${secret:…}` placeholder
 * stays inline: the file could only hold the placeholder, never the secret.
 */
class FieldFiles {
  readonly parts: ExportPart[] = [];
  private readonly names = new Map<string, FileNames>();

  take(type: ResourceType, entry: Entry, partPath: string): Entry {
    const rule = moduleOf(type).splitFile;
    const [key, value] = entry;
    if (rule === undefined || value === null || typeof value !== 'object' || Array.isArray(value)) return entry;
    const text = value[rule.field];
    if (typeof text !== 'string' || hasPlaceholder(text)) return entry;
    let names = this.names.get(rule.folder);
    if (names === undefined) this.names.set(rule.folder, (names = new FileNames(type)));
    const path = `${rule.folder}/${names.take(key)}${rule.extension}`;
    this.parts.push({ path, document: {}, content: text.replaceAll('$${', () => '${'), addresses: new Set() });
    const written: JsonObject = {};
    // The file takes the field's place, so the entry's keys keep their order.
    for (const [name, member] of Object.entries(value)) written[name === rule.field ? rule.fileField : name] = name === rule.field ? relativeTo(partPath, path) : member;
    return [key, written];
  }
}

/** A `${` that is not an escaped `$${`: a placeholder export wrote. */
function hasPlaceholder(escaped: string): boolean {
  return escaped.split('${').length - 1 > escaped.split('$${').length - 1;
}

/** `path` (relative to the folder) as the part at `partPath` names it: relative to that part's folder. */
function relativeTo(partPath: string, path: string): string {
  return '../'.repeat(partPath.split('/').length - 1) + path;
}

/** A file per entry of the `each` kinds, and which of those files refer to each name (`export.references`). */
function ownFiles(document: JsonObject, fieldFiles: FieldFiles): { parts: PartBuilder[]; referrers: Map<string, Set<PartBuilder>> } {
  const parts: PartBuilder[] = [];
  const referrers = new Map<string, Set<PartBuilder>>();
  for (const type of RESOURCE_TYPES) {
    const placement = moduleOf(type).splitPart;
    if (!('each' in placement)) continue;
    const fileNames = new FileNames(type);
    for (const [key, value] of Object.entries(objectAt(sectionOf(document, type)))) {
      const part = new PartBuilder(`${placement.each}/${fileNames.take(key)}.yaml`, fieldFiles);
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
