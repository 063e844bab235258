// The `diff` use case (docs/spec/commands.md#diff): two environments of one manifest, each loaded
// with its own state and read live with its own client, both at once, then compared through the
// manifest (core/env-diff/compare.ts) or, with --live-only, server against server. Nothing is
// written: no state, no lock, no call but the reads `plan` makes. The CLI and the library share it.
import type { Desired, DesiredEnvironment } from '../core/desired.js';
import { compareEnvironments, type ManagedSide } from '../core/env-diff/compare.js';
import { compareLive } from '../core/env-diff/records.js';
import type { EnvironmentInfo, EnvironmentsDiff } from '../core/env-diff/types.js';
import { isUserError, UserError } from '../core/errors.js';
import type { ServerSnapshot } from '../core/refresh.js';
import type { VarOverrides } from '../core/var-overrides.js';
import { readServer } from '../io/api/read-server.js';
import type { ManifestSource } from '../io/manifest/manifest-file.js';
import type { ManifestLocation } from '../io/manifest/manifest-location.js';
import type { StateWarning } from '../io/state/index.js';
import { loadManyEnvironments, type EnvironmentLoad } from './load-many.js';
import type { Connection } from './connection.js';
import { planEnvironment } from './plan.js';
import { unknownEnvironmentError } from '../core/unknown-environment.js';

export interface DiffRequest {
  file: ManifestLocation;
  source?: ManifestSource;
  /** Exactly two environment names, left then right. */
  environments: readonly string[];
  /** Where `${NAME}`, the API keys and AGENTSYNC_STATE_URL are looked up. */
  env: Readonly<Record<string, string | undefined>>;
  varOverrides?: VarOverrides;
  /** Compare the two servers directly, without the manifest's resources or the states. */
  liveOnly?: boolean;
  /**
   * Checks an environment's connection settings (its key) and returns how to open its client. Both
   * are checked before anything is read, so a missing key is the one error shown.
   */
  connector: (environment: DesiredEnvironment) => () => Promise<Connection>;
  onSensitiveValues?: (values: readonly string[]) => void;
  onStateWarning?: (environment: string, warning: StateWarning) => void;
}

type LoadedSide = EnvironmentLoad;

export async function diffEnvironments(request: DiffRequest): Promise<EnvironmentsDiff> {
  const sides = await loadTwoEnvironments(request);
  const infos = sides.map((side) => infoOf(side.desired)) as [EnvironmentInfo, EnvironmentInfo];
  // Each opener notes the server it reached, to tell when both environments were read from one.
  const servers: (string | undefined)[] = [];
  const openers = sides.map((side, i) => {
    const open = request.connector(side.desired.environment);
    return async (): Promise<Connection> => {
      const connection = await open();
      servers[i] = connection.client.baseUrl;
      return connection;
    };
  });
  return withOneServerWarning(await compareBoth(request, sides, openers, infos), servers, infos);
}

async function compareBoth(request: DiffRequest, sides: readonly LoadedSide[], openers: readonly (() => Promise<Connection>)[], infos: [EnvironmentInfo, EnvironmentInfo]): Promise<EnvironmentsDiff> {
  // Both refreshes at once; every read settles before a failure is reported, so no client is left open.
  if (request.liveOnly === true) {
    const snapshots = await bothOrFail(
      sides.map((side, i) => () => readLive(openers[i]!)),
      infos,
    );
    return compareLive(infos, [snapshots[0]!, snapshots[1]!]);
  }
  const managed = await bothOrFail(
    sides.map((side, i) => () => readManaged(side, openers[i]!)),
    infos,
  );
  return compareEnvironments(managed[0]!, managed[1]!);
}

/**
 * Both environments read from one server (AGENTSYNC_BASE_URL overrides each one's own, or the
 * manifest gives both one baseUrl): the diff then compares a server with itself, and says so.
 */
