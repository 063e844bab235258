// What every resource kind must say about itself. The pipeline (diff, refresh, import, executor,
// state, renderers) asks the kind and never switches on its name. A kind is a folder
// (kinds/<kind>/), one entry in RESOURCE_TYPES and one line in kinds/registry.ts, and the compiler
// lists whatever is still missing; docs/architecture.md says what is still written per kind.
//
// Calls are described here but not made here: a kind's endpoints run against the `Wire` it is
// handed (io/ supplies one over undici), which keeps this folder free of I/O.
import type { HttpMethod, JsonObject } from '../api-types.js';
import type { FieldTable } from './fields.js';
import { RESOURCE_TYPES, type ResourceType } from './resource-types.js';

export { RESOURCE_TYPES, type ResourceType } from './resource-types.js';

export interface WireRequest {
  method: HttpMethod;
  /** The API path below the base URL, path parameters already percent-encoded. */
  path: string;
  body?: unknown;
  /**
   * A POST that may be sent again when its answer was lost, because the kind handles the
   * "already exists" answer a repeat would get. Other POSTs are retried only when provably unsent.
   */
  repeatable?: boolean;
  /** How long one attempt may wait for its whole answer, when the call's own work takes longer than most (a crawl). */
  timeoutMs?: number;
  /** The largest success answer accepted; the transport's default for the method when absent. */
  maxResponseBytes?: number;
  /** Told the size in bytes of the success answer, for callers that bound what several calls read. */
  onAnswerBytes?: (bytes: number) => void;
}

/**
 * A local file's bytes sent to a URL the server handed out (a presigned storage URL): a PUT,
 * streamed, outside the API, so without the API key. The URL's query is a credential (its
 * signature): it is never shown, in progress lines, errors or logs.
 */
export interface UploadRequest {
  url: string;
  /** The absolute path of the local file. */
  path: string;
  contentType: string;
  bytes: number;
  /** The SHA-256 (hex) the file had when it was planned: a file changed since is not sent whole. */
  digest: string;
}

/** The transport a kind's endpoints run on. A failed call rejects with an error carrying `status` (0 when nothing came back). */
export interface Wire {
  send(request: WireRequest): Promise<unknown>;
  /** Absent on a transport that cannot send files (a client made before uploads existed). */
  upload?(request: UploadRequest): Promise<void>;
}

/**
 * Facts learned during one run that later calls of the same run use (e.g. "this server creates
 * tools with POST"), and the first calls still learning one, which later calls may wait for rather
 * than ask the same question again.
 */
export interface RunMemory {
  facts: Set<string>;
  learning: Map<string, Promise<void>>;
}

export function newRunMemory(): RunMemory {
  return { facts: new Set(), learning: new Map() };
}

export interface CallContext {
  wire: Wire;
  memory: RunMemory;
  /** For a call that is not safe to send twice (a scrape); absent where no state is kept. */
  unrepeatable?: UnrepeatableStep;
  /** For a change that replaces the resource with a new one (a re-crawl); absent where no state is kept. */
  replacement?: ReplacementSteps;
  /** For an update: the spec as the plan found it (the refreshed state's), e.g. which sources an agent holds now. */
  before?: JsonObject;
  /** The remote ids of other resources, for a kind whose fields name them by address (FieldFact.refersToAddresses). */
  references?: ReferenceIds;
  /** The absolute path of the local file the entry names (`file:`), for a call that sends its bytes. */
  localFile?: string;
}

/**
 * Other resources' remote ids, by address. `now` is what to send: an id made or replaced earlier in
 * this run, else the state's. `planned` is the one the address had when the plan was made, which is
 * what the refresh read a reference to it as (so what to take away). Undefined when none is known.
 */
export interface ReferenceIds {
  now(address: string): string | undefined;
  planned(address: string): string | undefined;
}

/**
 * A replacement made in steps (make the new one, finish it, delete the old one), each recorded as
 * it happens so that a failure in a later step never loses the new id or the old one.
 */
export interface ReplacementSteps {
  /**
   * Records, durably, that `newId` now stands for the resource (`recorded` over the plan's spec),
   * and that `oldId` is superseded: kept in the state at its own address with a pending delete,
   * which any later apply finishes, until `superseded` says it is gone.
   */
  replace(newId: string, recorded: JsonObject, oldId: string): Promise<void>;
  superseded(oldId: string): Promise<void>;
}

/** Where a superseded resource waits for its delete: never a manifest address (`~` is not allowed in keys). */
export function supersededAddress(address: string, oldId: string): string {
  return `${address}~${encodeURIComponent(oldId)}`;
}

