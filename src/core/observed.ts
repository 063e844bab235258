// Before the diff, each kind the refresh reads resource by resource fills its desired specs from
// what was read (core/kinds/observe.ts): the kinds in turn, each over the manifest the last one left.
import type { Desired } from './desired.js';
import { moduleOf, RESOURCE_TYPES, type ResourceType } from './kinds/index.js';
import type { KindReport } from './plan.js';
import type { State } from './state.js';

export interface ObservedResolution {
  desired: Desired;
  /** Only the kinds that reported anything. */
  reports: Partial<Record<ResourceType, KindReport[]>>;
  warnings: string[];
  /** address → what a saved plan replays (every kind's together: addresses are unique across kinds). */
  recorded: Record<string, string>;
}

/** `seen`: what the refresh read, by kind; absent when the server was not read (offline, or a saved plan). */
export function resolveObserved(
  desired: Desired,
  state: State | null,
  seen?: Partial<Record<ResourceType, ReadonlyMap<string, unknown>>>,
  saved?: Readonly<Record<string, string>>,
): ObservedResolution {
  const result: ObservedResolution = { desired, reports: {}, warnings: [], recorded: {} };
  for (const type of RESOURCE_TYPES) {
    const observe = moduleOf(type).observe;
    if (observe === undefined) continue;
    const resolved = observe.resolve(result.desired, state, seen === undefined ? undefined : (seen[type] ?? new Map()), saved);
    result.desired = resolved.desired;
    if (resolved.reports.length > 0) result.reports[type] = resolved.reports;
    for (const warning of resolved.warnings) result.warnings.push(warning);
    Object.assign(result.recorded, resolved.recorded);
  }
  return result;
}
