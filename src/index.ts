// agentsync as a library: `import { load, validate, plan, apply } from 'agentsync'`. The same stages
// as the CLI (the use cases in app/), minus everything a terminal needs: nothing is printed, nothing
// exits, the host's environment and folder are read only when `env` and `cwd` are left out. Each
// call keeps its own secrets: an error it throws is scrubbed with the secrets that call resolved.
// A refusal is a typed exception: `UserError` (a stable `code`), `ManifestError` (every diagnostic)
// or `ApplyFailedError` (with the partial result). commander and the CLI are never loaded from here.
// The functions beyond load/validate/plan live in library/, one file per family.
import type { Diagnostic } from './core/diagnostics.js';
import type { Plan } from './core/plan.js';
import { validateManifest } from './app/validate.js';
import { hideInOutput } from './io/api/outside-text.js';
import { loadDesired } from './io/manifest/load-manifest.js';
import { PACKAGE_VERSION } from './io/runtime/package-version.js';
import { planToJson } from './render/plan-json.js';
import { renderPlanMarkdown } from './render/plan-markdown.js';
import { renderPlanText } from './render/plan-text.js';
import { cwdOf, envOf, inCall, manifestOf, type LoadOptions } from './library/call.js';
import type { Loaded } from './library/plan.js';
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

export type { ClientOptions, LoadOptions, StateOptions, VarOptions } from './library/call.js';
export { createClient } from './library/call.js';
export { plan, savePlan, type Loaded, type PlanOptions, type PlanResult, type SavePlanOptions, type SavedPlanResult, type ScopeOptions } from './library/plan.js';
export { apply, applySavedPlan, ApplyFailedError, type ApplyOptions, type ApplyOutcome, type ApplySavedPlanOptions } from './library/apply.js';
export { exportManifest, importResources, type Exported, type ExportOptions, type ImportOptions, type ImportOutcome } from './library/export-import.js';
export { forgetState, listState, migrateState, moveState, showState, type Forgotten, type Moved, type StateCommandOptions, type StateEntry, type StateListing } from './library/state.js';
export { lint, type LintFinding, type LintResult } from './library/lint.js';
export { diff, type DiffOptions } from './library/diff.js';
export type { DiffJson } from './render/diff-json.js';
export type { DiffSummary, EnvironmentsDiff, FieldGroup, FieldRow, FieldSide, ResourceDiff, ResourceGroup, ResourceSide } from './core/env-diff/types.js';
export {
  kbReport,
  kbStatus,
  kbSync,
  waitForIndexing,
  type KbCounts,
  type KbOptions,
  type KbReport,
  type KbSourceStatus,
  type KbSyncOptions,
  type KbSyncResult,
  type KbWaitResult,
  type KbWebsiteStatus,
  type WaitOptions,
} from './library/kb.js';

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
