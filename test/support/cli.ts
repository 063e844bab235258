// The one way the tests run the built CLI (dist/cli/main.cjs): a child process with a clean,
// explicit environment. Asynchronous on purpose: the emulator a test talks to runs in the test
// process and must keep serving while the child runs.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { screenOf } from './screen.js';

export const ROOT = resolve(import.meta.dirname, '..', '..');
export const CLI = join(ROOT, 'dist', 'cli', 'main.cjs');

export interface CliResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/** Additions to the child's environment; `undefined` removes a name. */
export type EnvAdditions = Readonly<Record<string, string | undefined>>;

export interface CliOptions {
  /** Default: the repository root. */
  cwd?: string;
  env?: EnvAdditions;
  /** Written to the child's stdin, which is then closed (default: closed at once, empty). */
  stdin?: string;
  /** SIGKILLs the child after this long (default 60 s); the test then fails on the null exit code. */
  timeoutMs?: number;
  /** Another entry point than dist/cli/main.cjs (e.g. the bundle's dist/cli/agentsync.cjs). */
  bin?: string;
}

/** Names a child may take from the parent: where programs and temp files are, and nothing else. */
const PASSED_THROUGH = ['PATH', 'HOME', 'TMPDIR', 'SystemRoot'] as const;

/**
 * The bin's code cache (src/io/runtime/code-cache.ts) for this checkout alone. The default one in
 * the temp folder holds 32 files for every checkout on the machine: with a few worktrees running
 * their suites at once they evict each other's, and every CLI child compiles from scratch and
 * writes a new cache (about a third more CPU per child).
 */
const CODE_CACHE = join(tmpdir(), `agentsync-test-code-cache-${process.getuid?.() ?? 'user'}-${createHash('sha256').update(ROOT).digest('hex').slice(0, 8)}`);

/**
 * The environment of every child the tests start: the few names in PASSED_THROUGH, NO_COLOR, this
 * checkout's code cache, then `additions`. Nothing else of the parent's (no AGENTSYNC_*, COMETCHAT_*,
 * GITHUB_ACTIONS, FORCE_COLOR or NODE_OPTIONS from the developer's shell or CI) reaches the CLI
 * unless a test says so.
 */
export function cliEnv(additions: EnvAdditions = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { NO_COLOR: '1', NODE_COMPILE_CACHE: CODE_CACHE };
  for (const name of PASSED_THROUGH) if (process.env[name] !== undefined) env[name] = process.env[name];
  for (const [name, value] of Object.entries(additions)) {
    if (value === undefined) delete env[name];
    else env[name] = value;
  }
  return env;
}

export function assertBuilt(): void {
  if (!existsSync(CLI)) throw new Error(`${CLI} is missing: run \`npm run build\` (npm test does).`);
}

export interface CliRun {
  child: ChildProcess;
  done: Promise<CliResult>;
}

/** Starts the CLI and returns the child at once, for tests that signal or kill it mid-run. */
export function startCli(args: readonly string[], options: CliOptions = {}): CliRun {
  const child = spawn(process.execPath, [options.bin ?? CLI, ...args], { cwd: options.cwd ?? ROOT, env: cliEnv(options.env), stdio: ['pipe', 'pipe', 'pipe'] });
  // A child that exits before reading its stdin makes the write fail with EPIPE; that is not an error here.
  child.stdin?.on('error', () => undefined);
  child.stdin?.end(options.stdin ?? '');
  return { child, done: collect(child, options.timeoutMs) };
}

export function runCli(args: readonly string[], options: CliOptions = {}): Promise<CliResult> {
  return startCli(args, options).done;
}

/** Everything a child prints, and how it ended; SIGKILLs it after `timeoutMs`. */
export function collect(child: ChildProcess, timeoutMs = 60_000): Promise<CliResult> {
  return new Promise((resolvePromise, reject) => {
    let stdout = '';
    let stderr = '';
    child.stdout?.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('error', reject);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolvePromise({ code, signal, stdout, stderr });
    });
  });
}

export interface TerminalOptions {
  cwd?: string;
  env?: EnvAdditions;
  /** TERM (default `dumb`). */
  term?: string;
  /** Sets the terminal's width first (`stty cols`). */
  columns?: number;
  /** Each waits until the screen shows `when`, then types `send`. */
  steps?: readonly { when: string; send: string }[];
  timeoutMs?: number;
}

export interface TerminalResult {
  code: number | null;
  /** Everything the terminal received, escapes included. */
  raw: string;
  /** What the screen shows at the end. */
  screen: string[];
}

/** util-linux `script`, which the terminal runs need; tests skip without it. */
export function hasScript(): boolean {
  return spawnSync('script', ['--version']).status === 0;
}

const shellQuote = (word: string): string => `'${word.replaceAll("'", `'\\''`)}'`;

/** Runs the CLI on a pseudo-terminal (under `script`), typing each step's answer when its prompt shows. */
export function runCliOnTerminal(args: readonly string[], options: TerminalOptions = {}): Promise<TerminalResult> {
  const cli = [process.execPath, CLI, ...args].map(shellQuote).join(' ');
  const command = options.columns === undefined ? `exec ${cli}` : `stty cols ${options.columns} rows 40; exec ${cli}`;
  const env = cliEnv({ TERM: options.term ?? 'dumb', ...options.env });
  const child = spawn('script', ['-qfec', command, '/dev/null'], { cwd: options.cwd ?? ROOT, env, stdio: ['pipe', 'pipe', 'pipe'] });
  const steps = options.steps ?? [];
  let raw = '';
  let next = 0;
  child.stdout.on('data', (chunk: Buffer) => {
    raw += chunk.toString();
    const step = steps[next];
    if (step && screenOf(raw).join('\n').includes(step.when)) {
      next++;
      child.stdin.write(step.send);
    }
  });
  return new Promise((resolvePromise, reject) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 30_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolvePromise({ code, raw, screen: screenOf(raw) });
    });
  });
}