/** The address a superseded entry's replacement lives at; undefined for any other address. */
export function replacementAddressOf(address: string): string | undefined {
  const at = address.indexOf('~');
  return at > 0 ? address.slice(0, at) : undefined;
}

/**
 * What a kind needs to send a call that must not be repeated blindly (a website's scrape): a
 * pending mark journaled before it leaves, and, when an earlier run's mark is still there, the
 * chance to look the result up on the server and adopt it instead of making a second one.
 */
export interface UnrepeatableStep {
  /** When an earlier run sent this resource's call and never learned the answer; undefined when none did. */
  pendingSince?: string;
  /** Remote ids of this kind the state already holds: never adopted for another address. */
  taken: ReadonlySet<string>;
  /** Journals, durably, that the call is about to leave; await it before sending. */
  mark(): Promise<void>;
}

/** What a create or update left on the server. */
export interface CallOutcome {
  remoteId: string;
  /** Spec fields the call found out (a website's matched URLs), recorded in the state over the plan's. */
  recorded?: JsonObject;
  /** An earlier, interrupted run had made it; it was found on the server and adopted, not made again. */
  adopted?: boolean;
  /** What a change made in several steps did, in order, in the kind's words (`crawled`, `processed`, `old deleted`). */
  steps?: string[];
}

/** One entry of a kind's server list, read into the shape the diff compares. */
export interface RemoteRecord {
  /** The remote id (`_id`, `uid`), when the entry has one. */
  remoteId?: string;
  /** What conflicts and imports match on (a tool's name, an agent's name), when the entry has it. */
  identity?: string;
  /** Only the spec fields this entry carries, in manifest shape. */
  spec: JsonObject;
  /** When the server created it, in ms since the epoch, when the entry says. */
  createdAtMs?: number;
}

/**
 * A list entry as a RemoteRecord: `spec` as the kind read it, and the remote id, the identity and the
 * creation time from the entry's fields of those names, each kept only when the entry has it.
 */
export function recordOf(spec: JsonObject, remoteId: string | undefined, identity: string | undefined, createdAt: unknown): RemoteRecord {
  const record: RemoteRecord = { spec };
  if (remoteId !== undefined) record.remoteId = remoteId;
  if (identity !== undefined) record.identity = identity;
  const createdAtMs = timestampMs(createdAt);
  if (createdAtMs !== undefined) record.createdAtMs = createdAtMs;
  return record;
}

/** Server and local clocks differ; a record our interrupted create made may look slightly older than its pending mark. */
const CLOCK_SKEW_MS = 10 * 60_000;

/**
 * Whether a server record could be the one a create sent at `since` made: created after it (within
 * the clock skew), or of unknown age. The one rule both the refreshed plan and the lookup use.
 */
export function couldBeCreatedSince(record: RemoteRecord, since: string): boolean {
  return record.createdAtMs === undefined || !(record.createdAtMs < Date.parse(since) - CLOCK_SKEW_MS);
}

/** The largest distance from 1970 a Date can hold (ECMA-262 §21.4.1.1); past it, toISOString throws. */
const MAX_DATE_MS = 8.64e15;

/**
 * ISO strings (version A) and integers (version O; seconds or milliseconds) both occur. A number no
 * Date can hold (`1e300` from a broken server) is no time at all: undefined, never a RangeError later.
 */
export function timestampMs(value: unknown): number | undefined {
  if (typeof value === 'number' && Number.isFinite(value)) {
    const ms = value < 1e12 ? value * 1000 : value;
    return Math.abs(ms) <= MAX_DATE_MS ? ms : undefined;
  }
  if (typeof value === 'string') {
    const ms = /^\d+$/.test(value) ? timestampMs(Number(value)) : Date.parse(value);
    return ms !== undefined && Number.isFinite(ms) ? ms : undefined;
  }
  return undefined;
}

/** How a state entry finds its server record: by the remote id, or by the manifest key (a tool's key is its name). */
export type MatchBy = 'remoteId' | 'key';

export interface Refreshable {
  /** The list endpoint: one GET that answers every record of the kind, as a bare array. */
  listPath: string;
  matchBy: MatchBy;
  /** Reads one list entry (an object); undefined when the record is not live (soft-deleted). */
  read(entry: unknown): RemoteRecord | undefined;
  /**
   * Read by a plan only when the manifest or the state holds one of the kind: its list is shared
   * with other kinds (the knowledge base's general list), so an app without any pays no request.
   */
  onlyWhenUsed?: boolean;
}

