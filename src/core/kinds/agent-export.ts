// An agent as `agentsync export` writes it: keyed by a slug of its name, defaults left out, and
// every value that looks like a credential replaced by a `${secret:NAME}` placeholder.
import type { JsonObject, JsonValue } from '../api-types.js';
import { UserError } from '../errors.js';
import { isObject, type RemoteRecord, type SecretNamer } from './kind.js';

/** Optional fields written as the server has them (an empty list is not the same as none: it is sent). */
const KEPT_AS_IS = ['icon', 'instruction', 'suggestions'] as const;
/** Set-like lists: sorted and de-duplicated, as the manifest compares them. */
const SETS = ['tools', 'actions', 'platformTools'] as const;
/** Lists whose default is [] (so an empty one is left out). */
const DEFAULT_EMPTY: ReadonlySet<string> = new Set(['tools', 'actions']);
/** Keys whose string values are credentials wherever they sit in integrationMeta or metaData. */
const CREDENTIAL_KEY = /api[-_ ]?key|token|secret|passw(?:or)?d|pwd|credential|authori[sz]ation|private[-_ ]?key|cookie/i;

/**
 * `Support Desk (EU)` → `support_desk_eu`: lower-case ASCII letters, digits and `_`. Accents are
 * dropped; a name with nothing left becomes `agent`.
 */
export function slugOf(name: string): string {
  const slug = name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '');
  return slug === '' ? 'agent' : slug;
}

export function stringsOf(value: JsonValue | undefined): string[] {
  return Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : [];
}

export function agentEntry(record: RemoteRecord, secret: SecretNamer): JsonObject {
  const { spec } = record;
  const name = typeof spec.name === 'string' ? spec.name : '';
  const missing = (field: string): never => {
    throw new UserError('api_error', `cannot export agent "${name}" (uid ${record.remoteId ?? '?'}): the server's record has no "${field}"`);
  };
  if (name === '') missing('name');
  if (spec.integrationType !== 'llm' && spec.integrationType !== 'agent') missing('integrationType');
  if (typeof spec.integrateWith !== 'string' || spec.integrateWith === '') missing('integrateWith');
  const entry: JsonObject = { name, integrationType: spec.integrationType as string, integrateWith: spec.integrateWith as string };
  if (spec.isActive === false) entry.isActive = false;
  for (const field of SETS) {
    const list = [...new Set(stringsOf(spec[field]))].sort();
    if (spec[field] === undefined || spec[field] === null || (list.length === 0 && DEFAULT_EMPTY.has(field))) continue;
    entry[field] = list;
  }
  for (const field of KEPT_AS_IS) if (spec[field] !== undefined && spec[field] !== null) entry[field] = spec[field];
  const meta = spec.integrationMeta;
  if (isObject(meta)) entry.integrationMeta = hideSecrets(meta as JsonObject, ['integrationMeta'], secret, 'headers');
  const metaData = spec.metaData;
  if (isObject(metaData)) entry.metaData = hideSecrets(metaData as JsonObject, ['metaData'], secret);
  return entry;
}

type Path = readonly (string | number)[];

/**
 * A copy with credentials replaced by placeholders: every string inside `wholeKey` (integrationMeta's
 * `headers`, always sensitive), and every string under a credential-like key. Empty strings stay:
 * there is nothing to hide, and an empty variable could not be told from an unset one.
 */
function hideSecrets(object: JsonObject, path: Path, secret: SecretNamer, wholeKey?: string): JsonObject {
  // fromEntries defines own properties, so a key like `__proto__` stays data.
  return Object.fromEntries(
    Object.entries(object).map(([key, value]): [string, JsonValue] => {
      const at = [...path, key];
      if (key === wholeKey) return [key, hideAll(value, at, secret, [key])];
      // Under a credential-like key everything is hidden, however it is nested (`credentials: {user, pass}`).
      if (CREDENTIAL_KEY.test(key)) return [key, hideAll(value, at, secret, [key])];
      if (isObject(value)) return [key, hideSecrets(value as JsonObject, at, secret)];
      return [key, value];
    }),
  );
}

/** Every non-empty string inside, named after its path from `label` (`headers.Authorization` → HEADERS_AUTHORIZATION). */
function hideAll(value: JsonValue, path: Path, secret: SecretNamer, label: readonly (string | number)[]): JsonValue {
  if (typeof value === 'string') return value === '' ? value : secret(path, label.join('_'));
  if (Array.isArray(value)) return value.map((item, i) => hideAll(item, [...path, i], secret, [...label, i + 1]));
  if (isObject(value)) {
    return Object.fromEntries(Object.entries(value).map(([key, member]) => [key, hideAll(member as JsonValue, [...path, key], secret, [...label, key])]));
  }
  return value;
}
