// Server records compared with each other, with no manifest in between: the unmanaged records of
// `diff` (on one server only, or on both) and every record of `diff --live-only`. Records are
// matched by identity (a tool's name, an agent's name) and compared as plan compares: normalized,
// sets as sets, only spec fields (core/kinds/fields.ts readFieldsOf left out ids and timestamps).
import type { JsonValue } from '../api-types.js';
import type { SensitivePath } from '../desired.js';
import { diffFields } from '../field-diff.js';
import { CREDENTIAL_KEY } from '../kinds/agent/export.js';
import { factsOf, type SecretFacts } from '../kinds/fields.js';
import { addressOf, kindOf, RESOURCE_TYPES, TYPE_RANK, type RemoteRecord, type ResourceType } from '../kinds/index.js';
import { isPlainObject, normalizeSpec } from '../normalize.js';
import type { ServerSnapshot } from '../refresh.js';
import type { DiffSummary, EnvironmentInfo, EnvironmentsDiff, FieldRow, ResourceDiff } from './types.js';
import { appendAll } from '../arrays.js';

/** Records of one kind on one server, by identity (the first of several with the same identity). */
export type RecordsByIdentity = Map<string, RemoteRecord>;

/**
 * The records of both servers, matched by identity: identical ones are counted, the others become
 * `only` (on one server) or `differs` (on both). Linear in the number of records.
 */
export function compareRecordSets(
  type: ResourceType,
  infos: readonly [EnvironmentInfo, EnvironmentInfo],
  a: RecordsByIdentity,
  b: RecordsByIdentity,
): { resources: ResourceDiff[]; identical: number } {
  const resources: ResourceDiff[] = [];
  let identical = 0;
  const [envA, envB] = [infos[0].name, infos[1].name];
  for (const [identity, record] of a) {
    const other = b.get(identity);
    const address = addressOfRecord(type, record, identity);
    if (other === undefined) {
      resources.push(onlyOn(type, address, envA, [envA, envB]));
      continue;
    }
    const fields = compareRecords(type, [envA, envB], record, other);
    if (fields.length === 0) identical++;
    else resources.push({ address, type, group: 'differs', sides: [undeclared(envA, true), undeclared(envB, true)], fields });
  }
  for (const [identity, record] of b) if (!a.has(identity)) resources.push(onlyOn(type, addressOfRecord(type, record, identity), envB, [envA, envB]));
  return { resources, identical };
}

/** The field rows of two records: their live values only. */
export function compareRecords(type: ResourceType, environments: readonly [string, string], a: RemoteRecord, b: RemoteRecord): FieldRow[] {
  const before = normalizeSpec(type, a.spec);
  const after = normalizeSpec(type, b.spec);
  const sensitive = [...credentialPaths(type, before), ...credentialPaths(type, after)];
  return diffFields(before, after, sensitive).map((change) => ({
    path: change.path,
    group: 'differs',
    ...(change.sensitive ? { sensitive: true } : {}),
    sides: [
      { environment: environments[0], ...(change.before === undefined ? {} : { live: change.before }) },
      { environment: environments[1], ...(change.after === undefined ? {} : { live: change.after }) },
    ],
  }));
}

/** `diff --live-only`: the two servers directly, every record of a kind that can be listed. */
export function compareLive(infos: readonly [EnvironmentInfo, EnvironmentInfo], snapshots: readonly [ServerSnapshot, ServerSnapshot]): EnvironmentsDiff {
  const resources: ResourceDiff[] = [];
  let identical = 0;
  for (const type of RESOURCE_TYPES) {
    const [a, b] = [snapshots[0][type], snapshots[1][type]];
    if (a === undefined || b === undefined) continue;
    const compared = compareRecordSets(type, infos, byIdentity(a.records), byIdentity(b.records));
    appendAll(resources, compared.resources);
    identical += compared.identical;
  }
  const warnings = RESOURCE_TYPES.filter((type) => kindOf(type).refresh === undefined).map((type) => ({
    environment: infos.map((info) => info.name).join(', '),
    message: `${type}s are not compared with --live-only: the API cannot list them; compare them through the manifest (without --live-only)`,
  }));
  for (const [i, snapshot] of snapshots.entries()) {
    for (const type of RESOURCE_TYPES) {
      const incomplete = snapshot[type]?.incomplete;
      if (incomplete !== undefined) warnings.push({ environment: infos[i]!.name, message: `the server's list of ${type}s ${incomplete}, so it may hold more than was compared` });
    }
  }
  return finishDiff('live-only', infos, resources, identical, warnings, []);
}

