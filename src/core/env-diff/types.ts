// What `agentsync diff` finds when it compares two environments (docs/spec/commands.md#diff): one
// entry per resource that is not identical, each in one group, and a count of the identical ones.
// Pure data: core/env-diff/compare.ts builds it, render/diff-*.ts print it, and `diff --json` is
// this document with a formatVersion. Sensitive values never reach it: they are "(sensitive)".
import type { JsonValue, Region } from '../api-types.js';
import type { ResourceType } from '../kinds/kind.js';

/**
 * - `intended`: the manifest gives the two environments different values, and each server holds its own;
 * - `drift`: a server differs from its own manifest (a field, or the resource is missing there);
 * - `only`: on one server only, and no manifest declares it there (unmanaged);
 * - `differs`: on both servers, managed by neither manifest, and not the same (always the case with --live-only).
 */
export type ResourceGroup = 'intended' | 'drift' | 'only' | 'differs';
export type FieldGroup = 'intended' | 'drift' | 'differs';

/** One side of a field. A key that is absent means the field is absent there; `manifest` is absent in --live-only mode. */
export interface FieldSide {
  environment: string;
  manifest?: JsonValue;
  live?: JsonValue;
}

export interface FieldRow {
  /** Dotted path inside the spec (core/field-diff.ts formatPath). */
  path: string;
  group: FieldGroup;
  /** The environments whose server differs from their manifest at this path (group `drift`). */
  driftIn?: string[];
  /** The values are sensitive: every side says "(sensitive)", and the row still shows that they differ. */
  sensitive?: boolean;
  sides: [FieldSide, FieldSide];
}

export interface ResourceSide {
  environment: string;
  /** The environment's manifest declares the resource (false for every resource in --live-only mode). */
  declared: boolean;
  /** The environment's server holds it. */
  present: boolean;
}

export interface ResourceDiff {
  /** The manifest address (`tool.ping`); for an unmanaged record, the address a manifest would give it. */
  address: string;
  type: ResourceType;
  group: ResourceGroup;
  /** Environments where the resource is drift: a field differs from the manifest, or it is missing on the server. */
  driftIn?: string[];
  /**
   * Environments whose server holds the resource but whose state does not track it (found by name):
   * apply would refuse to create it again, so the fix there starts with `import`.
   */
  untrackedIn?: string[];
  /** With group `only`: the environment that holds it. */
  onlyIn?: string;
  sides: [ResourceSide, ResourceSide];
  /** The fields that differ; empty when the resource is missing on a side. */
  fields: FieldRow[];
}

export interface EnvironmentInfo {
  name: string;
  appId: string;
  region: Region;
}

export interface DiffNote {
  environment: string;
  message: string;
}

export interface DiffSummary {
  /** Resources in group drift, only or differs: what `--detailed-exitcode` exits 2 for. */
  differ: number;
  /** Per environment, in the order of `environments`: resources drifting there, and resources only there. */
  drift: [number, number];
  only: [number, number];
  differs: number;
  /** Resources the manifests make differ on purpose, including those that also differ otherwise. */
  intended: number;
  identical: number;
}

export interface EnvironmentsDiff {
  mode: 'manifest' | 'live-only';
  environments: [EnvironmentInfo, EnvironmentInfo];
  /** Tools, then agents, then websites, each by address. */
  resources: ResourceDiff[];
  summary: DiffSummary;
  /** What the refresh wants read (a list that could not be read whole, kinds not compared). */
  warnings: DiffNote[];
  /** Resources whose server record could not be read: the diff is incomplete, and the command fails. */
  unreadable: (DiffNote & { address: string })[];
}

/** True when the environments differ in more than what the manifest intends. */
export function hasDifferences(diff: EnvironmentsDiff): boolean {
  return diff.summary.differ > 0;
}
