// Saving a plan (`agentsync plan --out FILE`, the library's savePlan): the plan file is the JSON
// plan plus what proves it is still current when `apply FILE` comes (docs/spec/plan-and-apply.md).
// The CLI and the library both check the target before anything is read from the server, refuse
// one that would replace a file the run reads or writes, and never save a plan apply would refuse.
import type { VarOverrides } from '../core/var-overrides.js';
import { buildPlanFile, checkPlanOutTarget, isStdoutTarget, planChecksOf, realPathOf, refuseOutOverInputs, writePlanFile, type PlanFile, type RunInput } from '../io/files/plan-file.js';
import { pathForRun } from '../io/files/run-path.js';
import { manifestPaths, type ManifestLocation } from '../io/manifest/manifest-location.js';
import { manifestFiles } from '../io/manifest/manifest-parts.js';
import { PACKAGE_VERSION } from '../io/runtime/package-version.js';
import { stateFiles } from '../io/state/paths.js';
import { planToJson } from '../render/plan-json.js';
import { planBasisOf, savedRefreshOf } from './compute-plan.js';
import type { LoadedEnvironment } from './load.js';
import type { PlannedEnvironment } from './plan.js';

/** Where a plan is saved: a file (checked now, and again as it is written), or stdout (`-`). */
export interface PlanOut {
  path: string;
  toStdout: boolean;
}

/** A target that cannot be written is refused before the plan is made or printed. */
export async function preparePlanOut(path: string, cwd?: string): Promise<PlanOut> {
  const toStdout = isStdoutTarget(path);
  if (!toStdout) await checkPlanOutTarget(path, cwd);
  return { path, toStdout };
}

export interface RunInputs {
  manifest: ManifestLocation;
  varFile?: string;
  /** Where the state store is (a postgres:// URL names no file). */
  stateLocation: string;
  cwd?: string;
}

/**
 * `out` naming the manifest or one of its parts, the state or a file beside it (beside the state
 * as given, and beside the file a linked state names, where the store keeps them), or the var file
 * is refused before the plan is printed.
 */
export async function refuseOutOverRunInputs(out: string, run: RunInputs): Promise<void> {
  const manifest = manifestPaths(run.manifest);
  const parts = (await manifestFiles(run.manifest, run.cwd)).paths.filter((path) => !manifest.includes(path));
  const inputs: RunInput[] = [
    ...manifest.map((path) => ({ path, what: 'the manifest' })),
    ...parts.map((path) => ({ path, what: 'a part of the manifest' })),
    ...(run.varFile === undefined ? [] : [{ path: run.varFile, what: 'the var file' }]),
  ];
  if (!run.stateLocation.includes('://')) {
    for (const state of [stateFiles(run.stateLocation), stateFiles(await realPathOf(pathForRun(run.cwd, run.stateLocation)))]) {
      inputs.push(
        { path: state.state, what: 'the state' },
        { path: state.backup, what: "the state's backup" },
        { path: state.journal, what: "the state's journal" },
        { path: state.lock, what: "the state's lock" },
      );
    }
  }
  await refuseOutOverInputs(out, inputs, manifest, run.cwd);
}

export interface PlanFileFacts {
  /** The target as plans name it (core/plan-target.ts): a check that apply runs against the same server. */
  maskedBaseUrl: string;
  varOverrides?: VarOverrides;
  createdAt: string;
}

/** The plan file for a plan just made: the JSON plan, its basis (manifest and state) and its refresh. */
export function planFileOf(loaded: Pick<LoadedEnvironment, 'desired' | 'text'>, planned: PlannedEnvironment, facts: PlanFileFacts): PlanFile {
  return buildPlanFile(planToJson(planned.plan), {
    agentsyncVersion: PACKAGE_VERSION,
    createdAt: facts.createdAt,
    ...planBasisOf(loaded.desired, planned.state, planned.salt),
    checks: planChecksOf(loaded.text, facts.maskedBaseUrl, facts.varOverrides, { desired: loaded.desired, salt: planned.salt }),
    refresh: savedRefreshOf(planned),
  });
}

/** Writes the plan file (atomic, 0600, never through a link). */
export function writeSavedPlan(out: PlanOut, planFile: PlanFile, cwd?: string): Promise<void> {
  return writePlanFile(out.path, planFile, cwd);
}
