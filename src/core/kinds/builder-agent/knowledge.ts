// An agent's `knowledge:` (docs/spec/plan-and-apply.md#knowledge-attachments): addresses of
// knowledge-base sources in the manifest, remote ids on the server. Create and update send no
// knowledge field; attachments go through `PATCH …/agents/{uid}/knowledge-base/{sourceType}/add`
// and `…/remove` with `{uniqueIds}`. The ids come from the run (a source made or replaced earlier
// in the same apply) or the state (CallContext.references); what to detach is what the refresh
// read (CallContext.before), each item an address the state knew, or a bare id it did not.
import type { JsonObject } from '../../api-types.js';
import { isObject, parseAddress, replacementAddressOf, seg, UnexpectedAnswer, type CallContext } from '../kind.js';

export const AGENTS_PATH = '/ai-agents/agent-builder/agents';

/** The path's `{sourceType}` for each kind of source an agent may name. */
const SOURCE_TYPE_OF: Readonly<Record<string, string>> = { website: 'website', text: 'text', file: 'uploads' };

/** A server that keeps the kinds apart says nothing of an id it holds that no state entry knows: it is detached under each. */
const EVERY_SOURCE_TYPE = [...new Set(Object.values(SOURCE_TYPE_OF))].sort();

/** One attach or detach call: the ids of one source type. */
interface KnowledgeCall {
  action: 'add' | 'remove';
  sourceType: string;
  ids: string[];
}

/** The ids a server record's `files` and `websites` hold, together: servers differ in which array a source type fills. */
export function attachedIdsOf(entry: Record<string, unknown>): string[] {
  const ids = new Set<string>();
  for (const name of ['files', 'websites']) {
    const list = entry[name];
    if (Array.isArray(list)) for (const id of list) if (typeof id === 'string' && id !== '') ids.add(id);
  }
  return [...ids].sort();
}

/**
 * The calls that take the agent from `before` (as the refresh read it; [] for a new agent) to
 * `after` (the manifest's addresses): adds first, so the agent is never left with less than both.
 */
export function knowledgeCalls(ctx: CallContext, before: readonly string[], after: readonly string[]): KnowledgeCall[] {
  const wanted = new Map<string, string>();
  for (const address of after) wanted.set(idNow(ctx, address), address);
  const held = new Map<string, string>();
  for (const item of before) held.set(idAsRead(ctx, item), item);
  const adds = new Map<string, string[]>();
  const removes = new Map<string, string[]>();
  for (const [id, address] of wanted) if (!held.has(id)) push(adds, sourceTypeOf(address) ?? '', id);
  for (const [id, item] of held) {
    // A source this apply replaces (`file.handbook~<old id>`) is deleted by its replacement, earlier in
    // the same apply, and the server's delete detaches it from every agent: a remove would name an id
    // that no longer exists.
    if (wanted.has(id) || isSuperseded(item)) continue;
    const type = sourceTypeOf(item);
    for (const sourceType of type === undefined ? EVERY_SOURCE_TYPE : [type]) push(removes, sourceType, id);
  }
  return [...callsOf('add', adds), ...callsOf('remove', removes)];
}

/**
 * What the calls did, for the progress line (`POST, attached 4 sources, 12 ms`): the last call alone
 * would name an attach as if it were the whole change.
 */
export function knowledgeSteps(calls: readonly KnowledgeCall[]): string[] {
  const count = (action: KnowledgeCall['action']) => new Set(calls.filter((call) => call.action === action).flatMap((call) => call.ids)).size;
  const said = (verb: string, n: number) => (n === 0 ? [] : [`${verb} ${n} ${n === 1 ? 'source' : 'sources'}`]);
  return [...said('attached', count('add')), ...said('detached', count('remove'))];
}

export async function sendKnowledgeCalls(ctx: CallContext, uid: string, calls: readonly KnowledgeCall[]): Promise<void> {
  for (const call of calls) {
    const answer = await ctx.wire.send({ method: 'PATCH', path: `${AGENTS_PATH}/${seg(uid)}/knowledge-base/${seg(call.sourceType)}/${call.action}`, body: { uniqueIds: call.ids } as JsonObject });
    if (isObject(answer) && answer.success === false) throw new UnexpectedAnswer('the answer says "success": false');
  }
}

/** The id to attach for a manifest address: made earlier in this run, or the state's. */
function idNow(ctx: CallContext, address: string): string {
  const id = ctx.references?.now(address);
  if (id === undefined) throw new NotAttachable(`${address} has no remote id (it was never applied, or was imported without one): it cannot be attached`);
  return id;
}

/** A source the run cannot name by id: this agent's change fails, nothing was sent for it. */
class NotAttachable extends Error {
  readonly status = 0;
  readonly code = 'NOT_ATTACHABLE';
}

/** The id an item the refresh read stands for: the one its address had then, or the bare id it is. */
function idAsRead(ctx: CallContext, item: string): string {
  if (parseAddress(item) === undefined) return item;
  // A source the plan replaces stands for its old id: `file.handbook~<old id>` (core/address-references.ts).
  const at = item.indexOf('~');
  if (at > 0) return decodeURIComponent(item.slice(at + 1));
  return ctx.references?.planned(item) ?? item;
}

function isSuperseded(item: string): boolean {
  return parseAddress(item) !== undefined && replacementAddressOf(item) !== undefined;
}

function sourceTypeOf(item: string): string | undefined {
  const type = parseAddress(item)?.type;
  return type === undefined ? undefined : SOURCE_TYPE_OF[type];
}

function push(map: Map<string, string[]>, key: string, id: string): void {
  const list = map.get(key);
  if (list === undefined) map.set(key, [id]);
  else list.push(id);
}

function callsOf(action: 'add' | 'remove', byType: ReadonlyMap<string, string[]>): KnowledgeCall[] {
  return [...byType.keys()].sort().map((sourceType) => ({ action, sourceType, ids: [...(byType.get(sourceType) ?? [])].sort() }));
}

export function knowledgeOf(spec: { knowledge?: readonly string[] | undefined } | JsonObject | undefined): string[] {
  const list = spec?.knowledge;
  return Array.isArray(list) ? list.filter((item): item is string => typeof item === 'string') : [];
}
