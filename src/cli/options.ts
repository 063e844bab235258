// Options shared by every command that reads a manifest (CONTRACT §4), and the colour decision.
import type { Command } from 'commander';

export interface ManifestOptions {
  file: string;
  env?: string;
  state?: string;
  json?: boolean;
  color: boolean;
}

export function addManifestOptions(cmd: Command): Command {
  return cmd
    .option('-f, --file <path>', 'the manifest', 'agents.yaml')
    .option('-e, --env <name>', 'the environment (default: the only one)')
    .option('--state <path>', 'the state file (default: .agentsync/<env>.state.json beside the manifest)')
    .option('--json', 'machine-readable output on stdout')
    .option('--no-color', 'no colours');
}

/** --no-color and NO_COLOR switch colour off, FORCE_COLOR on; otherwise only on a terminal. */
export function useColor(options: { color?: boolean }, stream: { isTTY?: boolean }, env: NodeJS.ProcessEnv = process.env): boolean {
  if (options.color === false) return false;
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== '') return false;
  if (env.FORCE_COLOR !== undefined) return env.FORCE_COLOR !== '0' && env.FORCE_COLOR !== 'false';
  return stream.isTTY === true;
}
