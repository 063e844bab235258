// agentsync as a library: `import { load, validate, plan, apply } from 'agentsync'`. The same stages
// as the CLI (the use cases in app/), minus everything a terminal needs: nothing is printed, nothing
// exits, the host's environment and folder are read only when `env` and `cwd` are left out. Each
// call keeps its own secrets: an error it throws is scrubbed with the secrets that call resolved.
// A refusal is a typed exception: `UserError` (a stable `code`), `ManifestError` (every diagnostic)
// or `ApplyFailedError` (with the partial result). commander and the CLI are never loaded from here.
// The functions beyond load/validate/plan live in library/, one file per family.
import type { Diagnostic } from './core/diagnostics.js';
import type { Desired } from './core/desired.js';
import { hasChanges, type Plan } from './core/plan.js';
import { planTarget } from './core/plan-target.js';
import { massRemovalOf, type MassRemoval } from './core/mass-removal.js';
import { validateManifest } from './app/validate.js';
import { lentConnection } from './app/connection.js';
import { planEnvironment } from './app/plan.js';
import type { ApiClient } from './io/api/index.js';
import { hideInOutput } from './io/api/outside-text.js';
import { loadDesired } from './io/manifest/load-manifest.js';
import { PACKAGE_VERSION } from './io/runtime/package-version.js';
import { planToJson } from './render/plan-json.js';
import { renderPlanMarkdown } from './render/plan-markdown.js';
import { renderPlanText } from './render/plan-text.js';
import { createClient, cwdOf, envOf, inCall, loadWithStore, manifestOf, type ClientOptions, type LoadOptions, type StateOptions } from './library/call.js';
import { manifestName } from './io/manifest/manifest-location.js';

export type { Diagnostic, Severity } from './core/diagnostics.js';
export type { Desired, DesiredEnvironment, DesiredResource, ResourceType } from './core/desired.js';
export type { ErrorCode } from './core/errors.js';
export type { MassRemoval } from './core/mass-removal.js';
export type { Action, Change, CreateChange, FieldChange, ForgetChange, NoopChange, Plan, PlanSummary, UpdateChange } from './core/plan.js';
export type { ApiClient } from './io/api/index.js';
export type { ApplyEvent, ApplyFailure, ApplyResult, DoneItem, FailedItem, NotAttemptedItem, NotifyOutcome } from './core/apply-types.js';
export type { StateWarning } from './io/state/index.js';
export type { PlanJson, PlanJsonChange } from './render/plan-json.js';
export { ManifestError } from './core/diagnostics.js';
export { UserError, isUserError } from './core/errors.js';
export { ApiError, isApiError } from './io/api/index.js';
export { planToJson } from './render/plan-json.js';

/** The installed package's version, as `agentsync --version` prints it. */
export const version: string = PACKAGE_VERSION;

export type { ClientOptions, LoadOptions, StateOptions } from './library/call.js';
export { createClient } from './library/call.js';
export { apply, applySavedPlan, ApplyFailedError, type ApplyOptions, type ApplyOutcome, type ApplySavedPlanOptions } from './library/apply.js';
export { exportManifest, importResources, type Exported, type ExportOptions, type ImportOptions, type ImportOutcome } from './library/export-import.js';
export { forgetState, listState, migrateState, moveState, showState, type Forgotten, type Moved, type StateCommandOptions, type StateEntry, type StateListing } from './library/state.js';
export { lint, type LintFinding, type LintResult } from './library/lint.js';
export { diff, type DiffOptions } from './library/diff.js';
export type { DiffJson } from './render/diff-json.js';
export type { DiffSummary, EnvironmentsDiff, FieldGroup, FieldRow, FieldSide, ResourceDiff, ResourceGroup, ResourceSide } from './core/env-diff/types.js';
export { kbStatus, kbSync, waitForIndexing, type KbCounts, type KbOptions, type KbSyncOptions, type KbSyncResult, type KbWaitResult, type KbWebsiteStatus, type WaitOptions } from './library/kb.js';

