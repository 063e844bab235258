// `agentsync export`: what the server holds → a manifest document for one environment. Pure; the
// kinds say how their records read as manifest entries (Kind.export), this file gives them keys,
// collects secrets and references, and assembles the document. io/ reads the server, render/
// writes the YAML.
import type { JsonObject, JsonValue, Region } from './api-types.js';
import { formatPath } from './diagnostics.js';
import { UserError } from './errors.js';
import { ADDRESS_FIELDS } from './address-references.js';
import { addressOf, isObject, kindOf, RESOURCE_TYPES, type RemoteRecord, type ResourceType } from './kinds/index.js';
import type { ServerSnapshot } from './refresh.js';
import { scanTemplate } from './interpolate.js';
import type { InterpolationSite } from './parse.js';
import { DEFAULT_API_KEY_ENV } from './resolve.js';
import { manifestSchema } from './schema.js';
import { MIN_SCRUB_LENGTH } from './scrub.js';
import { escapeControl } from './terminal-safe.js';

export interface ExportEnvironment {
  name: string;
  appId: string;
  region: Region;
  /** Written only when the manifest gave one that differs from the regional default. */
  baseUrl?: string;
  /** Written only when it is not COMETCHAT_API_KEY. */
  apiKeyEnv?: string;
}

/** A value that was not exported: the variable that must hold it, and where it goes. */
export interface ExportedSecret {
  name: string;
  address: string;
  /** Dotted path inside the resource, e.g. `integrationMeta.headers.Authorization`. */
  path: string;
}

/** A value the manifest read from `${secret:NAME}`: the export writes the placeholder where it finds the value. */
export interface ManifestSecret {
  name: string;
  value: string;
}

/**
 * Every `${secret:NAME}` the manifest's resources read, with its value from `env` (an unset one has
 * none to find). Whatever an environment selects, a secret's value is the same variable's.
 */
export function manifestSecretsOf(sites: readonly InterpolationSite[], env: Readonly<Record<string, string | undefined>>): ManifestSecret[] {
  const found = new Map<string, string>();
  for (const site of sites) {
    if (site.path[0] === 'environments' || !site.template.includes('${secret:')) continue;
    for (const piece of scanTemplate(site.template)) {
      if (typeof piece === 'string' || piece.kind !== 'secret') continue;
      const value = Object.hasOwn(env, piece.name) ? env[piece.name] : undefined;
      if (value !== undefined && value !== '') found.set(piece.name, value);
    }
  }
  return [...found].map(([name, value]) => ({ name, value }));
}

/** A server record export leaves out: its kind, its name (or id) and why. */
export interface LeftOut {
  type: ResourceType;
  name: string;
  why: string;
}

/** A file an exported entry names that the export could not write (an upload's bytes): the user puts it there. */
export interface SuppliedFile {
  type: ResourceType;
  name: string;
  /** As the entry names it, relative to the exported manifest. */
  path: string;
}

/** Resources whose identity the server does not keep unique: `import` needs their remote id. */
export interface SharedIdentity {
  address: string;
  identity: string;
  remoteId: string;
}

export interface ExportedManifest {
  /** version, environments, the kinds' sections and external.tools, every string escaped for interpolation. */
  document: JsonObject;
  secrets: ExportedSecret[];
  counts: Partial<Record<ResourceType, number>>;
  /** Kinds the server cannot list, so nothing of them was exported. */
  unreadable: ResourceType[];
  /** Records the server lists that a manifest cannot hold (Kind.notExported), each with why. */
  leftOut: LeftOut[];
  /** Files the manifest names that the user must put in place (Exportable.suppliedFile). */
  supplied: SuppliedFile[];
  sharedIdentities: SharedIdentity[];
}

