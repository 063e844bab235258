// The knowledge-base sources the server indexes one by one (text entries, uploads: the kinds whose
// module says `indexed`), for `kb status` and `apply --wait` (docs/spec/knowledge-base.md#kb-status).
// Their status is read by remote id through `POST …/knowledge-base/status/poll`, which the reference
// gives for every source type: one request per POLL_CHUNK sources, whatever the number of them.
import { UserError } from '../core/errors.js';
import { isObject, keyOfAddress, moduleOf, parseAddress, RESOURCE_TYPES, type ResourceType } from '../core/kinds/index.js';
import type { Desired } from '../core/desired.js';
import type { State } from '../core/state.js';
import { closest } from '../core/suggest.js';
import { escapeControl } from '../core/terminal-safe.js';
import type { ApiClient } from '../io/api/client.js';

export const KB_STATUS_POLL_PATH = '/ai-agents/agent-builder/knowledge-base/status/poll';
/** Ids per status-poll request (as for discovered URLs): the body stays small whatever the count. */
export const SOURCE_POLL_CHUNK = 1000;
/** Still being indexed. */
export const SOURCE_UNFINISHED: ReadonlySet<string> = new Set(['indexing']);
/** Indexed: `inSync` is the general list's word for a source whose index is current. */
export const SOURCE_DONE: ReadonlySet<string> = new Set(['indexed', 'inSync']);

export interface KbSourceStatus {
  address: string;
  type: ResourceType;
  uniqueId: string;
  /** The server's word (`indexing`, `indexed`, `failed`, …); absent when the poll did not report the id (deleted on the server). */
  status?: string;
}

export function isIndexedType(type: string | undefined): boolean {
  return (RESOURCE_TYPES as readonly (string | undefined)[]).includes(type) && moduleOf(type as ResourceType).indexed === true;
}

/** Whether `address` names a source of an indexed kind (`text.refunds`), whether or not the state has it. */
export function isSourceAddress(address: string): boolean {
  return isIndexedType(parseAddress(address)?.type);
}

/** The state's indexed sources, by address; or ADDRESS alone, which must be one of them. */
export function sourcesToReport(state: State | null, address?: string): string[] {
  const all = Object.keys(state?.resources ?? {})
    .filter((key) => isIndexedType(state?.resources[key]?.type))
    .sort();
  if (address === undefined || all.includes(address)) return address === undefined ? all : [address];
  const type = parseAddress(address)?.type ?? '';
  const same = all.filter((known) => known.startsWith(`${type}.`));
  const guess = closest(keyOfAddress(address), same.map(keyOfAddress));
  const hint = guess === undefined ? '' : `; did you mean "${type}.${escapeControl(guess)}"?`;
  const known = same.length === 0 ? `the state has no ${type} entries (apply first)` : `the state has ${same.join(', ')}`;
  throw new UserError('usage', `${escapeControl(address)} is not in the state: ${known}${hint}`);
}

/** The manifest's indexed sources the state holds (an apply made them), for `apply --wait`. */
export function sourcesToWaitFor(desired: Desired, state: State | null): string[] {
  return desired.resources.filter((r) => isIndexedType(r.type) && state?.resources[r.address] !== undefined).map((r) => r.address);
}

/** Each source's status, asked in chunks of SOURCE_POLL_CHUNK ids. */
export async function readSourceStatuses(client: ApiClient, state: State, addresses: readonly string[], signal?: AbortSignal): Promise<KbSourceStatus[]> {
  const sources = addresses.flatMap((address) => {
    const entry = state.resources[address];
    return entry === undefined ? [] : [{ address, type: entry.type, uniqueId: entry.remoteId }];
  });
  const statuses = await pollSources(
    client,
    sources.map((s) => s.uniqueId),
    signal,
  );
  return sources.map((source) => {
    const status = statuses.get(source.uniqueId);
    return status === undefined ? source : { ...source, status };
  });
}

/** id → status for the ids the server reported; a status that is not a string is left out (unknown). */
export async function pollSources(client: ApiClient, ids: readonly string[], signal?: AbortSignal): Promise<Map<string, string>> {
  const statuses = new Map<string, string>();
  for (let from = 0; from < ids.length; from += SOURCE_POLL_CHUNK) {
    const chunk = ids.slice(from, from + SOURCE_POLL_CHUNK);
    const answer = await client.request({ method: 'POST', path: KB_STATUS_POLL_PATH, body: { uniqueId: chunk }, repeatable: true }, signal ? { signal } : {});
    const data = isObject(answer) && isObject(answer.data) ? answer.data : undefined;
    if (data === undefined) throw new UserError('api_error', `POST ${KB_STATUS_POLL_PATH} did not answer {data: {id: status}}`);
    for (const id of chunk) {
      const status = Object.hasOwn(data, id) ? data[id] : undefined;
      if (typeof status === 'string') statuses.set(id, status);
    }
  }
  return statuses;
}