function withOneServerWarning(diff: EnvironmentsDiff, servers: readonly (string | undefined)[], infos: readonly [EnvironmentInfo, EnvironmentInfo]): EnvironmentsDiff {
  const [first, second] = servers;
  if (first === undefined || first !== second) return diff;
  const message = `"${infos[0].name}" and "${infos[1].name}" were both read from ${first}, so this compares one server with itself (AGENTSYNC_BASE_URL overrides each environment's own base URL)`;
  return { ...diff, warnings: [...diff.warnings, { environment: infos[1].name, message }] };
}

/** The two environments as -e named them (in that order), each resolved from one reading of the manifest, each with its own state. */
async function loadTwoEnvironments(request: DiffRequest): Promise<[LoadedSide, LoadedSide]> {
  const wanted = [...new Set(request.environments)];
  if (wanted.length !== 2) {
    const got = wanted.length === 0 ? 'none' : wanted.length === 1 ? `only "${wanted[0]}"` : `${wanted.length}: ${wanted.join(', ')}`;
    throw new UserError('usage', `diff compares exactly two environments: give -e twice, as in \`agentsync diff -e us -e eu\` (got ${got})`);
  }
  const { environments } = await loadManyEnvironments({
    file: request.file,
    ...(request.source ? { source: request.source } : {}),
    env: request.env,
    select: (names) => selectTwo(names, wanted),
    // --live-only reads only the environments' connections: a secret its resources need is not asked for.
    ...(request.liveOnly === true ? { mode: 'validate' as const } : {}),
    ...(request.varOverrides ? { varOverrides: request.varOverrides } : {}),
    ...(request.onSensitiveValues ? { onSensitiveValues: request.onSensitiveValues } : {}),
    ...(request.onStateWarning ? { onStateWarning: request.onStateWarning } : {}),
    sharedState: (first, second, { location }) => new UserError('usage', `environments "${first}" and "${second}" share one state (${location}); each environment needs its own to be compared`),
  });
  return environments as [LoadedSide, LoadedSide];
}

function selectTwo(names: readonly string[], wanted: readonly string[]): string[] {
  const unknown = wanted.filter((name) => !names.includes(name));
  // The same line every command gives a mistaken -e (core/unknown-environment.ts).
  if (unknown.length > 0) throw unknownEnvironmentError(unknown, names);
  return [...wanted];
}

/** One environment as plan sees it: its state, refreshed from its server, and its plan. */
async function readManaged(side: LoadedSide, open: () => Promise<Connection>): Promise<ManagedSide> {
  const planned = await planEnvironment({ desired: side.desired, store: side.store, target: side.target, connect: open });
  return { info: infoOf(side.desired), resources: side.desired.resources, plan: planned.plan, untracked: planned.untracked ?? {} };
}

async function readLive(open: () => Promise<Connection>): Promise<ServerSnapshot> {
  const connection = await open();
  try {
    return await readServer(connection.client);
  } finally {
    await connection.release();
  }
}

/** Runs both reads at once; a failure names its environment (the first one's, in -e order). */
async function bothOrFail<T>(tasks: readonly (() => Promise<T>)[], infos: readonly EnvironmentInfo[]): Promise<T[]> {
  const settled = await Promise.allSettled(tasks.map((task) => task()));
  const failedAt = settled.findIndex((result) => result.status === 'rejected');
  if (failedAt >= 0) throw namedFailure((settled[failedAt] as PromiseRejectedResult).reason, infos[failedAt]!.name);
  return settled.map((result) => (result as PromiseFulfilledResult<T>).value);
}

function namedFailure(err: unknown, environment: string): unknown {
  if (!isUserError(err)) return err;
  return new UserError(err.code, `environment "${environment}": ${err.message}`, { ...err.details, environment });
}

function infoOf(desired: Desired): EnvironmentInfo {
  const { name, appId, region } = desired.environment;
  return { name, appId, region };
}