export interface Kind<Spec extends object = JsonObject> {
  type: ResourceType;
  /** The remote id's name in the API, shown beside updates and forgets. */
  remoteIdLabel: string;
  /** The rule a manifest key of this kind follows (core/schema.ts); a new address (`state mv`) must too. */
  keyPattern: RegExp;
  /** Where the kind's map sits in a manifest (the path before an entry's key), e.g. ['tools']. */
  section: readonly string[];
  /**
   * Whether sending a create again is harmless (a tool's PUT, a website's processing). When it is
   * not (an agent's POST), a create that was sent but never confirmed is looked for on the server
   * before anything is sent again.
   */
  createIsRepeatable: boolean;
  /** Kinds whose changes must all be finished before this kind's start (agents name tools). */
  dependsOn: readonly ResourceType[];
  /**
   * The field facts (docs/spec/server.md#field-facts): wire and read-back names, empty values,
   * defaults, sets, where credentials sit, whether the server returns each. Every stage reads them
   * from here.
   */
  fields: FieldTable<Spec>;
  /** Spec fields whose change makes a new resource and deletes the old one: the plan shows it as a replacement (-/+). */
  replacedBy?: readonly string[];
  /** Brings an already-defaulted spec to its one normal form (beyond defaults and sets); returns the same object when nothing changes. */
  normalizeMore?(spec: JsonObject): JsonObject;
  /** Where the server can be read from; absent when it cannot (websites have no read endpoint). */
  refresh?: Refreshable;
  /**
   * For a kind that cannot be read: `import` records the manifest's spec as applied, with this as
   * its remote id. Only right where sending the call again is harmless, so "as declared" is safe.
   */
  importedRemoteId?: string;
  /**
   * The id other resources name this one by on the server (an agent's attached knowledge), when it
   * is not the remote id (a seed-form website's parentUniqueId); undefined when it has none.
   */
  referenceIdOf?(spec: JsonObject, remoteId: string): string | undefined;
  /** What a desired spec is matched on against untracked server records, for conflicts and import. */
  identityOf?(spec: Spec, key: string): string;
  /**
   * Whether an untracked record of the same identity, made since an interrupted create's pending
   * mark, holds what that create sent (a text entry: the same text), so it may be adopted as the
   * create's. Absent: the identity and the time alone decide. A record that fails it is not adopted
   * (it is somebody else's, a conflict), so nobody's entry is overwritten by a rerun.
   */
  madeBy?(spec: Spec, record: RemoteRecord): boolean;
  create(ctx: CallContext, spec: Spec, key: string): Promise<CallOutcome>;
  /**
   * `changed` names the spec fields that differ from what the server holds (a PATCH sends only
   * those); absent means "send everything" (an adopted create, whose record is unknown).
   */
  update(ctx: CallContext, spec: Spec, key: string, remoteId: string, changed?: ReadonlySet<string>): Promise<CallOutcome>;
  /** Absent when the API cannot delete the kind (`--prune` then only forgets it). */
  remove?: Removal;
  /** Addresses a resource needs to exist first (an agent's tools and actions), for `--target`. */
  needs?(spec: Spec): string[];
  /** How `agentsync export` writes the kind's server records into a manifest; absent when it cannot be read. */
  export?: Exportable;
  /**
   * Why records the server lists cannot be written into a manifest (uploaded files cannot be
   * downloaded): export leaves each out, with a warning naming it. Only for a kind without `export`.
   */
  notExported?: string;
  /**
   * Spec fields no server record shows (a file's content digest): `import` records the manifest's
   * value for them, as applied, so that the next plan compares the manifest with itself there.
   */
  declaredOnImport?: readonly string[];
  /**
   * For a kind whose records cannot be listed (websites): the entry an export writes for one that
   * another record names by id (a builder agent's attached website), so the export can name it
   * rather than refuse. Absent when an id alone cannot make a valid entry.
   */
  exportById?(remoteId: string): JsonObject;
  /** The call a create or update will make, for progress lines before it is sent. */
  describe(action: 'create' | 'update', spec: Spec, key: string, remoteId?: string): string;
}

/** What happened to a resource a DELETE was sent for. */
export type RemoveOutcome = 'deleted' | 'gone';

export interface Removal {
  /** Whether this entry (its stored spec) can be deleted; absent means every entry can. */
  applies?(spec: JsonObject): boolean;
  /** The call, for plans and progress lines before it is sent: `DELETE /ai-agents/tools/x`. */
  describe(remoteId: string, key: string): string;
  /** Sends the DELETE; safe to repeat. A 404 means it is already gone, which is success ('gone'). */
  send(ctx: CallContext, remoteId: string, key: string): Promise<RemoveOutcome>;
}

