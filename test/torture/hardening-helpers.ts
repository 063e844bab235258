// Shared by the hardening suites: a small manifest whose names are unique per project, and the
// checks every refusal must pass.
import { lstatSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'vitest';
import { runCli, type CliResult } from '../support/cli.js';
import { STACK_TRACE, type Workspace } from './helpers.js';

/**
 * A manifest with `tools` tools and one agent; `instruction` changes the agent (a state change).
 * Names carry `prefix`, so projects sharing one emulator never meet each other's resources.
 */
export function smallManifest(prefix: string, instruction: string, tools = 2): string {
  const toolBlocks = Array.from({ length: tools }, (_, i) => `  ${prefix}_t${i}:\n    displayName: Tool ${i}\n    executionText: Running ${i}\n    doNotExecute: true\n`).join('');
  return `version: 1
environments:
  local:
    appId: local
    region: us
tools:
${toolBlocks}agents:
  helper:
    name: Helper ${prefix}
    integrationType: llm
    integrateWith: gpt-4o
    instruction: ${JSON.stringify(instruction)}
    tools: [${prefix}_t0]
`;
}

/** Exit 1, exactly one `Error:` line, no internal error, no stack. Returns that line. */
export function expectOneLineRefusal(result: CliResult): string {
  expect(result.code, `stdout: ${result.stdout}\nstderr: ${result.stderr}`).toBe(1);
  expect(result.stderr).not.toMatch(/internal error/);
  expect(result.stderr).not.toMatch(STACK_TRACE);
  const errors = result.stderr.split('\n').filter((l) => l.startsWith('Error:'));
  expect(errors, result.stderr).toHaveLength(1);
  return errors[0]!;
}

export function leftoverTemps(dir: string): string[] {
  return readdirSync(dir).filter((name) => /\.tmp/.test(name));
}

export function kindOf(path: string): string {
  const s = lstatSync(path);
  if (s.isSymbolicLink()) return 'symlink';
  if (s.isFile()) return 'file';
  if (s.isDirectory()) return 'directory';
  if (s.isCharacterDevice()) return 'char device';
  if (s.isFIFO()) return 'fifo';
  if (s.isSocket()) return 'socket';
  return 'other';
}

/** A project folder with a small manifest and its own state file, run against one emulator. */
export interface SmallProject {
  dir: string;
  manifest: string;
  state: string;
  /** `-f manifest --state state` */
  args: string[];
  /** Rewrites the manifest with another instruction (and tool count). */
  write(instruction: string, tools?: number): void;
  cli(args: string[], extraEnv?: Record<string, string | undefined>): Promise<CliResult>;
}

/**
 * Makes small projects in `ws`, named `prefix` and a count (names of resources on a shared emulator
 * stay apart). `env` is read when a project runs, so it may name an emulator started later.
 */
export function smallProjects(ws: () => Workspace, env: () => Record<string, string>, prefix: string): (instruction?: string, tools?: number) => SmallProject {
  let made = 0;
  return (instruction = 'v1', tools = 2) => {
    const name = `${prefix}${++made}`;
    const dir = ws().path(name);
    mkdirSync(dir);
    const manifest = join(dir, 'agents.yaml');
    const write = (text: string, count = tools): void => writeFileSync(manifest, smallManifest(name, text, count));
    write(instruction);
    const state = join(dir, 'state.json');
    return { dir, manifest, state, args: ['-f', manifest, '--state', state], write, cli: (args, extraEnv = {}) => runCli(args, { env: { ...env(), ...extraEnv }, cwd: dir }) };
  };
}

/** A folder in `ws` with `manifest` written in it as agents.yaml, and where its state goes. */
export function manifestProject(ws: Workspace, manifest: string): { dir: string; manifest: string; state: string } {
  const dir = ws.path(`case-${++manifestProjects}`);
  mkdirSync(dir);
  const path = join(dir, 'agents.yaml');
  writeFileSync(path, manifest);
  return { dir, manifest: path, state: join(dir, 'state.json') };
}
let manifestProjects = 0;

/** The environments a small test manifest starts with. */
export const HEADER = `version: 1
environments:
  local: { appId: local, region: us }
`;

/** A tool that does not execute, so an agent-less manifest needs nothing else. */
export const CARD_TOOL = `tools:
  show_card:
    displayName: Card
    executionText: Showing a card
    doNotExecute: true
`;
