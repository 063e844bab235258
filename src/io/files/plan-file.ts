// Saved plans (`plan --out`, `apply PLANFILE`). A plan file is the JSON plan plus, under
// `savedPlan`, what proves it is still current: a digest of the resolved manifest and the state's
// lineage/serial.
// It never holds a secret: sensitive values inside are already keyed digests.
import { createHash } from 'node:crypto';
import { constants } from 'node:fs';
import { lstat, open, realpath, stat } from 'node:fs/promises';
import { basename, dirname, join, resolve, sep } from 'node:path';
import { pathForRun } from './run-path.js';
import { canonicalJson } from '../../core/canonical.js';
import { redactSpec } from '../../core/redact.js';
import type { Desired } from '../../core/desired.js';
import type { RefreshOverlay } from '../../core/refresh.js';
import { UserError } from '../../core/errors.js';
import { MAX_STORED_JSON_DEPTH, nestedDeeperThan } from '../../core/json-depth.js';
import { replaceFileAtomically } from './atomic-file.js';
import { hasCode } from './error-code.js';
import { fileError } from './file-errors.js';
import { MAX_STATE_FILE_BYTES, sizeText } from './bounded-bytes.js';
import type { Digester } from '../state/digest.js';

export const PLAN_FILE_KIND = 'agentsync-plan';

/** Where the plan was made from: a state (lineage + serial) or no state at all (lineage null). */
export interface PlanBasis {
  lineage: string | null;
  serial: number;
  /** Only when no state existed: the salt the plan's digests used, so apply can create that state. */
  salt?: string;
}

/** The manifest file's own digest and the target URL: with them a stale plan says which changed. */
export interface PlanChecks {
  /** sha256 of the manifest file's text: unchanged text with a changed manifestDigest means a variable changed. */
  manifestFile: string;
  /** The base URL the plan targets, any password masked. */
  baseUrl: string;
  /** name → sha256 of each `--var`/`--var-file` value the plan was made with, so a stale plan names the var. */
  vars?: Record<string, string>;
}

/** What a saved plan adds to the JSON plan (docs/spec/plan-and-apply.md#json-plan), under one extra key. */
export interface SavedPlanInfo {
  kind: typeof PLAN_FILE_KIND;
  agentsyncVersion: string;
  createdAt: string;
  manifestDigest: string;
  basis: PlanBasis;
  /** Finer checks, so a stale plan can say what changed (absent in plan files from before 0.2). */
  checks?: PlanChecks;
  /** What the plan's refresh saw (state entries it changed, creates it adopts), so apply needs no second read. */
  refresh?: { refreshed: boolean; overlay: RefreshOverlay; adopt: Record<string, string>; scope?: { prune: boolean; targets: readonly string[] }; matched?: Record<string, string> };
  /** sha256 of canonicalJson of the whole file without this field; catches a hand-edited file. */
  digest: string;
}

/**
 * A plan file IS the JSON plan of docs/spec/plan-and-apply.md#json-plan (formatVersion 1,
 * environment, changes, summary, …), so anything that reads `plan --json` reads it too; `savedPlan`
 * is the one key it adds.
 */
export type PlanFile = Record<string, unknown> & { environment?: unknown; savedPlan: SavedPlanInfo };

function sha256(text: string): string {
  return `sha256:${createHash('sha256').update(text).digest('hex')}`;
}

/** A digest of everything the manifest asks for, with sensitive values as keyed digests. */
export function digestDesired(desired: Desired, digest: Digester): string {
  const resources = desired.resources.map((r) => [r.address, redactSpec(r, digest)]);
  const { name, appId, region, baseUrl } = desired.environment;
  return sha256(canonicalJson({ environment: { name, appId, region, baseUrl }, resources, notify: desired.notify ?? null }));
}

export function planChecksOf(manifestText: string, maskedBaseUrl: string, varOverrides?: Readonly<Record<string, unknown>>): PlanChecks {
  const vars = Object.fromEntries(Object.entries(varOverrides ?? {}).map(([name, value]) => [name, sha256(canonicalJson(value))]));
  return { manifestFile: sha256(manifestText), baseUrl: maskedBaseUrl, ...(Object.keys(vars).length > 0 ? { vars } : {}) };
}

