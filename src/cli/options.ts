// Options shared by every command that reads a manifest (CONTRACT §4), and the colour decision.
import type { Command } from 'commander';
import { UserError } from '../core/errors.js';
import { colorEnabled } from '../render/color.js';

/** The options every command that reads a manifest accepts (CONTRACT §4). */
export interface ManifestOptions {
  file: string;
  env?: string;
  state?: string;
  json?: boolean;
  /** false with --no-color. */
  color?: boolean;
}

/** Which of the manifest options a command really uses; help lists only those (default: all). */
export interface ManifestOptionUse {
  state?: boolean;
  color?: boolean;
}

export function addManifestOptions(cmd: Command, use: ManifestOptionUse = {}): Command {
  cmd
    .option('-f, --file <path>', 'the manifest', 'agents.yaml')
    .option('-e, --env <name>', 'the environment (default: the only one)');
  if (use.state !== false) {
    cmd.option('--state <path|url>', 'the state file, or a postgres:// URL (default: $AGENTSYNC_STATE_URL, the manifest\'s state.url, or .agentsync/<env>.state.json beside the manifest)');
  }
  cmd.option('--json', 'machine-readable output on stdout');
  if (use.color !== false) cmd.option('--no-color', 'no colours');
  return cmd;
}

/** `--lock-timeout <seconds>` for the commands that take the state lock (apply, state rm, …). */
export function addLockTimeoutOption(cmd: Command): Command {
  return cmd.option('--lock-timeout <seconds>', 'wait this long for a state lock held by another run, instead of failing at once', '0');
}

/** The --lock-timeout value in milliseconds; a usage error unless it is a whole number of seconds. */
export function lockTimeoutMs(value: string | undefined): number {
  const text = (value ?? '0').trim();
  const seconds = Number(text);
  if (!/^\d+$/.test(text) || seconds > 86_400) throw new UserError('usage', `--lock-timeout must be a whole number of seconds from 0 to 86400 (got "${value}")`);
  return seconds * 1000;
}

/** The colour decision of render/color.ts for one output stream. */
export function useColor(options: { color?: boolean }, stream: { isTTY?: boolean }, env: NodeJS.ProcessEnv = process.env): boolean {
  return colorEnabled({ isTTY: stream.isTTY === true, noColorFlag: options.color === false, env });
}
