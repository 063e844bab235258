// An agent as `agentsync export` writes it: keyed by a slug of its name, defaults left out, and
// every value that looks like a credential replaced by a `${secret:NAME}` placeholder.
import type { JsonObject, JsonValue } from '../../api-types.js';
import { UserError } from '../../errors.js';
import { jsonEqual } from '../../json-equal.js';
import { AGENT_FIELDS } from './fields.js';
import { factsOf, isEmptyValue, type SecretFacts } from '../fields.js';
import { isObject, type RemoteRecord, type SecretNamer } from '../kind.js';

/** Keys whose string values are credentials wherever they sit in a field whose facts say so. */
export const CREDENTIAL_KEY = /api[-_ ]?key|token|secret|passw(?:or)?d|pwd|credential|authori[sz]ation|private[-_ ]?key|cookie/i;

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

/**
 * What a person would write (docs/spec/commands.md#export): the table's fields in its order, leaving out what
 * equals absent (a server-filled `""`, `{}`, `[]`) or a default, sets sorted, credentials replaced
 * by placeholders. Bookkeeping is not in the record's spec at all.
 */
export function agentEntry(record: RemoteRecord, secret: SecretNamer): JsonObject {
  const { spec } = record;
  const name = typeof spec.name === 'string' ? spec.name : '';
  const missing = (field: string): never => {
    throw new UserError('api_error', `cannot export agent "${name}" (uid ${record.remoteId ?? '?'}): the server's record has no "${field}"`);
  };
  if (name === '') missing('name');
  if (spec.integrationType !== 'llm' && spec.integrationType !== 'agent') missing('integrationType');
  if (typeof spec.integrateWith !== 'string' || spec.integrateWith === '') missing('integrateWith');
  const entry: JsonObject = {};
  for (const [field, fact] of factsOf(AGENT_FIELDS)) {
    const value = Object.hasOwn(spec, field) ? spec[field] : undefined;
    if (value === undefined || value === null || (fact.empty && isEmptyValue(value))) continue;
    const written = fact.set ? [...new Set(stringsOf(value))].sort() : value;
    if (fact.default && jsonEqual(written, fact.default())) continue;
    entry[field] = fact.secrets && isObject(written) ? hideSecrets(written as JsonObject, [field], secret, fact.secrets) : written;
  }
  return entry;
}

type Path = readonly (string | number)[];

const MANIFEST_PLACEHOLDER = /^\$\{secret:[A-Za-z_][A-Za-z0-9_]*\}$/;

/**
 * A copy with credentials replaced by placeholders, at any depth, arrays included: every string
 * under a key the facts name whole (integrationMeta's `headers`), and every string under a
 * credential-like key. Empty strings stay: there is nothing to hide, and an empty variable could
 * not be told from an unset one.
 */
function hideSecrets(value: JsonValue, path: Path, secret: SecretNamer, facts: SecretFacts, label: readonly (string | number)[] = []): JsonValue {
  if (Array.isArray(value)) return value.map((item, i) => hideSecrets(item, [...path, i], secret, facts, [...label, i + 1]));
  if (!isObject(value)) return value;
  // fromEntries defines own properties, so a key like `__proto__` stays data.
  return Object.fromEntries(
    Object.entries(value).map(([key, member]): [string, JsonValue] => {
      const at = [...path, key];
      const whole = (path.length === 1 && facts.wholeKeys?.includes(key)) || (facts.credentialKeys === true && CREDENTIAL_KEY.test(key));
      // Under a credential-like key everything is hidden, however it is nested (`credentials: {user, pass}`).
      if (whole) return [key, hideAll(member as JsonValue, at, secret, [...label, key])];
      // A label names a placeholder: an object's key starts it afresh, a list keeps its own key and the item's number.
      return [key, hideSecrets(member as JsonValue, at, secret, facts, Array.isArray(member) ? [...label, key] : [])];
    }),
  );
}

/** Every non-empty string inside, named after its path from `label` (`headers.Authorization` → HEADERS_AUTHORIZATION). */
function hideAll(value: JsonValue, path: Path, secret: SecretNamer, label: readonly (string | number)[]): JsonValue {
  // A whole `${secret:NAME}` is the manifest's own placeholder (export-manifest wrote it; a literal
  // `${` from the server is escaped as `$${`): it stays, under the name the manifest gave it.
  if (typeof value === 'string') return value === '' || MANIFEST_PLACEHOLDER.test(value) ? value : secret(path, label.join('_'));
  if (Array.isArray(value)) return value.map((item, i) => hideAll(item, [...path, i], secret, [...label, i + 1]));
  if (isObject(value)) {
    return Object.fromEntries(Object.entries(value).map(([key, member]) => [key, hideAll(member as JsonValue, [...path, key], secret, [...label, key])]));
  }
  return value;
}