export function exportManifest(snapshot: ServerSnapshot, environment: ExportEnvironment, manifestSecrets: readonly ManifestSecret[] = []): ExportedManifest {
  const document: JsonObject = { version: 1, environments: { [environment.name]: environmentEntry(environment) } };
  const secrets: ExportedSecret[] = [];
  // A placeholder named like the API key variable would be refused by every later command (and
  // would read the key into the manifest): those names are never given out.
  const secretNames = new Set<string>([DEFAULT_API_KEY_ENV, environment.apiKeyEnv ?? DEFAULT_API_KEY_ENV, ...manifestSecrets.map((s) => s.name)]);
  const placeholders = placeholderFinder(manifestSecrets);
  const usedManifestSecrets = new Set<string>();
  const counts: ExportedManifest['counts'] = {};
  const unreadable: ResourceType[] = [];
  const leftOut: LeftOut[] = [];
  const supplied: SuppliedFile[] = [];
  const sharedIdentities: SharedIdentity[] = [];
  const exported = new Map<ResourceType, Set<string>>();
  const references = new Set<string>();
  // remote id → address of every record exported so far: a builder agent's knowledge names sources by them (kinds export in apply order, sources first).
  const exportedIds = new Map<string, string>();

  for (const type of RESOURCE_TYPES) {
    const spec = kindOf(type).export;
    const listing = snapshot[type];
    const why = kindOf(type).notExported;
    if (!spec && listing && why !== undefined) {
      for (const record of listing.records) leftOut.push({ type, name: record.identity ?? record.remoteId ?? '?', why });
      continue;
    }
    if (!spec || !listing) {
      unreadable.push(type);
      continue;
    }
    if (!listing.matchable) throw new UserError('api_error', `cannot export: the server lists ${type}s without their ids, so they could not be matched again after an import`);
    const entries: [string, JsonObject][] = [];
    // Escaped, with the manifest's placeholders in, before keys are chosen: an agent's key is a slug
    // of its name, which must not spell a secret.
    const records = listing.records.map((record) => escapeRecord(record, placeholders, spec.renameable));
    const keys = assignKeys(records, type);
    for (const { record, key } of keys) {
      const address = addressOf(type, key);
      for (const name of placeholders.namesIn(record.spec)) {
        if (usedManifestSecrets.has(name)) continue;
        usedManifestSecrets.add(name);
        secrets.push({ name, address, path: pathHolding(record.spec, `\${secret:${name}}`) ?? '' });
      }
      const namer = (path: readonly (string | number)[], label: string): string => {
        const name = uniqueName(`${type}_${key}_${label}`, secretNames);
        secrets.push({ name, address, path: path.join('.') });
        return `\${secret:${name}}`;
      };
      const entry = namedByAddress(type, spec.entry(record, namer), exportedIds, address, (kinds, id) => exportedById(document, kinds, id, exportedIds, counts));
      entries.push([key, entry]);
      const path = spec.suppliedFile === undefined ? undefined : entry[spec.suppliedFile];
      if (typeof path === 'string') supplied.push({ type, name: record.identity ?? key, path });
      if (record.remoteId !== undefined) exportedIds.set(record.remoteId, address);
      for (const name of spec.references?.(entry) ?? []) references.add(name);
    }
    for (const shared of sharedOf(keys, type)) sharedIdentities.push(shared);
    // A kind most apps do not use (its list is read only when used: text entries, files, builder
    // agents) is left out when the server holds none, so such an app exports as it always did; the
    // kinds every plan reads (`tools`, `agents`) are always written.
    if (keys.length === 0 && (kindOf(type).section.length > 1 || kindOf(type).refresh?.onlyWhenUsed === true)) continue;
    // fromEntries: a tool may be named `__proto__`, and must stay a key.
    setIn(document, kindOf(type).section, Object.fromEntries(entries));
    counts[type] = keys.length;
    exported.set(type, new Set(keys.map((k) => k.key)));
  }

  const tools = exported.get('tool') ?? new Set<string>();
  const external = [...references].filter((name) => !tools.has(name)).sort();
  if (external.length > 0) document.external = { tools: external.map(escapeString) };
  assertWritable(document);
  return { document, secrets, counts, unreadable, leftOut, supplied, sharedIdentities };
}

/**
 * The entry with its address fields' ids (a builder agent's attached knowledge) written as the
 * addresses of the exported records they are. An id the export holds no record of is refused: left
 * out, the manifest would say the agent must not have it, and the next apply would detach it.
 */
function namedByAddress(
  type: ResourceType,
  entry: JsonObject,
  exportedIds: ReadonlyMap<string, string>,
  address: string,
  byId: (kinds: readonly ResourceType[], id: string) => string | undefined,
): JsonObject {
  const fields = ADDRESS_FIELDS.get(type);
  if (fields === undefined) return entry;
  const named: JsonObject = { ...entry };
  for (const { field } of fields) {
    const list = entry[field];
    if (!Array.isArray(list)) continue;
    const kinds = fields.find((f) => f.field === field)?.kinds ?? [];
    named[field] = list.map((id) => {
      const to = typeof id === 'string' ? (exportedIds.get(id) ?? byId(kinds, id)) : undefined;
      if (to === undefined) {
        throw new UserError(
          'api_error',
          `cannot export ${address}: its ${field} holds ${escapeControl(String(id))}, which is not a source this export writes (a website, or one of another app), so the manifest could not name it`,
        );
      }
      return to;
    });
  }
  return named;
}

