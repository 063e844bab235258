// Saved plans (`plan --out`, `apply PLANFILE`). A plan file holds the JSON plan plus what is needed
// to prove it is still current: a digest of the resolved manifest and the state's lineage/serial.
// It never holds a secret: sensitive values inside are already keyed digests.
import { createHash } from 'node:crypto';
import { readFile, writeFile, rename, open } from 'node:fs/promises';
import { canonicalJson } from '../core/canonical.js';
import { redactSpec } from '../core/redact.js';
import type { Desired } from '../core/desired.js';
import { UserError } from '../core/errors.js';
import type { Digester } from './state/digest.js';

export const PLAN_FILE_KIND = 'agentsync-plan';

/** Where the plan was made from: a state (lineage + serial) or no state at all (lineage null). */
export interface PlanBasis {
  lineage: string | null;
  serial: number;
  /** Only when no state existed: the salt the plan's digests used, so apply can create that state. */
  salt?: string;
}

export interface PlanFile {
  kind: typeof PLAN_FILE_KIND;
  agentsyncVersion: string;
  createdAt: string;
  manifestDigest: string;
  basis: PlanBasis;
  /** The contract's JSON plan (formatVersion 1). */
  plan: Record<string, unknown>;
  /** sha256 of canonicalJson of everything above; catches a hand-edited file. */
  planDigest: string;
}

function sha256(text: string): string {
  return `sha256:${createHash('sha256').update(text).digest('hex')}`;
}

/** A digest of everything the manifest asks for, with sensitive values as keyed digests. */
export function digestDesired(desired: Desired, digest: Digester): string {
  const resources = desired.resources.map((r) => [r.address, redactSpec(r, digest)]);
  const { name, appId, region, baseUrl } = desired.environment;
  return sha256(canonicalJson({ environment: { name, appId, region, baseUrl }, resources, notify: desired.notify ?? null }));
}

export function buildPlanFile(input: Omit<PlanFile, 'kind' | 'planDigest'>): PlanFile {
  const body = { kind: PLAN_FILE_KIND, ...input } as const;
  return { ...body, planDigest: sha256(canonicalJson(body)) };
}

export async function writePlanFile(path: string, planFile: PlanFile): Promise<void> {
  const tmp = `${path}.tmp-${process.pid}`;
  await writeFile(tmp, JSON.stringify(planFile, null, 2) + '\n', { mode: 0o600 });
  const handle = await open(tmp, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
  await rename(tmp, path);
}

export async function readPlanFile(path: string): Promise<PlanFile> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (err) {
    throw new UserError('plan_invalid', `cannot read plan file ${path}: ${(err as NodeJS.ErrnoException).code ?? String(err)}`);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new UserError('plan_invalid', `plan file ${path} is not valid JSON; make a new one with \`agentsync plan --out ${path}\``);
  }
  if (!isPlanFile(parsed)) {
    throw new UserError('plan_invalid', `${path} is not an agentsync plan file; make one with \`agentsync plan --out ${path}\``);
  }
  const { planDigest, ...body } = parsed;
  if (sha256(canonicalJson(body)) !== planDigest) {
    throw new UserError('plan_invalid', `plan file ${path} was modified after it was written; make a new one with \`agentsync plan --out\``);
  }
  return parsed;
}

function isPlanFile(value: unknown): value is PlanFile {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as Record<string, unknown>;
  const basis = v.basis as Record<string, unknown> | undefined;
  return (
    v.kind === PLAN_FILE_KIND &&
    typeof v.manifestDigest === 'string' &&
    typeof v.planDigest === 'string' &&
    typeof v.plan === 'object' && v.plan !== null &&
    typeof basis === 'object' && basis !== null &&
    (basis.lineage === null || typeof basis.lineage === 'string') &&
    typeof basis.serial === 'number'
  );
}

/** Refuses a plan made from another manifest or another state. */
export function assertPlanCurrent(planFile: PlanFile, now: { manifestDigest: string; basis: PlanBasis }, path: string): void {
  const stale = (why: string): never => {
    throw new UserError('plan_stale', `saved plan ${path} is stale: ${why}; run \`agentsync plan --out ${path}\` again`);
  };
  if (planFile.basis.lineage !== now.basis.lineage) {
    stale(now.basis.lineage === null ? 'the state it was made from no longer exists' : planFile.basis.lineage === null ? 'a state was created after it was made' : 'the state was replaced (different lineage)');
  }
  if (planFile.basis.serial !== now.basis.serial) stale(`the state changed (serial ${planFile.basis.serial} → ${now.basis.serial})`);
  if (planFile.manifestDigest !== now.manifestDigest) stale('the manifest or its variables changed');
}