function fileDigest(planJson: object, info: Omit<SavedPlanInfo, 'digest'>): string {
  return sha256(canonicalJson({ ...planJson, savedPlan: info }));
}

export function buildPlanFile(planJson: object, info: Omit<SavedPlanInfo, 'kind' | 'digest'>): PlanFile {
  const unsigned = { kind: PLAN_FILE_KIND, ...info } as const;
  return { ...planJson, savedPlan: { ...unsigned, digest: fileDigest(planJson, unsigned) } };
}

export function serializePlanFile(planFile: PlanFile): string {
  return JSON.stringify(planFile, null, 2) + '\n';
}

/** `--out -` and `--out /dev/stdout` mean "print the plan file", never "replace that path". */
export function isStdoutTarget(path: string): boolean {
  return ['-', '/dev/stdout', '/dev/fd/1', '/proc/self/fd/1'].includes(path);
}

/**
 * Refuses a `--out` target that is not a regular file or a new name in an existing folder, so a
 * device, FIFO, socket, directory or symlink is never replaced. Called before the plan is printed,
 * and again by writePlanFile.
 */
export async function checkPlanOutTarget(path: string, cwd?: string): Promise<void> {
  let info;
  try {
    info = await lstat(pathForRun(cwd, path));
  } catch (err) {
    if (!hasCode(err, 'ENOENT')) throw fileError(err, path, 'write');
    const dir = dirname(path);
    const folder = await stat(pathForRun(cwd, dir)).catch((e: unknown) => Promise.reject(fileError(e, path, 'write')));
    if (!folder.isDirectory()) throw outError(path, `${dir} is not a folder`);
    return;
  }
  if (info.isFile()) return;
  const what = info.isSymbolicLink()
    ? 'is a symbolic link; give the real path, or - to print the plan file'
    : info.isDirectory()
      ? 'is a directory; give a file name'
      : `is a ${info.isFIFO() ? 'FIFO' : info.isSocket() ? 'socket' : 'device'}, not a regular file; give a file name, or - to print the plan file`;
  throw outError(path, `it ${what}`);
}

/** A file the run reads, which `--out` must never replace. */
export interface RunInput {
  path: string;
  /** What it is, for the message: "the manifest", "the state", "the state's backup"… */
  what: string;
}

/**
 * Refuses a `--out` that names a file this run reads or writes (the manifest and each of its parts,
 * the state and the files beside it, the var file) under any spelling, through any link, whether
 * or not it exists yet (a state before the first apply, a lock not held now): writing the plan
 * there would replace it, and the state file's own backup holds only the version before the last
 * apply. Paths are compared as real paths (links in their folders followed), and existing files
 * by device and inode too (a hard link). A new `*.yaml` in a manifest folder is refused too, since
 * it would be read as a part of the manifest on the next run.
 */
export async function refuseOutOverInputs(path: string, inputs: readonly RunInput[], manifestFolders: readonly string[], cwd?: string): Promise<void> {
  if (isStdoutTarget(path)) return;
  const target = await realPathOf(pathForRun(cwd, path));
  const targetId = await identityOf(target);
  for (const input of inputs) {
    const real = await realPathOf(pathForRun(cwd, input.path));
    if (real === target || (targetId !== null && (await identityOf(real)) === targetId)) {
      throw outError(path, `it is ${input.what} (${input.path}), which this run reads or writes; give another file name`);
    }
    // A folder that does not exist yet (`.agentsync` before the first apply): a file there would
    // stand where the state's folder must be made, and the next plan could not read the state.
    if (real.startsWith(target + sep)) {
      throw outError(path, `it is the folder that holds ${input.what} (${input.path}), which this run reads or writes; give another file name`);
    }
  }
  if (!/\.ya?ml$/i.test(path)) return;
  for (const folder of manifestFolders) {
    const root = await realPathOf(pathForRun(cwd, folder));
    if (target.startsWith(root + sep)) throw outError(path, `it is in the manifest folder ${folder}, where it would be read as a part of the manifest; give another file name`);
  }
}

