// The machine-readable plan (docs/spec/plan-and-apply.md#json-plan): stdout with --json and the
// body of --out files. Keys are built in one fixed order and nested values have sorted keys, so the
// same plan always serializes to the same bytes.
import type { JsonValue, Region } from '../core/api-types.js';
import type { ResourceType, SpecJson } from '../core/desired.js';
import {
  SENSITIVE_PLACEHOLDER,
  type Action,
  type Change,
  type FieldChange,
  type PendingWarning,
  type Plan,
  type PlanMove,
  type PlanSummary,
  type UnreadableResource,
  type WebsiteReport,
} from '../core/plan.js';
import { isDigest, setMember } from '../core/redact.js';
import type { MassRemoval } from '../core/mass-removal.js';
import { massRemovalJson } from './mass-removal.js';
import { jsonDocument } from './json-document.js';

export const PLAN_FORMAT_VERSION = 1;

export interface PlanJsonField {
  path: string;
  before?: JsonValue;
  after?: JsonValue;
  sensitive?: true;
}

export interface PlanJsonChange {
  address: string;
  type: ResourceType;
  action: Action;
  /** Empty for no-ops and forgets. */
  fields: PlanJsonField[];
  /** Absent for creates: nothing exists yet. */
  remoteId?: string;
  /**
   * The whole record before and after the change, with every sensitive value as "(sensitive)": what
   * policy tools (OPA/conftest) read. The side that does not exist is `null` (a create's before, a
   * delete's or forget's after), as in Terraform's JSON; a no-op has neither.
   */
  before?: JsonValue;
  after?: JsonValue;
  /** A create whose identity the server already has, untracked (docs/spec/server.md#no-silent-duplicates). */
  /** `remoteId` is absent when the server listed the record without its id; `movedFrom` marks a rename without `moved:`. */
  conflict?: { remoteId?: string; movedFrom?: string };
  /** A create an interrupted apply already made: it is updated in place instead. */
  adopt?: { remoteId: string };
  /** A create's fields the manifest left out that take an empty default; they stay in `fields` and `after`. */
  defaulted?: string[];
  /** An update that makes a new resource and then deletes the old one (-/+). */
  replace?: true;
  /** A delete or forget of a resource the refresh found already gone: nothing is sent. */
  gone?: true;
  /** A forget under --prune of a kind the API cannot delete. */
  undeletable?: true;
}

export interface PlanJsonDrift {
  address: string;
  type: ResourceType;
  kind: 'changed' | 'deleted';
  fields: PlanJsonField[];
}

export interface PlanJson {
  formatVersion: typeof PLAN_FORMAT_VERSION;
  environment: string;
  appId: string;
  region: Region;
  refreshed: boolean;
  drift: PlanJsonDrift[];
  warnings: string[];
  changes: PlanJsonChange[];
  /** Made with --prune: resources left out of the manifest are deleted, not forgotten. */
  prune: boolean;
  summary: PlanSummary;
  pending: PendingWarning[];
  /** State entries renamed by `moved:` (docs/spec/plan-and-apply.md#renames); absent when none, so other plans keep the documented keys. */
  moves?: PlanMove[];
  /** Websites declared by URL that the refresh read: URL counts and what each exclude glob matches. */
  websites?: WebsiteReport[];
  /** Resources the refresh could not read, left out of `changes`; absent when none. */
  unreadable?: UnreadableResource[];
  /** The plan removes most of what the state manages (docs/spec/plan-and-apply.md#mass-deletion); absent otherwise. */
  massRemoval?: MassRemoval & { message: string };
}

