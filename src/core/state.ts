// The state file's format and the pure operations on it. io/state/ does the reading, locking,
// journaling and atomic writing; everything here is data in, data out.
import * as z from 'zod/mini';
import './zod.js';
import { REGIONS, type JsonObject, type Region } from './api-types.js';
import { RESOURCE_TYPES, type ResourceType } from './kinds/kind.js';

export const STATE_VERSION = 1;

const resourceType = z.enum(RESOURCE_TYPES);
// A plain-object check, not a per-key record schema: specs were validated when they were planned,
// and validating every nested key made reading a 10,000-resource state three times slower.
const jsonObject = z.custom<JsonObject>((value) => typeof value === 'object' && value !== null && !Array.isArray(value), { message: 'must be an object' });

export const resourceStateSchema = z.strictObject({
  type: resourceType,
  /** Tool `_id`, agent `uid` or website `batchId`. */
  remoteId: z.string().check(z.minLength(1)),
  /** The applied spec, normalized, with each sensitive value replaced by its keyed digest. */
  spec: jsonObject,
  appliedAt: z.string(),
});

export const pendingCreateSchema = z.strictObject({
  type: resourceType,
  /** When the call was sent. */
  since: z.string(),
  /** Absent for a create (the original meaning); `delete` for a `--prune` DELETE. */
  action: z.optional(z.literal('delete')),
});

export const stateSchema = z.strictObject({
  version: z.literal(STATE_VERSION),
  lineage: z.uuid(),
  serial: z.int().check(z.nonnegative()),
  environment: z.string().check(z.minLength(1)),
  appId: z.string().check(z.minLength(1)),
  region: z.enum(REGIONS),
  /** Random per-state key for the HMAC-SHA256 digests of sensitive values (base64). */
  salt: z.string().check(z.minLength(16)),
  resources: z.record(z.string(), resourceStateSchema),
  pending: z.record(z.string(), pendingCreateSchema),
});

export type ResourceState = z.infer<typeof resourceStateSchema>;
export type PendingCreate = z.infer<typeof pendingCreateSchema>;
export type State = z.infer<typeof stateSchema>;

/**
 * One durable fact, appended to the journal as soon as it is known and folded into the state.
 * - `pending`: a create was sent (written before the POST leaves), or with `action: 'delete'` a
 *   DELETE (written before it leaves; `forgotten` follows once it is done).
 * - `applied`: a create or update succeeded (clears any pending entry of that address).
 * - `forgotten`: the address is dropped from state.
 * - `pending-cleared`: the create provably did not happen (e.g. the POST was refused).
 * - `moved`: the address was renamed (`state mv`); the resource and any pending mark move with it.
 */
export type JournalEntry =
  | { op: 'pending'; address: string; type: ResourceType; since: string; action?: 'delete' }
  | { op: 'applied'; address: string; type: ResourceType; remoteId: string; spec: JsonObject; appliedAt: string }
  | { op: 'forgotten'; address: string }
  | { op: 'moved'; from: string; to: string }
  | { op: 'pending-cleared'; address: string };

export interface NewStateInput {
  environment: string;
  appId: string;
  region: Region;
  lineage: string;
  salt: string;
}

export function emptyState(input: NewStateInput): State {
  return { version: STATE_VERSION, serial: 0, resources: {}, pending: {}, ...input };
}

/** Folds one journal entry into the state in place; O(1). Returns the same object. */
export function foldEntry(state: State, entry: JournalEntry): State {
  switch (entry.op) {
    case 'pending':
      state.pending[entry.address] = entry.action === undefined ? { type: entry.type, since: entry.since } : { type: entry.type, since: entry.since, action: entry.action };
      break;
    case 'applied':
      state.resources[entry.address] = { type: entry.type, remoteId: entry.remoteId, spec: entry.spec, appliedAt: entry.appliedAt };
      delete state.pending[entry.address];
      break;
    case 'forgotten':
      delete state.resources[entry.address];
      delete state.pending[entry.address];
      break;
    case 'pending-cleared':
      delete state.pending[entry.address];
      break;
    case 'moved': {
      const resource = state.resources[entry.from];
      const pending = state.pending[entry.from];
      delete state.resources[entry.from];
      delete state.pending[entry.from];
      if (resource) state.resources[entry.to] = resource;
      if (pending) state.pending[entry.to] = pending;
      break;
    }
    default: {
      const _exhaustive: never = entry;
      throw new Error(`unknown journal entry ${JSON.stringify(_exhaustive)}`);
    }
  }
  return state;
}

/** What `state migrate` copied, from where to where. */
export interface MigrateResult {
  from: string;
  to: string;
  environment: string;
  lineage: string;
  serial: number;
  resources: number;
  pending: number;
}
