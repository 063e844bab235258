// Options shared by every command that reads a manifest (docs/spec/commands.md#common-options), and the colour decision.
import type { Command } from 'commander';
import { UserError } from '../core/errors.js';
import type { ManifestLocation } from '../io/manifest/manifest-location.js';
import { colorEnabled } from '../render/color.js';
import { quotedInput } from '../render/json-document.js';

/** The options every command that reads a manifest accepts (docs/spec/commands.md#common-options). */
export interface ManifestOptions {
  /** Every -f given, or the default manifest (filled in before the command runs: see manifestDefault in program.ts). */
  file: ManifestLocation;
  env?: string;
  state?: string;
  json?: boolean;
  /** false with --no-color. */
  color?: boolean;
  /** `--var NAME=VALUE` (repeatable) and `--var-file FILE`: override the environment's vars. */
  var?: string[];
  varFile?: string;
  /** `--timeout <seconds>`, on the commands that call the API (addResponseTimeoutOption). */
  timeout?: string;
}

/**
 * plan and apply work on several environments at once (docs/spec/state.md#many-environments): `-e`
 * may be repeated or given a comma list (environment names cannot hold a comma), and
 * --all-environments takes them all.
 */
export interface ManyEnvironmentOptions extends Omit<ManifestOptions, 'env'> {
  env?: string[];
  allEnvironments?: boolean;
  /** --parallel: environments worked on at once. */
  parallel: string;
}

/** Which of the manifest options a command really uses; help lists only those (default: all, one environment). */
export interface ManifestOptionUse {
  manyEnvironments?: boolean;
  state?: boolean;
  color?: boolean;
  /** What -e means when the command does not default to the only environment (validate checks every one). */
  envHelp?: string;
}

export function addManifestOptions(cmd: Command, use: ManifestOptionUse = {}): Command {
  addFileOption(cmd);
  if (use.manyEnvironments === true) {
    cmd
      .option('-e, --env <name>', 'the environment (default: the only one); repeat it, or give a comma list, for several', collectEnvironments)
      .option('--all-environments', 'every environment in the manifest')
      .option('--parallel <n>', 'with several environments, how many are worked on at once', '4');
  } else {
    cmd.option('-e, --env <name>', use.envHelp ?? 'the environment (default: the only one)', onlyOnce);
  }
  if (use.state !== false) {
    cmd.option(
      '--state <path|url>',
      "the state file, or a postgres:// URL (default: $AGENTSYNC_STATE_URL, the manifest's state.url, or .agentsync/<env>.state.json beside the manifest)",
      nonEmptyPath('--state'),
    );
  }
  cmd.option('--json', 'machine-readable output on stdout');
  if (use.color !== false) cmd.option('--no-color', 'no colours');
  return cmd;
}

/**
 * `-f`: a file or a folder of parts, repeatable. It has no commander default: the default depends
 * on the run's folder and environment (agents.yaml, else agents/), and is filled in just before the
 * command runs.
 */
export function addFileOption(cmd: Command): Command {
  return cmd.option('-f, --file <path>', 'the manifest: a file, or a folder of *.yaml parts; repeat it for several (default: $AGENTSYNC_MANIFEST, agents.yaml, or an agents/ folder)', collectFiles);
}

/**
 * The parser of a flag or argument that names a file, folder or URL. An empty value is nearly
 * always an unset shell variable (`--state "$STATE"`, `apply "$PLAN"`): refused, never read as
 * "not given", which would use the default state or run a fresh apply instead of the saved plan.
 */
export function nonEmptyPath(what: string): (value: string) => string {
  return (value) => {
    if (value === '') throw new UserError('usage', `${what} is empty; give a path (is the variable it came from set?)`);
    return value;
  };
}

function collectFiles(value: string, previous: string[] | undefined): string[] {
  if (value === '') throw new UserError('usage', '-f needs a file or folder');
  return [...(previous ?? []), value];
}