/** Names a `${secret:NAME}` placeholder for a sensitive value; `label` is what the value is (`HEADERS`). */
export type SecretNamer = (path: readonly (string | number)[], label: string) => string;

export interface Exportable {
  /**
   * The manifest key a server record asks for. `renameable` says whether two records asking for the
   * same key may be told apart with `_2`, `_3` (an agent's key is only its address) or not (a
   * tool's key is its name, which the server keeps unique).
   */
  keyOf(record: RemoteRecord): string;
  renameable: boolean;
  /**
   * The order an export writes an entry's keys in, by the map's path inside the entry ([] is the
   * entry itself): the public reference's order, so an export reads like the documentation. Keys
   * not listed follow, sorted.
   */
  keyOrder: Readonly<Record<string, readonly string[]>>;
  /**
   * The record as a manifest entry, without its key. The record's strings arrive already escaped
   * for the manifest (a literal `${` as `$${`). Sensitive values are replaced by the
   * `${secret:NAME}` placeholder `secret` names; their values are never part of the entry. Throws a
   * UserError when the record lacks what a valid entry needs.
   */
  entry(record: RemoteRecord, secret: SecretNamer): JsonObject;
  /** Tool names the entry refers to; those the export does not hold go to `external.tools`. */
  references?(entry: JsonObject): string[];
  /**
   * The entry's field that names a local file the export cannot write (an upload cannot be
   * downloaded): export warns that the user must put the file there before planning the export.
   */
  suppliedFile?: string;
}

export function addressOf(type: ResourceType, key: string): string {
  return `${type}.${key}`;
}

/** `tool.get_weather` → { type: 'tool', key: 'get_weather' }; undefined for anything else. */
export function parseAddress(address: string): { type: ResourceType; key: string } | undefined {
  const dot = address.indexOf('.');
  if (dot <= 0 || dot === address.length - 1) return undefined;
  const type = address.slice(0, dot);
  const key = address.slice(dot + 1);
  if (!(RESOURCE_TYPES as readonly string[]).includes(type) || /\s/.test(key)) return undefined;
  return { type: type as ResourceType, key };
}

/** The manifest key of an address: everything after the type prefix. */
export function keyOfAddress(address: string): string {
  const dot = address.indexOf('.');
  return dot === -1 ? address : address.slice(dot + 1);
}

/**
 * A create that made something on the server and then failed (a website scraped, its URLs not
 * processed): the executor records the remote id and `recorded` before reporting `cause`, so the
 * next run updates it instead of making a second one.
 */
export class PartlyDone extends Error {
  constructor(
    readonly remoteId: string,
    readonly recorded: JsonObject,
    override readonly cause: unknown,
  ) {
    super(cause instanceof Error ? cause.message : String(cause));
  }
}

/**
 * A 2xx answer that cannot be right; status 200 so callers treat it as "the server answered". Its
 * message says what is wrong with the answer, never the call: the failure line names the call already.
 */
export class UnexpectedAnswer extends Error {
  readonly status = 200;
  readonly code = 'BAD_RESPONSE';
}

export function answeredStatus(err: unknown, status: number): boolean {
  return typeof err === 'object' && err !== null && (err as { status?: unknown }).status === status;
}

export const seg = encodeURIComponent;

/**
 * A DELETE whose 404 means the resource is already gone: deleting is done either way. A 200 that
 * says it was not deleted (`{deleted: false}`, `{success: false}`, the two answers the reference
 * declares, negated) is a failure: the entry stays in state, or the resource would be forgotten
 * while it is still on the server.
 */
export async function sendDelete(ctx: CallContext, path: string): Promise<RemoveOutcome> {
  let answer: unknown;
  try {
    answer = await ctx.wire.send({ method: 'DELETE', path });
  } catch (err) {
    if (answeredStatus(err, 404)) return 'gone';
    throw err;
  }
  if (isObject(answer)) {
    const refused = answer.deleted === false ? '"deleted": false' : answer.success === false ? '"success": false' : undefined;
    if (refused !== undefined) throw new UnexpectedAnswer(`the answer says ${refused}`);
  }
  return 'deleted';
}

export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The value of `key` when it is a non-empty string. */
export function stringField(record: Record<string, unknown>, key: string): string | undefined {
  const value = record[key];
  return typeof value === 'string' && value !== '' ? value : undefined;
}
