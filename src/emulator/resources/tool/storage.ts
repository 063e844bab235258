// How the emulator's tool store keeps each field of a ToolDto body (the POST and PUT body): where
// the record holds it, and what a write that leaves it out stores. Written from the public
// reference (../shared/reference/public-api-versions.md: the ToolDto row and rules 2 and 4;
// cometchat-api-notes.md: the `_id`; cometchat-agent-builder.md: the stored `tool.parameters`) and
// docs/spec/server.md#what-a-server-may-do, not from the client's tool kind (core/kinds/): the two
// are meant to be able to disagree, so that a wrong belief in the client fails a round trip.
import type { ToolParameters, ToolRecord } from '../../../core/api-types.js';

/** The fields of a ToolDto, with the types a valid body gives them. */
interface ToolDto {
  name: string;
  displayName: string;
  executionText: string;
  doNotExecute: boolean;
  description: string;
  parameters: ToolParameters;
}

interface StoredToolField<T> {
  /**
   * Where the record holds it: at its top (a write replaces it), in the nested `tool` object (which
   * a PUT merges into, rule 2), or both (the name, which a PUT cannot change).
   */
  at: 'record' | 'tool' | 'both';
  /**
   * What a write that leaves the field out stores, when the body may leave it out:
   * - `{ default }`: ToolDto's default, on a PUT as on a create (a top-level field is not merged);
   * - `kept`: the value stored before (a PUT merges into `tool`), and nothing on a create: the store
   *   fills no default, so a tool never sent a description has none.
   */
  whenNotSent?: { readonly default: T } | 'kept';
}

export const STORED_TOOL_FIELDS = {
  // ToolDto's required list: every body sends these three.
  name: { at: 'both' },
  displayName: { at: 'record' },
  executionText: { at: 'record' },
  // ToolDto: "`doNotExecute` default false".
  doNotExecute: { at: 'record', whenNotSent: { default: false } },
  // Rule 4: both are required for an action (doNotExecute false) and optional for a tool.
  description: { at: 'tool', whenNotSent: 'kept' },
  parameters: { at: 'tool', whenNotSent: 'kept' },
} as const satisfies { readonly [K in keyof ToolDto]-?: StoredToolField<ToolDto[K]> };

type StoredToolFields = typeof STORED_TOOL_FIELDS;
type MergedToolField = { [K in keyof StoredToolFields]: StoredToolFields[K] extends { at: 'tool'; whenNotSent: 'kept' } ? K : never }[keyof StoredToolFields];

/** The fields of the nested `tool` that a PUT merges, in the order the record holds them. */
export const MERGED_TOOL_FIELDS: readonly MergedToolField[] = Object.entries(STORED_TOOL_FIELDS)
  .filter(([, stored]) => stored.at === 'tool' && 'whenNotSent' in stored && stored.whenNotSent === 'kept')
  .map(([field]) => field as MergedToolField);

/** Rule 4: the stored `type` follows `doNotExecute` on every write. */
export function storedToolType(doNotExecute: boolean): ToolRecord['type'] {
  return doNotExecute ? 'tool' : 'action';
}

/**
 * Rule 4: a tool (doNotExecute true) may send `parameters` only empty or not at all. Sent empty, the
 * record stores `{}` (and so replaces parameters it held as an action); not sent, they are kept.
 */
export function storedParametersOfTool(): ToolParameters {
  return {};
}

/**
 * Parameters with a `type`: the agent-builder reference shows the stored form as
 * `{type: "object", properties: {}, required: []}`, so `required` is stored as `[]` when not sent;
 * it names a set of properties, which the store keeps sorted and de-duplicated.
 */
export const STORED_PARAMETERS = {
  requiredWhenNotSent: (): string[] => [],
  requiredSorted: true,
} as const;

/** cometchat-api-notes.md: "The response `_id` looks like `<appId>_<name>`". */
export function toolIdFor(appId: string, name: string): string {
  return `${appId}_${name}`;
}