export interface Loaded {
  file: string;
  /** The resolved manifest for one environment: what plan compares and apply sends. */
  desired: Desired;
  warnings: Diagnostic[];
}

/** Manifest → desired resources for one environment. Throws `ManifestError` listing every problem. */
export function load(options: LoadOptions = {}): Promise<Loaded> {
  return inCall(options, async () => {
    const location = manifestOf(options);
    const file = manifestName(location);
    const { desired, warnings } = await loadDesired({
      file: location,
      source: { cwd: cwdOf(options) },
      env: envOf(options),
      mode: 'plan',
      onSensitiveValues: hideInOutput,
      ...(options.environment === undefined ? {} : { environment: options.environment }),
    });
    return { file, desired, warnings };
  });
}

export interface Validation {
  valid: boolean;
  /** Errors and warnings, each with file, line, column and YAML path. */
  diagnostics: Diagnostic[];
  /** The environments that were checked: all of them when `environment` is left out. */
  environments: string[];
}

/** `agentsync validate`: never throws for a bad manifest, only for one that cannot be read. */
export function validate(options: LoadOptions = {}): Promise<Validation> {
  return inCall(options, async () => {
    const { valid, diagnostics, environments } = await validateManifest({
      file: manifestOf(options),
      source: { cwd: cwdOf(options) },
      env: envOf(options),
      onSensitiveValues: hideInOutput,
      ...(options.environment === undefined ? {} : { environment: options.environment }),
    });
    return { valid, diagnostics, environments };
  });
}

export interface PlanOptions extends LoadOptions, ClientOptions, StateOptions {
  /**
   * Read the server before planning (the default), so drift and conflicts show. `false` is
   * `plan --offline`: the state alone, no API key, no network.
   */
  refresh?: boolean;
  /** Read the server through this client instead of one made from the API key. It is not closed. */
  client?: ApiClient;
}

export interface PlanResult extends Loaded {
  plan: Plan;
  /** True when applying would create, update or forget something. */
  hasChanges: boolean;
  /**
   * The plan removes more than half of the resources the state manages (at least 3): what a wrong
   * manifest looks like. `apply` refuses such deletions without `allowMassDelete`. Absent otherwise.
   */
  massRemoval?: MassRemoval;
}

/** `agentsync plan`: manifest + state (+ the server) → plan. Takes no lock and changes nothing. */
export function plan(options: PlanOptions = {}): Promise<PlanResult> {
  return inCall(options, async () => {
    const { file, desired, warnings, store, target } = await loadWithStore(options);
    const refresh = options.refresh !== false;
    // As the CLI: the key is checked before the state is read, so a missing one is the error shown.
    const ownClient = refresh && !options.client ? createClient(desired.environment, { ...options, concurrency: options.concurrency ?? 2 }) : undefined;
    try {
      const client = options.client ?? ownClient;
      const computed = await planEnvironment({ desired, store, target, ...(refresh && client ? { connect: async () => lentConnection(client) } : {}) });
      computed.plan.target = planTarget(desired.environment, envOf(options));
      const mass = massRemovalOf(computed.plan);
      return { file, desired, warnings, plan: computed.plan, hasChanges: hasChanges(computed.plan), ...(mass ? { massRemoval: mass } : {}) };
    } finally {
      await ownClient?.close();
    }
  });
}

/** Renders a plan as the CLI prints it: `text` (colour only when asked), `json` or `markdown` (for a pull request). */
export function renderPlan(planToRender: Plan, format: 'text' | 'json' | 'markdown', options: { color?: boolean } = {}): string {
  switch (format) {
    case 'json':
      return JSON.stringify(planToJson(planToRender), null, 2) + '\n';
    case 'markdown':
      return renderPlanMarkdown(planToRender);
    case 'text':
      return renderPlanText(planToRender, { color: options.color === true });
    default: {
      const _exhaustive: never = format;
      return _exhaustive;
    }
  }
}