function collectEnvironments(value: string, previous: string[] | undefined): string[] {
  const names = value.split(',').map((name) => name.trim());
  if (names.some((name) => name === '')) throw new UserError('usage', `-e needs environment names (got "${value}")`);
  return [...(previous ?? []), ...names];
}

/** Commands other than plan and apply work on one environment; a second -e is a mistake, not a choice. */
function onlyOnce(value: string, previous: string | undefined): string {
  if (previous !== undefined) throw new UserError('usage', `-e can be given once here (got "${previous}" and "${value}"); only plan and apply take several environments`);
  return value;
}

/** One environment (possibly still to be picked: the only one) or several, from plan/apply's flags. */
export type EnvironmentChoice = { kind: 'one'; env: string | undefined } | { kind: 'many' };

export function environmentChoice(opts: Pick<ManyEnvironmentOptions, 'env' | 'allEnvironments'>): EnvironmentChoice {
  const names = [...new Set(opts.env ?? [])];
  if (opts.allEnvironments === true) {
    if (names.length > 0) throw new UserError('usage', 'use either -e or --all-environments, not both');
    return { kind: 'many' };
  }
  return names.length <= 1 ? { kind: 'one', env: names[0] } : { kind: 'many' };
}

/** `--var` and `--var-file` (plan, apply, validate), as in Terraform. */
export function addVarOptions(cmd: Command): Command {
  return cmd
    .option('--var <NAME=VALUE>', "set one of the environment's vars for this run (repeatable; wins over --var-file)", (value: string, previous: string[] | undefined) => [...(previous ?? []), value])
    .option('--var-file <file>', "a YAML map of NAME: value that overrides the environment's vars", nonEmptyPath('--var-file'));
}

/** `--timeout <seconds>` for every command that calls the API: how long one response may take. */
export function addResponseTimeoutOption(cmd: Command, description = 'how long to wait for each response before retrying it (reads) or failing'): Command {
  return cmd.option('--timeout <seconds>', description, '30');
}

/** The --timeout value in milliseconds; a usage error unless it is a whole number of seconds from 1 to 3600. */
export function responseTimeoutMs(value: string | undefined): number {
  return parseCount(value ?? '30', '--timeout', 1, 3600) * 1000;
}

/**
 * A number written as plainly as it can be: digits only, no sign, no leading zero, no space around.
 * Anything else (` 5`, `05`, `+5`, `5e0`, `0x5`) is a typo or a script's mistake, not a number to guess at.
 */
const CANONICAL_COUNT = /^(?:0|[1-9]\d*)$/;

/** A flag's whole number from `min` to `max`; a usage error naming the flag otherwise. */
export function parseCount(value: string, flag: string, min: number, max: number): number {
  const n = Number(value);
  if (!CANONICAL_COUNT.test(value) || n < min || n > max) throw new UserError('usage', `${flag} must be a whole number from ${min} to ${max} (got ${quotedInput(value)})`);
  return n;
}

/** `--lock-timeout <seconds>` for the commands that take the state lock (apply, state rm, …). */
export function addLockTimeoutOption(cmd: Command): Command {
  return cmd.option('--lock-timeout <seconds>', 'wait this long for a state lock held by another run, instead of failing at once', '0');
}

/** The --lock-timeout value in milliseconds; a usage error unless it is a whole number of seconds. */
export function lockTimeoutMs(value: string | undefined): number {
  const text = value ?? '0';
  const seconds = Number(text);
  if (!CANONICAL_COUNT.test(text) || seconds > 86_400) throw new UserError('usage', `--lock-timeout must be a whole number of seconds from 0 to 86400 (got ${quotedInput(text)})`);
  return seconds * 1000;
}

/** The colour decision of render/color.ts for one output stream. */
export function useColor(options: { color?: boolean }, stream: { isTTY?: boolean }, env: Readonly<Record<string, string | undefined>>): boolean {
  return colorEnabled({ isTTY: stream.isTTY === true, noColorFlag: options.color === false, env });
}