/**
 * An id no exported record has, written as an entry of the one kind among `kinds` that can write
 * itself from an id alone (Kind.exportById: a website an agent attaches, which the API cannot list);
 * its address, or undefined when no kind can. The key is the id's first characters, made unique.
 */
function exportedById(document: JsonObject, kinds: readonly ResourceType[], id: string, exportedIds: Map<string, string>, counts: ExportedManifest['counts']): string | undefined {
  const type = kinds.find((kind) => kindOf(kind).exportById !== undefined);
  const make = type === undefined ? undefined : kindOf(type).exportById;
  if (type === undefined || make === undefined) return undefined;
  const section = kindOf(type).section;
  let map: unknown = document;
  for (const segment of section) map = isObject(map) ? map[segment] : undefined;
  const taken = new Set(isObject(map) ? Object.keys(map) : []);
  const base = `${type}_${id.replace(/[^A-Za-z0-9_$-]/g, '_').slice(0, 12) || 'id'}`;
  let key = base;
  for (let n = 2; taken.has(key); n++) key = `${base}_${n}`;
  setIn(document, [...section, key], make(id));
  const address = addressOf(type, key);
  exportedIds.set(id, address);
  counts[type] = (counts[type] ?? 0) + 1;
  return address;
}

/**
 * A server record the manifest cannot hold (`isActive: "yes"`, a number in `tools`, a tool name the
 * name pattern refuses) would be written as it is, and the file would then fail validate, import
 * and plan: the export is refused instead, naming where, as for a record with a field missing.
 */
function assertWritable(document: JsonObject): void {
  const checked = manifestSchema.safeParse(document);
  if (checked.success) return;
  const [issue] = checked.error.issues;
  const path = issue === undefined ? '' : formatPath(issue.path.map((p) => (typeof p === 'symbol' ? String(p) : p)));
  const why = issue === undefined ? 'it does not validate' : issue.message;
  throw new UserError('api_error', `cannot export: the server's records do not make a valid manifest: ${escapeControl(path)}: ${escapeControl(why)}`);
}

function environmentEntry(environment: ExportEnvironment): JsonObject {
  const entry: JsonObject = { appId: escapeString(environment.appId), region: environment.region };
  if (environment.baseUrl !== undefined) entry.baseUrl = escapeString(environment.baseUrl);
  if (environment.apiKeyEnv !== undefined) entry.apiKeyEnv = environment.apiKeyEnv;
  return entry;
}

interface Keyed {
  record: RemoteRecord;
  key: string;
}

/**
 * Keys in a fixed order, whatever order the server listed the records in: by wanted key, then
 * remote id. The first record that wants a key gets it; later ones get `_2`, `_3`, … (skipping any
 * key some other record wants as it is). A kind whose keys are not renameable must not clash.
 */
function assignKeys(records: readonly RemoteRecord[], type: ResourceType): Keyed[] {
  const spec = kindOf(type).export;
  if (!spec) return [];
  const wanted = records.map((record) => ({ record, want: spec.keyOf(record) }));
  wanted.sort((a, b) => compare(a.want, b.want) || compare(a.record.remoteId ?? '', b.record.remoteId ?? ''));
  const taken = new Set(wanted.map((w) => w.want));
  const given = new Set<string>();
  const keyed: Keyed[] = [];
  for (const { record, want } of wanted) {
    let key = want;
    if (given.has(key)) {
      if (!spec.renameable) throw new UserError('api_error', `cannot export: the server lists two ${type}s named "${want}"`);
      for (let n = 2; given.has(key) || taken.has(key); n++) key = `${want}_${n}`;
    }
    given.add(key);
    keyed.push({ record, key });
  }
  return keyed.sort((a, b) => compare(a.key, b.key));
}

