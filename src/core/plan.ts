// The plan: a discriminated union of changes, each with field-level paths. Pure data; the diff
// (diff.ts) builds it, render/ prints it, io/apply/executor.ts carries it out.
import type { JsonValue, Region } from './api-types.js';
import type { ResourceType, SpecJson } from './desired.js';

export type Action = 'create' | 'update' | 'no-op' | 'delete' | 'forget';

/** One changed field. `before`/`after` are absent when the field is absent on that side. */
export interface FieldChange {
  /** Dotted path inside the spec, e.g. `parameters.properties.city.description`. */
  path: string;
  before?: JsonValue;
  after?: JsonValue;
  /** True when either side is sensitive; before/after then hold "(sensitive)". */
  sensitive?: boolean;
  /** One item added to or removed from a set of addresses (`+ knowledge: file.handbook`): shown as it is, not as JSON. */
  item?: boolean;
}

interface ChangeBase<A extends Action> {
  action: A;
  type: ResourceType;
  address: string;
  key: string;
}

/** Specs inside a plan are redacted: sensitive values are replaced by their digests. */
export interface CreateChange extends ChangeBase<'create'> {
  after: SpecJson;
  fields: FieldChange[];
  /**
   * The identity already exists on the server, untracked: apply refuses until it is imported. With
   * `movedFrom`, it is the resource leaving the manifest at that address (a rename without `moved:`).
   * `remoteId` is absent when the server lists the record without its id: only the user can name it.
   */
  conflict?: { remoteId?: string; movedFrom?: string };
  /** An interrupted create of ours made this one: it is updated into place instead of created again. */
  adopt?: { remoteId: string };
  /** Fields in `fields` the manifest left out that take an empty default (`tools: []`): the text and markdown plans do not list them. */
  defaulted?: string[];
}
export interface UpdateChange extends ChangeBase<'update'> {
  remoteId: string;
  before: SpecJson;
  after: SpecJson;
  fields: FieldChange[];
  /** A field of the kind's `replacedBy` changed: a new resource is made, then the old one deleted (-/+). */
  replace?: boolean;
}
export interface NoopChange extends ChangeBase<'no-op'> {
  remoteId: string;
}
/** `--prune`: in the state, no longer in the manifest, and removed from the server. */
export interface DeleteChange extends ChangeBase<'delete'> {
  remoteId: string;
  before: SpecJson;
  /** The refresh found it already gone from the server: nothing is sent, the state just drops it. */
  gone?: boolean;
  /** Resources that hold it by address (an agent's `knowledge`): the server detaches it from them as it deletes it. */
  detaches?: string[];
}
export interface ForgetChange extends ChangeBase<'forget'> {
  remoteId: string;
  before: SpecJson;
  /** With `--prune`: the kind cannot be deleted through the API, so it is forgotten instead. */
  undeletable?: boolean;
  /** The refresh found it deleted on the server too: gone from both sides, so nothing stays anywhere. */
  gone?: boolean;
}
export type Change = CreateChange | UpdateChange | NoopChange | DeleteChange | ForgetChange;

export interface PlanSummary {
  create: number;
  /** Updates in place; a replacement (`replace: true`) counts under `replace` instead. */
  update: number;
  /** Updates that make a new resource and delete the old one (-/+). */
  replace: number;
  delete: number;
  forget: number;
  noop: number;
}

/** A resource that changed on the server since the state was written (core/refresh.ts finds them). */
export interface DriftEntry {
  address: string;
  type: ResourceType;
  kind: 'changed' | 'deleted';
  /** From the state to the server; empty for deletions. */
  fields: FieldChange[];
}

/**
 * A call that was sent but whose answer was never recorded: for a create a duplicate may exist;
 * for a delete the resource may already be gone (sending it again is harmless).
 */
export interface PendingWarning {
  address: string;
  type: ResourceType;
  since: string;
  action: 'create' | 'delete';
}

export interface Plan {
  environment: string;
  appId: string;
  region: Region;
  /** True when the server was read before planning (not with --offline, nor for a saved plan's own apply). */
  refreshed: boolean;
  /** What changed on the server since the state was written; empty without a refresh. */
  drift: DriftEntry[];
  /** Sentences about the refresh the user should read (e.g. a list that could not be matched). */
  warnings: string[];
  /** Made with `--prune`: resources left out of the manifest are deleted, not forgotten. */
  prune: boolean;
  /** Every resource, including no-ops; tools, then agents, then websites, each by address. */
  changes: Change[];
  summary: PlanSummary;
  pending: PendingWarning[];
  /** State entries that move to a new address (`moved:`), before any change; absent means none. */
  moves?: PlanMove[];
  /** Where the plan applies, for the header; set by the command that shows it. */
  target?: PlanTarget;
  /**
   * What the refresh read of a kind beyond its changes, by kind, when there is any: for websites
   * declared by URL, how many URLs each exclude glob matches.
   */
  reports?: Partial<Record<ResourceType, KindReport[]>>;
  /** Resources the refresh could not read: left out of `changes` (nothing is planned for them); absent when none. */
  unreadable?: UnreadableResource[];
}

/** The base URL a plan applies to (credentials masked), and the variable that overrode it, if any. */
export interface PlanTarget {
  baseUrl: string;
  overriddenBy?: string;
}

/** A state entry renamed by the manifest's `moved:` list. */
export interface PlanMove {
  from: string;
  to: string;
  type: ResourceType;
  remoteId: string;
}

/** A resource whose server record the refresh could not read: nothing is planned for it. */
export interface UnreadableResource {
  address: string;
  type: ResourceType;
  reason: string;
}

/** Per website declared by URL, what its exclude globs match among its discovered URLs. */
/** What a plan reports of a kind beyond its changes (core/kinds/observe.ts); one kind reports today. */
export type KindReport = WebsiteReport;

export interface WebsiteReport {
  address: string;
  /** Discovered URLs read from the server. */
  urls: number;
  /** URLs left out by at least one glob. */
  excluded: number;
  /** Per glob, the URLs it matches (a URL matched by two globs counts for both). */
  globs: { glob: string; excludes: number }[];
}

export const SENSITIVE_PLACEHOLDER = '(sensitive)';

export function conflictsOf(plan: Plan): CreateChange[] {
  return plan.changes.filter((change): change is CreateChange => change.action === 'create' && change.conflict !== undefined);
}

export function hasChanges(plan: Plan): boolean {
  return changeCount(plan.summary) > 0 || (plan.moves?.length ?? 0) > 0;
}

/** The changes an apply carries out (every one but the no-ops). */
export function changeCount(summary: PlanSummary): number {
  return summary.create + summary.update + summary.replace + summary.delete + summary.forget;
}

export function summarize(changes: readonly Change[]): PlanSummary {
  const summary: PlanSummary = { create: 0, update: 0, replace: 0, delete: 0, forget: 0, noop: 0 };
  for (const change of changes) {
    if (change.action === 'no-op') summary.noop++;
    else if (change.action === 'update' && change.replace === true) summary.replace++;
    else summary[change.action]++;
  }
  return summary;
}