/**
 * Where `path` really is: its links followed; for a file that does not exist yet, its folder's real
 * path and its name (and so on up, for a folder that does not exist either).
 */
export async function realPathOf(path: string): Promise<string> {
  const absolute = resolve(path);
  try {
    return await realpath(absolute);
  } catch {
    const parent = dirname(absolute);
    return parent === absolute ? absolute : join(await realPathOf(parent), basename(absolute));
  }
}

/** Device and inode of what `path` names, following links; null when there is nothing there. */
async function identityOf(path: string): Promise<string | null> {
  return stat(path, { bigint: true }).then(
    (info) => `${info.dev}:${info.ino}`,
    () => null,
  );
}

function outError(path: string, why: string): UserError {
  return new UserError('file_error', `cannot write plan file ${path}: ${why}`, { file: path });
}

/** Atomic, 0600, and never through a symlink or over anything but a regular file. */
export async function writePlanFile(path: string, planFile: PlanFile, cwd?: string): Promise<void> {
  await checkPlanOutTarget(path, cwd);
  await replaceFileAtomically(pathForRun(cwd, path), serializePlanFile(planFile), { mode: 0o600 });
}

/** A plan rendered for reading (`--format text|markdown --out`): atomic, never over a non-file. */
export async function writeRenderedPlan(path: string, text: string, cwd?: string): Promise<void> {
  await checkPlanOutTarget(path, cwd);
  await replaceFileAtomically(pathForRun(cwd, path), text, { mode: 0o644 });
}

/** `cwd`: the folder a relative `path` is in (default: the process's); messages name `path` as given. */
export async function readPlanFile(path: string, cwd?: string): Promise<PlanFile> {
  let text: string;
  let handle;
  try {
    // O_NONBLOCK and the type check: a FIFO or a device given as the plan must not hang the run.
    handle = await open(pathForRun(cwd, path), constants.O_RDONLY | constants.O_NONBLOCK);
    const info = await handle.stat();
    if (!info.isFile()) throw new UserError('plan_invalid', `cannot read plan file ${path}: it is not a regular file`);
    if (info.size > MAX_STATE_FILE_BYTES) {
      throw new UserError('plan_invalid', `cannot read plan file ${path}: it is ${sizeText(info.size)}, more than the ${sizeText(MAX_STATE_FILE_BYTES)} a plan file may be`, { file: path });
    }
    text = await handle.readFile('utf8');
  } catch (err) {
    if (err instanceof UserError) throw err;
    // "no such file", "permission denied"… as for every other file, not a bare ENOENT.
    const described = fileError(err, path, 'read');
    if (described instanceof UserError) throw new UserError('plan_invalid', described.message.replace(/^cannot read /, 'cannot read plan file '), { file: path });
    throw new UserError('plan_invalid', `cannot read plan file ${path}: ${(err as NodeJS.ErrnoException).code ?? String(err)}`);
  } finally {
    await handle?.close();
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    if (!text.trimStart().startsWith('{')) {
      throw new UserError(
        'plan_invalid',
        `${path} is not a plan file agentsync can apply (it looks like a plan rendered for reading, with --format text or markdown); save one with \`agentsync plan --out plan.json\` (without --format) and apply that`,
      );
    }
    throw new UserError('plan_invalid', `plan file ${path} is not valid JSON; make a new one with \`agentsync plan --out ${path}\``);
  }
  if (nestedDeeperThan(parsed, MAX_STORED_JSON_DEPTH)) {
    throw new UserError(
      'plan_invalid',
      `plan file ${path} is nested more than ${MAX_STORED_JSON_DEPTH} levels deep, which no plan agentsync writes is; make a new one with \`agentsync plan --out ${path}\``,
    );
  }
  if (!isPlanFile(parsed)) {
    throw new UserError('plan_invalid', `${path} is not an agentsync plan file; make one with \`agentsync plan --out ${path}\``);
  }
  const { savedPlan, ...planJson } = parsed;
  const { digest, ...info } = savedPlan;
  if (fileDigest(planJson, info) !== digest) {
    throw new UserError('plan_invalid', `plan file ${path} was modified after it was written; make a new one with \`agentsync plan --out\``);
  }
  return parsed;
}

