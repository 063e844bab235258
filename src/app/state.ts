// The state use cases: list it, show one entry, forget one (the resource stays on the server),
// rename one, and copy the whole state to another backend. Each refusal is a UserError with one
// line; the CLI (commands/state.ts) only parses and prints.
import { UserError } from '../core/errors.js';
import { ADDRESS_FORMS, addressProblem, parseAddress } from '../core/kinds/index.js';
import type { MigrateResult, PendingCreate, ResourceState, State } from '../core/state.js';
// Addresses and ids typed by a user or read from a server may hold escape sequences: shown, not obeyed.
import { escapeControl as safe } from '../core/terminal-safe.js';
import type { StateBackend, StateTarget } from '../io/state/index.js';
import { migrateState } from '../io/state/migrate.js';

export interface StateListing {
  /** Null when nothing has been applied yet. */
  state: State | null;
  resources: { address: string; type: string; remoteId: string; appliedAt: string }[];
  pending: { address: string; type: string; since: string; action: 'create' | 'delete' }[];
}

export async function listState(store: StateBackend, target: Partial<StateTarget>): Promise<StateListing> {
  const state = await store.read(target);
  if (!state) return { state, resources: [], pending: [] };
  return {
    state,
    resources: sortedEntries(state.resources).map(([address, r]) => ({ address, type: r.type, remoteId: r.remoteId, appliedAt: r.appliedAt })),
    pending: sortedEntries(state.pending).map(([address, p]) => ({ address, type: p.type, since: p.since, action: p.action ?? 'create' })),
  };
}

export interface StateEntry {
  address: string;
  resource?: ResourceState;
  pending?: PendingCreate;
}

export async function showStateEntry(store: StateBackend, target: Partial<StateTarget>, address: string): Promise<StateEntry> {
  const state = await requireState(store, target, address);
  const resource = state.resources[address];
  const pending = state.pending[address];
  return { address, ...(resource ? { resource } : {}), ...(pending ? { pending } : {}) };
}

export interface Forgotten {
  address: string;
  type: string;
  /** Null for a create that was never confirmed. */
  remoteId: string | null;
}

/** `state rm`: the entry leaves the state under the lock; nothing is sent to the server. */
export async function forgetEntry(store: StateBackend, target: Partial<StateTarget>, address: string, lockTimeoutMs: number): Promise<Forgotten> {
  const before = await requireState(store, target, address);
  const session = await store.open({ environment: before.environment, appId: before.appId, region: before.region }, { lockTimeoutMs });
  try {
    const resource = session.state.resources[address];
    const pending = session.state.pending[address];
    if (!resource && !pending) throw unknownAddress(store, address); // removed by another run meanwhile
    await session.record({ op: 'forgotten', address });
    return { address, type: (resource ?? pending)!.type, remoteId: resource?.remoteId ?? null };
  } finally {
    await session.close();
  }
}

export interface Moved {
  from: string;
  to: string;
  remoteId: string | null;
}

/** `state mv`: the entry is renamed under the lock, so renaming a manifest key is not a delete plus a create. */
export async function moveEntry(store: StateBackend, target: Partial<StateTarget>, from: string, to: string, lockTimeoutMs: number): Promise<Moved> {
  const before = await requireState(store, target, from);
  const fromType = parseAddress(from)?.type;
  const toType = checkAddress(to).type;
  if (fromType !== toType) throw new UserError('usage', `${safe(from)} is ${fromType === 'agent' ? 'an' : 'a'} ${fromType}, so it cannot become ${safe(to)}; an address keeps its type`, { from, to });
  // A target no manifest key can match would leave the entry unreachable (and unprintable).
  const problem = addressProblem(to);
  if (problem !== undefined) throw new UserError('usage', `"${safe(to)}" is not an address a manifest can have: ${problem}`, { address: to });
  const session = await store.open({ environment: before.environment, appId: before.appId, region: before.region }, { lockTimeoutMs });
  try {
    const { resources, pending } = session.state;
    if (!resources[from] && !pending[from]) throw unknownAddress(store, from); // moved by another run meanwhile
    if (resources[to] || pending[to]) throw new UserError('usage', `${safe(to)} is already in ${store.location}; \`agentsync state rm ${safe(to)}\` first if it is stale`, { address: to });
    const remoteId = resources[from]?.remoteId ?? null;
    if (from !== to) await session.record({ op: 'moved', from, to });
    return { from, to, remoteId };
  } finally {
    await session.close();
  }
}

/** `state migrate`: a copy with the same lineage and serial; the source is left as it was. */
export function copyState(from: StateBackend, to: StateBackend, target: Partial<StateTarget>, options: { force: boolean; lockTimeoutMs: number }): Promise<MigrateResult> {
  return migrateState(from, to, target, options);
}

function checkAddress(address: string): { type: string; key: string } {
  const parsed = parseAddress(address);
  if (!parsed) throw new UserError('usage', `"${safe(address)}" is not an address; addresses look like ${ADDRESS_FORMS}`);
  return parsed;
}

/** The state, which must exist and hold `address` (as a resource or a pending create). */
async function requireState(store: StateBackend, target: Partial<StateTarget>, address: string): Promise<State> {
  checkAddress(address);
  const state = await store.read(target);
  if (state === null) throw new UserError('usage', `no state at ${store.location}: nothing has been applied yet`, { state: store.location });
  if (!state.resources[address] && !state.pending[address]) throw unknownAddress(store, address);
  return state;
}

function unknownAddress(store: StateBackend, address: string): UserError {
  return new UserError('usage', `${safe(address)} is not in ${store.location}; \`agentsync state list\` shows the addresses it holds`, { address });
}

function sortedEntries<T>(record: Record<string, T>): [string, T][] {
  return Object.entries(record).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
}
