// How the benchmarks call the built CLI: which commands exist, and the arguments and environment
// of a non-interactive apply against an emulator.
import process from 'node:process';
import { execFileSync } from 'node:child_process';
import { EMULATOR_API_KEY } from './emulator.mjs';

/** The command names `agentsync --help` lists, so a scenario whose command has not landed says so. */
export function availableCommands(cli) {
  const help = execFileSync(process.execPath, [cli, '--help'], { encoding: 'utf8' });
  const section = help.split(/^Commands:$/m)[1] ?? '';
  return new Set([...section.matchAll(/^ {2}(\S+)/gm)].map((m) => m[1]));
}

export function emulatorEnv(emulator) {
  return { COMETCHAT_API_KEY: EMULATOR_API_KEY, AGENTSYNC_BASE_URL: emulator.url, NO_COLOR: '1' };
}

export function applyArgs(cli, { file, state, concurrency }) {
  const args = [cli, 'apply', '--auto-approve', '-f', file, '--state', state];
  if (concurrency !== undefined) args.push('--concurrency', String(concurrency));
  return args;
}
