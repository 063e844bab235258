// `agentsync import`: which server record each manifest resource adopts, and the state entry that
// records it. Pure; cli/import-run.ts reads the server and writes the state.
import type { JsonObject } from './api-types.js';
import type { Desired, DesiredResource } from './desired.js';
import { UserError } from './errors.js';
import { kindOf, type RemoteRecord } from './kinds/index.js';
import { normalizeSpec } from './normalize.js';
import { redactSpecShared, type Digest } from './redact.js';
import { escapeControl } from './terminal-safe.js';
import type { Refreshed, ServerSnapshot } from './refresh.js';
import type { JournalEntry, ResourceState, State } from './state.js';
import { referenceIdOf, referenceIndex, withAddresses } from './address-references.js';

export interface ImportRequest {
  /** One address, or every manifest resource that is not in the state. */
  address?: string;
  /** Pick this server record instead of matching by identity. */
  remoteId?: string;
}

export interface ImportInput {
  desired: Desired;
  state: State | null;
  snapshot: ServerSnapshot;
  /** The refresh of `state` against `snapshot`: what is untracked. */
  refreshed: Pick<Refreshed, 'untracked'>;
  digest: Digest;
  request: ImportRequest;
  now: string;
}

export interface ImportPlan {
  entries: Extract<JournalEntry, { op: 'applied' }>[];
  /** Manifest resources that matched nothing on the server (only when importing everything). */
  unmatched: string[];
}

export function planImport(input: ImportInput): ImportPlan {
  const { desired, state, request } = input;
  if (request.address !== undefined) {
    const resource = desired.resources.find((r) => r.address === request.address);
    if (!resource) throw new UserError('usage', `${request.address} is not in the manifest; import adopts resources the manifest defines`, { address: request.address });
    if (state?.resources[resource.address]) {
      throw new UserError(
        'usage',
        `${resource.address} is already in the state (remote id ${escapeControl(state.resources[resource.address]?.remoteId ?? '')}); \`agentsync state rm\` it first to adopt another`,
      );
    }
    const declared = declaredEntry(resource, input);
    if (declared) return { entries: [declared], unmatched: [] };
    const record = request.remoteId !== undefined ? byRemoteId(input, resource, request.remoteId) : byIdentity(input, resource);
    if (!record) throw new UserError('usage', `${resource.address}: the server has no ${resource.type} named "${identityOf(resource)}" that the state does not already track`);
    return { entries: withAddressesOf([entryFor(resource, record, input)], state), unmatched: [] };
  }
  const entries: ImportPlan['entries'] = [];
  const unmatched: string[] = [];
  for (const resource of desired.resources) {
    if (state?.resources[resource.address]) continue;
    const declared = declaredEntry(resource, input);
    if (declared) {
      entries.push(declared);
      continue;
    }
    const record = byIdentity(input, resource);
    if (record) entries.push(entryFor(resource, record, input));
    else unmatched.push(resource.address);
  }
  return { entries: withAddressesOf(entries, state), unmatched };
}

/**
 * The entries with their address fields' ids (a builder agent's attached sources, as the server
 * lists them) written as the addresses the state, or this import, knows them by: as the refresh
 * reads them back, so the next plan sees no change outside agentsync.
 */
function withAddressesOf(entries: ImportPlan['entries'], state: State | null): ImportPlan['entries'] {
  const index = referenceIndex(state);
  for (const entry of entries) {
    const id = referenceIdOf({ type: entry.type, remoteId: entry.remoteId, spec: entry.spec } as ResourceState);
    if (id !== undefined && !index.has(id)) index.set(id, entry.address);
  }
  return entries.map((entry) => ({ ...entry, spec: withAddresses(entry.type, entry.spec, () => index) }));
}

function identityOf(resource: DesiredResource): string {
  const kind = kindOf(resource.type);
  return kind.identityOf ? kind.identityOf(resource.spec, resource.key) : resource.key;
}

function readable(resource: DesiredResource, input: ImportInput): RemoteRecord[] {
  const kind = kindOf(resource.type);
  const listing = input.snapshot[resource.type];
  if (!kind.refresh || !listing) {
    throw new UserError('usage', `${resource.address}: ${resource.type}s cannot be read from the server, so they cannot be imported; apply makes them (sending that call again is harmless)`);
  }
  if (!listing.matchable) throw new UserError('api_error', `${resource.address}: the server lists ${resource.type}s without their ids, so none can be imported from this server`);
  return listing.records;
}

