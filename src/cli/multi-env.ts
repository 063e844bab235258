// What plan and apply share when they work on several environments at once
// (docs/spec/state.md#many-environments): choosing the environments, loading the manifest once for
// all of them, one state store each (never two environments on one state), running them
// `--parallel` at a time with every failure kept to its own environment, and each environment's
// share of the output.
import type { Desired } from '../core/desired.js';
import { isUserError, UserError } from '../core/errors.js';
import { loadManyEnvironments } from '../app/load-many.js';
import { readVarOverrides } from '../io/manifest/var-overrides.js';
import { hideInOutput, scrubOutside } from '../io/api/outside-text.js';
import type { StateStore, StateTarget } from '../io/state/index.js';
import { createMultiProgress, type MultiProgress } from '../render/multi-env-progress.js';
import { environmentHeader, environmentNotice, prefixLines, type EnvironmentFailure, type EnvironmentInfo } from '../render/multi-env.js';
import { createProgress, type Progress } from '../render/progress.js';
import { parseCount, type ManyEnvironmentOptions } from './options.js';
import { printWarnings } from './render-plan.js';
import { isDebug, manifestSource, type CliIo, type OutputStream } from './cli-io.js';
import { unknownEnvironmentError } from '../core/unknown-environment.js';

export const DEFAULT_PARALLEL = 4;

export function parseParallel(value: string | undefined): number {
  return parseCount(value ?? String(DEFAULT_PARALLEL), '--parallel', 1, 64);
}

/** The environments -e names (in the order given, each once), or all of them with --all-environments. */
export function selectEnvironments(names: readonly string[], opts: Pick<ManyEnvironmentOptions, 'env' | 'allEnvironments'>): string[] {
  if (opts.allEnvironments === true) return [...names];
  const wanted = [...new Set(opts.env ?? [])];
  const unknown = wanted.filter((name) => !names.includes(name));
  if (unknown.length > 0) throw unknownEnvironmentError(unknown, names);
  // Manifest order, whatever order -e named them in: the same manifest always reads the same way.
  return names.filter((name) => wanted.includes(name));
}

export interface EnvironmentRun {
  info: EnvironmentInfo;
  desired: Desired;
  store: StateStore;
  target: StateTarget;
}

/** Either the one environment the selection came down to, or everything needed to run several. */
export type LoadedEnvironments = { single: string } | { single?: undefined; runs: EnvironmentRun[] };

/**
 * Reads and resolves the manifest for the selected environments (a bad manifest stops everything
 * before any call) and gives each its own state store. Two environments on one state would
 * overwrite each other, so that is refused, naming where the shared location came from.
 */
export async function loadEnvironments(opts: ManyEnvironmentOptions, io: CliIo, warn: (environment: string, message: string) => void): Promise<LoadedEnvironments> {
  const varOverrides = await readVarOverrides(opts, io.cwd);
  const { selected, environments, warnings } = await loadManyEnvironments({
    file: opts.file,
    source: manifestSource(io),
    env: io.env,
    select: (names) => selectEnvironments(names, opts),
    ...(opts.state === undefined ? {} : { state: opts.state }),
    onSensitiveValues: hideInOutput,
    onStateWarning: (environment, w) => warn(environment, w.message),
    ...(varOverrides ? { varOverrides } : {}),
    sharedState: (other, name, { source }) =>
      new UserError(
        'usage',
        `environments "${other}" and "${name}" would share one state (${source === 'the default' ? 'the same file' : `from ${source}`}); with several environments leave --state out (each gets .agentsync/<env>.state.json) or use a postgres:// URL, whose key is the environment name unless state.key says otherwise`,
      ),
  });
  if (selected.length === 1) return { single: selected[0]! };
  printWarnings(io, warnings, opts);
  return { runs: environments.map((loaded): EnvironmentRun => ({ ...loaded, info: { name: loaded.target.environment, appId: loaded.target.appId, region: loaded.target.region } })) };
}

/** Runs tasks at most `max` at a time, in order; `first` puts a task ahead of those waiting (an apply whose plan is done). */
export function createLimiter(max: number): <T>(task: () => Promise<T>, options?: { first?: boolean }) => Promise<T> {
  let running = 0;
  const waiting: (() => void)[] = [];
  const next = (): void => {
    running--;
    waiting.shift()?.();
  };
  return async (task, options = {}) => {
    if (running >= max) {
      await new Promise<void>((resolve) => (options.first ? waiting.unshift(resolve) : waiting.push(resolve)));
    }
    running++;
    try {
      return await task();
    } finally {
      next();
    }
  };
}

/** An environment's error as one line for its row; a bug says so (and, with AGENTSYNC_DEBUG=1, where). */
export function failureOf(err: unknown, io: CliIo): EnvironmentFailure {
  if (isUserError(err)) return { code: err.code, message: err.message.split('\n')[0] ?? err.code };
  const message = scrubOutside(err instanceof Error ? err.message : String(err));
  if (isDebug(io) && err instanceof Error && err.stack) io.stderr.write(`${scrubOutside(err.stack)}\n`);
  return { code: 'internal_error', message: `internal error: ${message}` };
}

/** One environment's share of the output. */
export interface EnvironmentOutput {
  /** A block of its section (a plan, a summary), under its header line. */
  section(text: string): void;
  warning(message: string): void;
  error(message: string): void;
  progress(total: number): Progress;
}

export interface MultiOutput {
  forEnvironment(info: EnvironmentInfo): EnvironmentOutput;
  /** Text that belongs to the whole run (the closing table), above any live line. */
  print(text: string): void;
}

/**
 * On a terminal each block is printed whole under its header, and one live line shows every
 * environment's progress. Elsewhere (CI) every line is prefixed `[env] ` and progress is one
 * plain line per change, so interleaved environments stay readable.
 */
export function createMultiOutput(settings: { stream: OutputStream; stderr: OutputStream; color: boolean }): MultiOutput {
  const { stream, color } = settings;
  const terminal = stream.isTTY === true;
  const live: MultiProgress | undefined = terminal ? createMultiProgress({ color, write: (text) => stream.write(text), columns: stream.columns }) : undefined;
  const print = (text: string, write: (text: string) => void = (t) => stream.write(t)): void => {
    if (live) live.print(text, write);
    else write(text);
  };
  const toStderr = (text: string) => settings.stderr.write(text);
  let sections = 0;
  return {
    forEnvironment(info) {
      const name = info.name;
      const tagged = (text: string) => (terminal ? text : prefixLines(text, name));
      return {
        // A blank line between sections, as between the blocks of one plan.
        section: (text) => print(`${sections++ > 0 ? '\n' : ''}${tagged(`${environmentHeader(info, { color })}\n\n${text}`)}`),
        warning: (message) => print(environmentNotice('Warning', name, message, terminal), toStderr),
        error: (message) => print(environmentNotice('Error', name, message, terminal), toStderr),
        progress: (total) => live?.environment(name, total) ?? createProgress({ tty: false, color, total, write: (text) => stream.write(prefixLines(text, name)) }),
      };
    },
    print: (text) => print(text),
  };
}
