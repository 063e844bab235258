// The JSON plan read back into a Plan, so a saved plan file can be rendered again (`agentsync
// show`) without the manifest, the state or the server. Only what the renderers read must be
// present; a file from before records were carried simply has empty ones.
import type { JsonValue, Region } from './api-types.js';
import { REGIONS } from './api-types.js';
import type { ResourceType, SpecJson } from './desired.js';
import { UserError } from './errors.js';
import { RESOURCE_TYPES } from './kinds/kind.js';
import { summarize, type Change, type FieldChange, type PendingWarning, type Plan, type PlanMove } from './plan.js';
import type { DriftEntry } from './refresh.js';

type Json = Record<string, unknown>;

export function planFromJson(value: Json, source: string): Plan {
  const bad = (what: string): never => {
    throw new UserError('plan_invalid', `${source} is not a plan agentsync can show: ${what}`);
  };
  const text = (v: unknown, what: string): string => (typeof v === 'string' ? v : bad(`${what} is missing`));
  const list = (v: unknown, what: string): Json[] => (Array.isArray(v) && v.every(isObject) ? v : bad(`${what} is not a list of objects`));
  const region = text(value.region, 'region');
  if (!(REGIONS as readonly string[]).includes(region)) bad(`unknown region "${region}"`);
  const typeOf = (v: unknown): ResourceType => ((RESOURCE_TYPES as readonly unknown[]).includes(v) ? (v as ResourceType) : bad(`unknown resource type ${JSON.stringify(v)}`));

  const changes = list(value.changes, 'changes').map((c): Change => {
    const address = text(c.address, 'a change address');
    const type = typeOf(c.type);
    const base = { address, type, key: address.slice(type.length + 1) };
    const fields = list(c.fields ?? [], `${address} fields`).map(fieldFromJson);
    const remoteId = (): string => text(c.remoteId, `${address} remoteId`);
    switch (c.action) {
      case 'create':
        return {
          ...base,
          action: 'create',
          after: record(c.after),
          fields,
          ...(isObject(c.conflict) ? { conflict: conflictFromJson(c.conflict) } : {}),
          ...(isObject(c.adopt) ? { adopt: { remoteId: String(c.adopt.remoteId) } } : {}),
          ...defaultedFromJson(c.defaulted),
        };
      case 'update':
        return { ...base, action: 'update', remoteId: remoteId(), before: record(c.before), after: record(c.after), fields, ...(c.replace === true ? { replace: true } : {}) };
      case 'no-op':
        return { ...base, action: 'no-op', remoteId: remoteId() };
      case 'delete':
        return { ...base, action: 'delete', remoteId: remoteId(), before: record(c.before), ...(c.gone === true ? { gone: true } : {}), ...detachesFromJson(c.detaches) };
      case 'forget':
        return { ...base, action: 'forget', remoteId: remoteId(), before: record(c.before), ...(c.undeletable === true ? { undeletable: true } : {}), ...(c.gone === true ? { gone: true } : {}) };
      default:
        return bad(`${address} has an unknown action ${JSON.stringify(c.action)}`);
    }
  });
  const drift = list(value.drift ?? [], 'drift').map((d): DriftEntry => ({
    address: text(d.address, 'a drift address'),
    type: typeOf(d.type),
    kind: d.kind === 'deleted' ? 'deleted' : 'changed',
    fields: list(d.fields ?? [], 'drift fields').map(fieldFromJson),
  }));
  const pending = list(value.pending ?? [], 'pending').map((p): PendingWarning => ({
    address: text(p.address, 'a pending address'),
    type: typeOf(p.type),
    since: text(p.since, 'pending since'),
    action: p.action === 'delete' ? 'delete' : 'create',
  }));
  const moves = list(value.moves ?? [], 'moves').map((m): PlanMove => ({
    from: text(m.from, 'a move'),
    to: text(m.to, 'a move'),
    type: typeOf(m.type),
    remoteId: typeof m.remoteId === 'string' ? m.remoteId : '',
  }));
  // Counted again from the changes: a file from before replacements had their own count says `update` for them.
  if (!isObject(value.summary)) bad('summary is missing');
  return {
    environment: text(value.environment, 'environment'),
    appId: text(value.appId, 'appId'),
    region: region as Region,
    refreshed: value.refreshed === true,
    drift,
    warnings: Array.isArray(value.warnings) ? value.warnings.filter((w): w is string => typeof w === 'string') : [],
    prune: value.prune === true,
    changes,
    summary: summarize(changes),
    pending,
    ...(moves.length > 0 ? { moves } : {}),
  };
}

/** A create's fields left out of the manifest with an empty default; anything else in the file is ignored. */
function defaultedFromJson(value: unknown): { defaulted?: string[] } {
  const names = Array.isArray(value) ? value.filter((name): name is string => typeof name === 'string') : [];
  return names.length > 0 ? { defaulted: names } : {};
}

/** A conflict's remote id is absent when the server listed the record without one; `movedFrom` marks a rename. */
function conflictFromJson(conflict: Json): { remoteId?: string; movedFrom?: string } {
  return {
    ...(typeof conflict.remoteId === 'string' ? { remoteId: conflict.remoteId } : {}),
    ...(typeof conflict.movedFrom === 'string' ? { movedFrom: conflict.movedFrom } : {}),
  };
}

function fieldFromJson(f: Json): FieldChange {
  const out: FieldChange = { path: typeof f.path === 'string' ? f.path : '' };
  if (f.before !== undefined) out.before = f.before as JsonValue;
  if (f.after !== undefined) out.after = f.after as JsonValue;
  if (f.sensitive === true) out.sensitive = true;
  if (f.item === true) out.item = true;
  return out;
}

/** Who a deleted source is detached from; absent when nobody holds it. */
function detachesFromJson(value: unknown): { detaches?: string[] } {
  const from = Array.isArray(value) ? value.filter((address): address is string => typeof address === 'string') : [];
  return from.length > 0 ? { detaches: from } : {};
}

function record(value: unknown): SpecJson {
  return isObject(value) ? (value as SpecJson) : {};
}

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