function isPlanFile(value: unknown): value is PlanFile {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as Record<string, unknown>;
  const info = v.savedPlan as Record<string, unknown> | undefined;
  if (v.formatVersion !== 1 || typeof info !== 'object' || info === null) return false;
  const basis = info.basis as Record<string, unknown> | undefined;
  return (
    info.kind === PLAN_FILE_KIND &&
    typeof info.manifestDigest === 'string' &&
    typeof info.digest === 'string' &&
    typeof basis === 'object' &&
    basis !== null &&
    (basis.lineage === null || typeof basis.lineage === 'string') &&
    typeof basis.serial === 'number' &&
    (info.refresh === undefined || isSavedRefresh(info.refresh)) &&
    (info.checks === undefined || isPlanChecks(info.checks))
  );
}

function isPlanChecks(value: unknown): boolean {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as Record<string, unknown>;
  const vars = v.vars;
  const varsOk = vars === undefined || (typeof vars === 'object' && vars !== null && !Array.isArray(vars) && Object.values(vars).every((d) => typeof d === 'string'));
  return typeof v.manifestFile === 'string' && typeof v.baseUrl === 'string' && varsOk;
}

function isSavedRefresh(value: unknown): boolean {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as Record<string, unknown>;
  return typeof v.refreshed === 'boolean' && typeof v.overlay === 'object' && v.overlay !== null && typeof v.adopt === 'object' && v.adopt !== null;
}

/**
 * Refuses a plan made from another manifest or another state, and says which changed: the state,
 * the target URL, the manifest file, or (same file, different result) a variable it reads.
 */
export function assertPlanCurrent(planFile: PlanFile, now: { manifestDigest: string; basis: PlanBasis; checks?: PlanChecks }, path: string): void {
  const saved = planFile.savedPlan;
  const stale: (why: string) => never = (why) => {
    throw new UserError('plan_stale', `saved plan ${path} is stale: ${why}; run \`agentsync plan --out ${path}\` again`, { reason: why });
  };
  if (saved.basis.lineage !== now.basis.lineage) {
    stale(
      now.basis.lineage === null
        ? 'the state it was made from no longer exists'
        : saved.basis.lineage === null
          ? 'a state was created after it was made'
          : 'the state was replaced (different lineage)',
    );
  }
  if (saved.basis.serial !== now.basis.serial) stale(`the state changed (serial ${saved.basis.serial} → ${now.basis.serial}): another apply ran after the plan was made`);
  if (saved.manifestDigest === now.manifestDigest) return;
  const before = saved.checks;
  const after = now.checks;
  if (before === undefined || after === undefined) stale('the manifest or its variables changed');
  if (before.baseUrl !== after.baseUrl) stale(`the target URL changed (${before.baseUrl} → ${after.baseUrl}; check AGENTSYNC_BASE_URL and the manifest's baseUrl)`);
  if (before.manifestFile !== after.manifestFile) stale('the manifest changed after the plan was made');
  const changedVars = differentVars(before.vars ?? {}, after.vars ?? {});
  if (changedVars.length > 0) {
    const named = changedVars.map((name) => `var.${name}`).join(', ');
    stale(`${named} ${changedVars.length === 1 ? 'is' : 'are'} not what the plan was made with; pass apply the same --var and --var-file as plan`);
  }
  stale('a variable changed: the manifest file is the same, but a value it reads from the environment (${NAME} or ${secret:NAME}), or a local file it names (file:), is different');
}

/** The --var names given to one run and not the other, or with another value, in name order. */
function differentVars(before: Readonly<Record<string, string>>, after: Readonly<Record<string, string>>): string[] {
  const names = new Set([...Object.keys(before), ...Object.keys(after)]);
  return [...names].filter((name) => before[name] !== after[name]).sort();
}