/** The one untracked record with the resource's identity; several is an error that lists them. */
function byIdentity(input: ImportInput, resource: DesiredResource): RemoteRecord | undefined {
  readable(resource, input);
  const same = input.refreshed.untracked[resource.type]?.get(identityOf(resource)) ?? [];
  if (same.length <= 1) return same[0];
  const ids = same.map((r) => r.remoteId ?? '?').join(', ');
  const message = `${resource.address}: ${same.length} ${resource.type}s on the server are named "${identityOf(resource)}" (${ids}); pick one with \`agentsync import ${resource.address} <${kindOf(resource.type).remoteIdLabel}>\``;
  throw new UserError('usage', message, { address: resource.address, candidates: same.map((r) => r.remoteId) });
}

function byRemoteId(input: ImportInput, resource: DesiredResource, remoteId: string): RemoteRecord {
  const record =
    input.snapshot[resource.type]?.matchable === false
      ? byNameWithGivenId(input, resource, remoteId)
      : readable(resource, input).find((r) => r.remoteId === remoteId || (kindOf(resource.type).refresh?.matchBy === 'key' && r.identity === remoteId));
  if (!record) throw new UserError('usage', `${resource.address}: the server has no ${resource.type} with ${kindOf(resource.type).remoteIdLabel} ${escapeControl(remoteId)}`);
  const tracked = Object.entries(input.state?.resources ?? {}).find(([, r]) => r.type === resource.type && r.remoteId === (record.remoteId ?? remoteId));
  if (tracked)
    throw new UserError('usage', `${escapeControl(remoteId)} is already in the state as ${escapeControl(tracked[0])}; \`agentsync state mv ${tracked[0]} ${resource.address}\` renames it instead`);
  return record;
}

/**
 * A server that lists records without their ids (one public version lists agents so): the user
 * names the id, and the one record with the resource's name supplies the spec.
 */
function byNameWithGivenId(input: ImportInput, resource: DesiredResource, remoteId: string): RemoteRecord | undefined {
  const records = input.snapshot[resource.type]?.records ?? [];
  const listed = records.find((r) => r.remoteId === remoteId);
  if (listed) return listed;
  const named = records.filter((r) => r.remoteId === undefined && r.identity === identityOf(resource));
  if (named.length > 1) {
    throw new UserError(
      'usage',
      `${resource.address}: ${named.length} ${resource.type}s on the server are named "${identityOf(resource)}" and listed without their ${kindOf(resource.type).remoteIdLabel}, so it cannot tell which is ${escapeControl(remoteId)}; rename or remove the others first`,
      { address: resource.address },
    );
  }
  return named[0] === undefined ? undefined : { ...named[0], remoteId };
}

/** A kind the server cannot show is recorded as the manifest declares it (see Kind.importedRemoteId). */
function declaredEntry(resource: DesiredResource, input: ImportInput): ImportPlan['entries'][number] | undefined {
  const remoteId = kindOf(resource.type).importedRemoteId;
  if (remoteId === undefined) return undefined;
  const spec = normalizeSpec(resource.type, redactSpecShared(resource, input.digest)) as JsonObject;
  return { op: 'applied', address: resource.address, type: resource.type, remoteId, spec, appliedAt: input.now };
}

/** The server's values become the state's, so the next plan shows exactly how the manifest differs. */
function entryFor(resource: DesiredResource, record: RemoteRecord, input: ImportInput): ImportPlan['entries'][number] {
  const spec: JsonObject = {};
  for (const field of kindOf(resource.type).declaredOnImport ?? []) {
    const declared = (resource.spec as JsonObject)[field];
    if (declared !== undefined) spec[field] = declared;
  }
  for (const [field, value] of Object.entries(record.spec)) if (value !== null) spec[field] = value;
  const redacted = redactSpecShared({ spec, sensitive: resource.sensitive.filter((path) => Object.hasOwn(spec, String(path[0]))) }, input.digest);
  return {
    op: 'applied',
    address: resource.address,
    type: resource.type,
    remoteId: record.remoteId ?? record.identity ?? resource.key,
    spec: normalizeSpec(resource.type, redacted) as JsonObject,
    appliedAt: input.now,
  };
}
