// Where the public versions of CometChat's AI Agents reference disagree, or where the seed interface
// reads differently, the emulator answers one way at a time. These switches pick the reading, at
// start-up (startEmulator options) or at runtime (`POST /__emulator/config`), so a client can be
// tested against each.
import { badRequest } from './errors.js';
import type { JsonObject, WireTimestamp } from '../core/api-types.js';

export type CreateStatus = 200 | 201;
export type TimestampForm = 'iso' | 'epoch';
export type AgentListForm = 'full' | 'no-uid' | 'sparse';
/** Which of an Agent Builder agent's arrays an attached knowledge-base id goes into. */
export type KbAttachArrays = 'split' | 'files';

export interface ServerMode {
  /** The seed's reading: `PUT /ai-agents/tools/{name}` creates an unknown tool instead of 404. */
  putCreates: boolean;
  /** What creating a tool or an agent answers: 200 (version A) or 201 (version O). */
  createStatus: CreateStatus;
  /** Tool and agent timestamps: ISO 8601 strings (A) or integer milliseconds (O). */
  timestamps: TimestampForm;
  /**
   * `GET /ai-agents/agents` entries: whole records; version A's `{name, description, deploymentUrl,
   * apiKey}`; or `sparse`, whole records without the fields the emulator's own storage facts say a
   * server may leave out (`suggestions`, the platform tools: resources/agent/storage.ts), as docs/spec/server.md#what-a-server-may-do allows.
   */
  agentList: AgentListForm;
  /**
   * Store exactly what was sent (the old echo), instead of storing like a document database
   * (docs/spec/emulator.md#stores-like-a-server): defaults filled in, `cometchatTools` returned,
   * sets sorted, `_id`/`__v` added, `null` refused with 400.
   */
  storeAsSent: boolean;
  /**
   * Where `…/knowledge-base/{sourceType}/add` puts the ids, which the reference leaves open: `split`
   * puts uploads and text entries in the agent's `files` and websites in `websites`; `files` puts
   * every id in `files`.
   */
  kbAttachArrays: KbAttachArrays;
}

/** Version A of the public reference (the one with every operation), with full agent lists. */
export const DEFAULT_MODE: Readonly<ServerMode> = Object.freeze({ putCreates: false, createStatus: 200, timestamps: 'iso', agentList: 'full', storeAsSent: false, kbAttachArrays: 'split' });

export const MODE_KEYS: ReadonlySet<string> = new Set(Object.keys(DEFAULT_MODE));

const CREATE_STATUSES: readonly CreateStatus[] = [200, 201];
const TIMESTAMP_FORMS: readonly TimestampForm[] = ['iso', 'epoch'];
const AGENT_LIST_FORMS: readonly AgentListForm[] = ['full', 'no-uid', 'sparse'];
const KB_ATTACH_ARRAYS: readonly KbAttachArrays[] = ['split', 'files'];

/** Problems with mode values given to startEmulator, as short phrases; empty when all are valid. */
export function modeOptionProblems(options: Partial<Record<keyof ServerMode, unknown>>): string[] {
  const problems: string[] = [];
  const { putCreates, createStatus, timestamps, agentList, storeAsSent, kbAttachArrays } = options;
  if (putCreates !== undefined && typeof putCreates !== 'boolean') problems.push("'putCreates' must be a boolean");
  if (storeAsSent !== undefined && typeof storeAsSent !== 'boolean') problems.push("'storeAsSent' must be a boolean");
  if (createStatus !== undefined && !CREATE_STATUSES.includes(createStatus as CreateStatus)) problems.push("'createStatus' must be 200 or 201");
  if (timestamps !== undefined && !TIMESTAMP_FORMS.includes(timestamps as TimestampForm)) problems.push(`'timestamps' must be "iso" or "epoch"`);
  if (agentList !== undefined && !AGENT_LIST_FORMS.includes(agentList as AgentListForm)) problems.push(`'agentList' must be "full", "no-uid" or "sparse"`);
  if (kbAttachArrays !== undefined && !KB_ATTACH_ARRAYS.includes(kbAttachArrays as KbAttachArrays)) problems.push(`'kbAttachArrays' must be "split" or "files"`);
  return problems;
}

/** The mode keys of a `/__emulator/config` body; a bad value is a 400 that names the key. */
export function parseModeChanges(object: JsonObject): Partial<ServerMode> {
  const problems = modeOptionProblems(object);
  if (problems.length > 0) throw badRequest(`${problems.join('; ')}.`);
  const changes: Partial<ServerMode> = {};
  if (object.putCreates !== undefined) changes.putCreates = object.putCreates as boolean;
  if (object.createStatus !== undefined) changes.createStatus = object.createStatus as CreateStatus;
  if (object.timestamps !== undefined) changes.timestamps = object.timestamps as TimestampForm;
  if (object.agentList !== undefined) changes.agentList = object.agentList as AgentListForm;
  if (object.storeAsSent !== undefined) changes.storeAsSent = object.storeAsSent as boolean;
  if (object.kbAttachArrays !== undefined) changes.kbAttachArrays = object.kbAttachArrays as KbAttachArrays;
  return changes;
}

/**
 * Records keep ISO 8601 timestamps (so the data file never depends on the mode); an answer writes
 * them in the form the mode claims. Epoch timestamps are milliseconds: lossless against the ISO form,
 * and updatedAt still moves on every write.
 */
export function wireTimestamp(iso: string, mode: Pick<ServerMode, 'timestamps'>): WireTimestamp {
  return mode.timestamps === 'epoch' ? Date.parse(iso) : iso;
}