/** Records that share an identity (an agent name used twice): `import` cannot tell them apart by it. */
function sharedOf(keyed: readonly Keyed[], type: ResourceType): SharedIdentity[] {
  const byIdentity = new Map<string, Keyed[]>();
  for (const item of keyed) {
    const identity = item.record.identity;
    if (identity === undefined) continue;
    byIdentity.set(identity, [...(byIdentity.get(identity) ?? []), item]);
  }
  return [...byIdentity]
    .filter(([, items]) => items.length > 1)
    .flatMap(([identity, items]) => items.map(({ record, key }) => ({ address: addressOf(type, key), identity, remoteId: record.remoteId ?? '' })));
}

/** A secret's variable name: upper-case letters, digits and `_`, unique within the export. */
function uniqueName(raw: string, taken: Set<string>): string {
  const base = raw
    .toUpperCase()
    .replace(/[^A-Z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '');
  let name = base;
  for (let n = 2; taken.has(name); n++) name = `${base}_${n}`;
  taken.add(name);
  return name;
}

/** The manifest interpolates every string value, so a literal `${` is written `$${`. */
export function escapeString(text: string): string {
  // A function, because in a replacement string `$$` would itself mean one `$`.
  return text.replaceAll('${', () => '$${');
}

interface Placeholders {
  /** The text as a manifest string: literal `${` escaped, each secret value as its `${secret:NAME}`. */
  write(text: string): string;
  /** The secret names whose placeholders a written value holds. */
  namesIn(value: JsonValue): string[];
}

/** Finds the manifest's secret values in server text (the longest first where two start together). */
function placeholderFinder(manifestSecrets: readonly ManifestSecret[]): Placeholders {
  // A value too short to be told from ordinary text would turn common words into placeholders.
  const known = manifestSecrets.filter((s) => s.value.trim().length >= MIN_SCRUB_LENGTH).sort((a, b) => b.value.length - a.value.length);
  const write = (text: string): string => {
    let out = '';
    let from = 0;
    for (;;) {
      let at = -1;
      let found: ManifestSecret | undefined;
      for (const secret of known) {
        const index = text.indexOf(secret.value, from);
        if (index !== -1 && (at === -1 || index < at)) [at, found] = [index, secret];
      }
      if (found === undefined) return out + escapeString(text.slice(from));
      out += `${escapeString(text.slice(from, at))}\${secret:${found.name}}`;
      from = at + found.value.length;
    }
  };
  const namesIn = (value: JsonValue): string[] => {
    const text = JSON.stringify(value);
    return known.filter((s) => text.includes(`\${secret:${s.name}}`)).map((s) => s.name);
  };
  return { write, namesIn };
}

/** The dotted path of the first string that holds `text`. */
function pathHolding(value: JsonValue, text: string, path: readonly (string | number)[] = []): string | undefined {
  if (typeof value === 'string') return value.includes(text) ? path.join('.') : undefined;
  if (value === null || typeof value !== 'object') return undefined;
  const entries: [string | number, JsonValue][] = Array.isArray(value) ? value.map((item, i) => [i, item]) : Object.entries(value);
  for (const [key, member] of entries) {
    const found = pathHolding(member, text, [...path, key]);
    if (found !== undefined) return found;
  }
  return undefined;
}

function escapeValue(value: JsonValue, placeholders: Placeholders): JsonValue {
  if (typeof value === 'string') return placeholders.write(value);
  if (Array.isArray(value)) return value.map((item) => escapeValue(item, placeholders));
  if (value !== null && typeof value === 'object') {
    // fromEntries defines own properties, so a key like `__proto__` stays data. Keys are never interpolated.
    return Object.fromEntries(Object.entries(value).map(([key, member]) => [key, escapeValue(member, placeholders)]));
  }
  return value;
}

/** A kind keyed by a renameable slug (agents) takes its key from the written name; a tool's key is its name as the server has it. */
function escapeRecord(record: RemoteRecord, placeholders: Placeholders, renameable: boolean): RemoteRecord {
  const escaped: RemoteRecord = { ...record, spec: escapeValue(record.spec, placeholders) as JsonObject };
  if (renameable && record.identity !== undefined) escaped.identity = placeholders.write(record.identity);
  return escaped;
}

function setIn(document: JsonObject, path: readonly string[], value: JsonObject): void {
  let at = document;
  path.forEach((segment, i) => {
    if (i === path.length - 1) {
      at[segment] = value;
      return;
    }
    const next = at[segment];
    if (next === undefined || next === null || typeof next !== 'object' || Array.isArray(next)) at[segment] = {};
    at = at[segment] as JsonObject;
  });
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
