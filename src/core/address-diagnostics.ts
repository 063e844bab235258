// validate's check of the fields whose items are addresses (FieldFact.refersToAddresses: a builder
// agent's `knowledge`): each must name an entry of one of the kinds the field takes, in this
// manifest and, for an environment, one that exists there (its `environments:`). One line per item
// at its file:line:col, with a did-you-mean, as an agent's unknown tools get (core/references.ts).
import type { Diagnostic } from './diagnostics.js';
import { ADDRESS_FIELDS } from './address-references.js';
import { MANIFEST_SECTIONS, moduleOf, parseAddress, type ResourceType } from './kinds/index.js';
import { existsIn } from './resource-environments.js';
import { didYouMean } from './suggest.js';
import type { ManifestLocator } from './yaml-locate.js';

/** `environment`: the one being resolved; undefined checks against every entry whatever its `environments:`. */
export function addressFieldDiagnostics(tree: Record<string, unknown>, environment: string | undefined, locator: ManifestLocator): Diagnostic[] {
  const diagnostics: Diagnostic[] = [];
  for (const [type, fields] of ADDRESS_FIELDS) {
    const section = MANIFEST_SECTIONS[type];
    for (const [key, entry] of Object.entries(mapAt(tree, section))) {
      if (!isPlainObject(entry) || (environment !== undefined && !existsIn(environmentsOf(entry), environment))) continue;
      for (const { field, kinds } of fields) {
        const list = entry[field];
        if (!Array.isArray(list)) continue;
        const known = entriesOf(tree, kinds);
        list.forEach((item, i) => {
          const problem = typeof item === 'string' ? itemProblem(item, field, kinds, known, environment) : undefined;
          if (problem !== undefined) diagnostics.push(locator.diagnostic([...section, key, field, i], problem));
        });
      }
    }
  }
  return diagnostics;
}

/** address → the entry's `environments:` (undefined: every environment). */
type Entries = Map<string, readonly string[] | undefined>;

function itemProblem(item: string, field: string, kinds: readonly ResourceType[], known: Entries, environment: string | undefined): string | undefined {
  const forms = kinds.map((kind) => moduleOf(kind).addressForm).join(', ');
  const parsed = parseAddress(item);
  if (parsed === undefined || !kinds.includes(parsed.type)) return `"${item}" cannot be in ${field}: it takes addresses of ${forms}${didYouMean(item, known.keys())}`;
  if (!known.has(item)) return `unknown ${field} address "${item}": this manifest has no such entry${didYouMean(item, known.keys())}`;
  const only = known.get(item);
  if (environment === undefined || existsIn(only, environment)) return undefined;
  return `${item} does not exist in environment "${environment}" (it has environments: [${(only ?? []).join(', ')}]), but this entry does; add "${environment}" to its environments, or limit this entry with environments:`;
}

function entriesOf(tree: Record<string, unknown>, kinds: readonly ResourceType[]): Entries {
  const entries: Entries = new Map();
  for (const kind of kinds) {
    for (const [key, entry] of Object.entries(mapAt(tree, MANIFEST_SECTIONS[kind]))) entries.set(`${kind}.${key}`, isPlainObject(entry) ? environmentsOf(entry) : undefined);
  }
  return entries;
}

function environmentsOf(entry: Record<string, unknown>): readonly string[] | undefined {
  const list = entry.environments;
  return Array.isArray(list) ? list.filter((name): name is string => typeof name === 'string') : undefined;
}

function mapAt(tree: Record<string, unknown>, section: readonly string[]): Record<string, unknown> {
  let at: unknown = tree;
  for (const segment of section) at = isPlainObject(at) ? at[segment] : undefined;
  return isPlainObject(at) ? at : {};
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}
