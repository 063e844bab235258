// Options shared by every command that reads a manifest (CONTRACT §4), and the colour decision.
import type { Command } from 'commander';
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

export function addManifestOptions(cmd: Command): Command {
  return cmd
    .option('-f, --file <path>', 'the manifest', 'agents.yaml')
    .option('-e, --env <name>', 'the environment (default: the only one)')
    .option('--state <path>', 'the state file (default: .agentsync/<env>.state.json beside the manifest)')
    .option('--json', 'machine-readable output on stdout')
    .option('--no-color', 'no colours');
}

/** The colour decision of render/color.ts for one output stream. */
export function useColor(options: { color?: boolean }, stream: { isTTY?: boolean }, env: NodeJS.ProcessEnv = process.env): boolean {
  return colorEnabled({ isTTY: stream.isTTY === true, noColorFlag: options.color === false, env });
}