export function byIdentity(records: readonly RemoteRecord[]): RecordsByIdentity {
  const map: RecordsByIdentity = new Map();
  for (const record of records) if (record.identity !== undefined && !map.has(record.identity)) map.set(record.identity, record);
  return map;
}

/** Sorts the resources (tools, agents, websites, each by address) and counts them. */
export function finishDiff(
  mode: EnvironmentsDiff['mode'],
  infos: readonly [EnvironmentInfo, EnvironmentInfo],
  resources: ResourceDiff[],
  identical: number,
  warnings: EnvironmentsDiff['warnings'],
  unreadable: EnvironmentsDiff['unreadable'],
): EnvironmentsDiff {
  resources.sort((x, y) => TYPE_RANK[x.type] - TYPE_RANK[y.type] || (x.address < y.address ? -1 : x.address > y.address ? 1 : 0));
  return { mode, environments: [infos[0], infos[1]], resources, summary: summarize(infos, resources, identical), warnings, unreadable };
}

function summarize(infos: readonly [EnvironmentInfo, EnvironmentInfo], resources: readonly ResourceDiff[], identical: number): DiffSummary {
  const summary: DiffSummary = { differ: 0, drift: [0, 0], only: [0, 0], differs: 0, intended: 0, identical };
  const at = (name: string | undefined): 0 | 1 => (name === infos[1].name ? 1 : 0);
  for (const resource of resources) {
    // A resource that drifts may also differ on purpose in another field: it counts in both.
    if (resource.group === 'intended' || resource.fields.some((field) => field.group === 'intended')) summary.intended++;
    if (resource.group === 'intended') continue;
    summary.differ++;
    if (resource.group === 'differs') summary.differs++;
    else if (resource.group === 'only') summary.only[at(resource.onlyIn)]++;
    else for (const name of resource.driftIn ?? []) summary.drift[at(name)]++;
  }
  return summary;
}

function onlyOn(type: ResourceType, address: string, holder: string, environments: readonly [string, string]): ResourceDiff {
  return { address, type, group: 'only', onlyIn: holder, sides: [undeclared(environments[0], environments[0] === holder), undeclared(environments[1], environments[1] === holder)], fields: [] };
}

function undeclared(environment: string, present: boolean): { environment: string; declared: false; present: boolean } {
  return { environment, declared: false, present };
}

/** The address a manifest would give the record (what `export` writes), so the reader can find it. */
export function addressOfRecord(type: ResourceType, record: RemoteRecord, identity: string): string {
  const key = kindOf(type).export?.keyOf(record);
  return addressOf(type, key === undefined || key === '' ? identity : key);
}

/**
 * Where a record holds credentials, by the kind's field facts: a key the facts name whole
 * (integrationMeta's `headers`) and any credential-like key, at any depth. A record has no
 * `${secret:…}` to say so, and its values must not print.
 */
export function credentialPaths(type: ResourceType, spec: Readonly<Record<string, JsonValue>>): SensitivePath[] {
  const paths: SensitivePath[] = [];
  for (const [field, fact] of factsOf(kindOf(type).fields)) {
    if (fact.secrets === undefined || !Object.hasOwn(spec, field)) continue;
    collectCredentials(spec[field] as JsonValue, [field], fact.secrets, paths);
  }
  return paths;
}

function collectCredentials(value: JsonValue, path: (string | number)[], facts: SecretFacts, out: SensitivePath[]): void {
  if (Array.isArray(value)) {
    value.forEach((item, i) => collectCredentials(item, [...path, i], facts, out));
    return;
  }
  if (!isPlainObject(value)) return;
  for (const [key, member] of Object.entries(value)) {
    const whole = (path.length === 1 && facts.wholeKeys?.includes(key) === true) || (facts.credentialKeys === true && CREDENTIAL_KEY.test(key));
    if (whole) out.push([...path, key]);
    else collectCredentials(member, [...path, key], facts, out);
  }
}