export function planToJson(plan: Plan): PlanJson {
  const { create, update, replace, delete: deletes, forget, noop } = plan.summary;
  return {
    formatVersion: PLAN_FORMAT_VERSION,
    environment: plan.environment,
    appId: plan.appId,
    region: plan.region,
    refreshed: plan.refreshed,
    drift: plan.drift.map(({ address, type, kind, fields }) => ({ address, type, kind, fields: fields.map(fieldToJson) })),
    warnings: [...plan.warnings],
    prune: plan.prune,
    changes: plan.changes.map(changeToJson),
    // `delete` is always present (docs/spec/plan-and-apply.md#json-plan); only --prune plans deletions.
    summary: { create, update, replace, delete: deletes, forget, noop },
    pending: plan.pending.map(({ address, type, since, action }) => ({ address, type, since, action })),
    ...(plan.moves?.length ? { moves: plan.moves.map(({ from, to, type, remoteId }) => ({ from, to, type, remoteId })) } : {}),
    ...(plan.unreadable?.length ? { unreadable: plan.unreadable.map(({ address, type, reason }) => ({ address, type, reason })) } : {}),
    ...(plan.reports?.website?.length ? { websites: plan.reports.website.map(({ address, urls, excluded, globs }) => ({ address, urls, excluded, globs: globs.map((g) => ({ ...g })) })) } : {}),
    ...massRemovalJson(plan),
  };
}

function changeToJson(change: Change): PlanJsonChange {
  const base = { address: change.address, type: change.type, action: change.action };
  switch (change.action) {
    case 'create':
      return {
        ...base,
        fields: change.fields.map(fieldToJson),
        before: null,
        after: recordToJson(change.after),
        ...(change.conflict ? { conflict: { ...change.conflict } } : {}),
        ...(change.adopt ? { adopt: { ...change.adopt } } : {}),
        ...(change.defaulted?.length ? { defaulted: [...change.defaulted] } : {}),
      };
    case 'update':
      return {
        ...base,
        fields: change.fields.map(fieldToJson),
        remoteId: change.remoteId,
        before: recordToJson(change.before),
        after: recordToJson(change.after),
        ...(change.replace ? { replace: true as const } : {}),
      };
    case 'no-op':
      return { ...base, fields: [], remoteId: change.remoteId };
    case 'delete':
      return { ...base, fields: [], remoteId: change.remoteId, before: recordToJson(change.before), after: null, ...(change.gone ? { gone: true as const } : {}) };
    case 'forget':
      return {
        ...base,
        fields: [],
        remoteId: change.remoteId,
        before: recordToJson(change.before),
        after: null,
        ...(change.undeletable ? { undeletable: true as const } : {}),
        ...(change.gone ? { gone: true as const } : {}),
      };
    default: {
      const _exhaustive: never = change;
      throw new Error(`unknown change ${JSON.stringify(_exhaustive)}`);
    }
  }
}

function fieldToJson(field: FieldChange): PlanJsonField {
  const out: PlanJsonField = { path: field.path };
  if (field.before !== undefined) out.before = sortKeys(field.before);
  if (field.after !== undefined) out.after = sortKeys(field.after);
  if (field.sensitive === true) out.sensitive = true;
  return out;
}

/** A plan's record (redacted: sensitive values are digests) with each digest shown as "(sensitive)". */
function recordToJson(spec: SpecJson): JsonValue {
  return sortKeys(maskDigests(spec));
}

function maskDigests(value: JsonValue): JsonValue {
  if (isDigest(value)) return SENSITIVE_PLACEHOLDER;
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map(maskDigests);
  const copy: { [key: string]: JsonValue } = {};
  for (const [key, member] of Object.entries(value)) if (member !== undefined) setMember(copy, key, maskDigests(member));
  return copy;
}

/** A copy with object keys sorted at every depth (array order is data and is kept). */
function sortKeys(value: JsonValue): JsonValue {
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map(sortKeys);
  const sorted: { [key: string]: JsonValue } = {};
  for (const key of Object.keys(value).sort()) {
    const member = value[key];
    if (member === undefined) continue;
    if (key === '__proto__') Object.defineProperty(sorted, key, { value: sortKeys(member), enumerable: true, writable: true, configurable: true });
    else sorted[key] = sortKeys(member);
  }
  return sorted;
}

/** `plan --json`, as printed. */
export function renderPlanJson(plan: Plan): string {
  return jsonDocument(planToJson(plan));
}

/** `show PLANFILE --json`: the saved plan's JSON as it was written, without the file's own checks. */
export function renderSavedPlanJson(planJson: object): string {
  return jsonDocument(planJson);
}
