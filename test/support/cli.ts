// The ways the tests run the CLI. `runCli` runs it in this process, through the same runMain the bin
// calls, with captured streams, a clean explicit environment and a folder of its own: no child, so
// a run costs milliseconds instead of a Node start-up. `runCliProcess`, `startCli` and
// `runCliOnTerminal` run the built bin (dist/cli/main.cjs) as a child, for the tests whose subject
// is the process: signals, exit codes set by the bin, EPIPE, a terminal, start-up, the package.
// Asynchronous on purpose: the emulator a test talks to runs in the test process and must keep
// serving while the CLI runs.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { Readable, Writable } from 'node:stream';
import { runMain } from '../../src/cli/run.js';
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
 * the temp folder keeps the caches of 8 builds for every checkout on the machine: with a few
 * worktrees rebuilding and running their suites at once they would evict each other's, and every
 * CLI child would compile from scratch and write a new cache.
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

/** The built bin as a child process, for tests whose subject is the process itself. */
export function runCliProcess(args: readonly string[], options: CliOptions = {}): Promise<CliResult> {
  return startCli(args, options).done;
}

export interface InProcessOptions extends Omit<CliOptions, 'bin'> {
  /** Aborting it is the run's SIGINT or SIGTERM (the reason names which). */
  signal?: AbortSignal;
  /** What the streams say they are: a terminal of this width, or (default) a pipe. */
  tty?: { stdout?: boolean; stderr?: boolean; stdin?: boolean; columns?: number };
}

/**
 * The CLI in this process, through runMain: the same program, commands and error handling the bin
 * runs, with the environment cliEnv() builds and `cwd` (default: the repository root) as its folder.
 */
export async function runCli(args: readonly string[], options: InProcessOptions = {}): Promise<CliResult> {
  return startCliInProcess(args, options).done;
}

export interface InProcessRun {
  /** What the run has printed so far. */
  stdout(): string;
  stderr(): string;
  done: Promise<CliResult>;
}

/** runCli, returning at once: for a run that prints while it goes on (a server's ready line) and is stopped through `signal`. */
export function startCliInProcess(args: readonly string[], options: InProcessOptions = {}): InProcessRun {
  const stdout = new CapturedStream(options.tty?.stdout === true, options.tty?.columns);
  const stderr = new CapturedStream(options.tty?.stderr === true, options.tty?.columns);
  const stdin = Object.assign(Readable.from(options.stdin === undefined ? [] : [Buffer.from(options.stdin)]), { isTTY: options.tty?.stdin === true });
  // A warning Node emits during the run (TimeoutOverflowWarning, MaxListenersExceededWarning…) is
  // the run's, and a child would have printed it on its stderr: it is kept there here too.
  const onWarning = (warning: Error): void => void stderr.write(`(node:${process.pid}) ${warning.name}: ${warning.message}\n`);
  process.on('warning', onWarning);
  const run = runMain(args, { stdout, stderr, stdin, env: cliEnv(options.env), cwd: options.cwd ?? ROOT, signal: options.signal ?? new AbortController().signal });
  const done = (async (): Promise<CliResult> => {
    // A run that hangs ends the test with a null exit code, as a child killed after timeoutMs did.
    let timer: ReturnType<typeof setTimeout> | undefined;
    const hung = new Promise<null>((resolve) => (timer = setTimeout(() => resolve(null), options.timeoutMs ?? 60_000)));
    let code: number | null;
    try {
      code = await Promise.race([run, hung]);
      // Warnings are emitted on a later tick: let any the run caused arrive first.
      await new Promise((resolve) => setImmediate(resolve));
    } finally {
      clearTimeout(timer);
      process.off('warning', onWarning);
    }
    return { code, signal: null, stdout: stdout.text, stderr: stderr.text };
  })();
  return { stdout: () => stdout.text, stderr: () => stderr.text, done };
}

/** A stream that keeps what is written to it, as text. */
class CapturedStream extends Writable {
  text = '';
  constructor(
    readonly isTTY: boolean,
    readonly columns: number | undefined,
  ) {
    super({ decodeStrings: false });
  }
  override _write(chunk: unknown, _encoding: BufferEncoding, done: (error?: Error | null) => void): void {
    this.text += typeof chunk === 'string' ? chunk : Buffer.from(chunk as Uint8Array).toString('utf8');
    done();
  }
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
