// Runs the built CLI (dist/cli/main.cjs) as a child process. Asynchronous on purpose: the emulator
// these tests talk to runs in the test process and must keep serving while the child runs.
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export const CLI = fileURLToPath(new URL('../../dist/cli/main.cjs', import.meta.url));

export interface CliResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

export interface CliRun {
  child: ChildProcess;
  done: Promise<CliResult>;
}

export function startCli(args: readonly string[], options: { cwd: string; env?: NodeJS.ProcessEnv }): CliRun {
  const env: NodeJS.ProcessEnv = { PATH: process.env.PATH, NO_COLOR: '1', ...options.env };
  const child = spawn(process.execPath, [CLI, ...args], { cwd: options.cwd, env, stdio: ['pipe', 'pipe', 'pipe'] });
  child.stdin?.end();
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const done = new Promise<CliResult>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr }));
  });
  return { child, done };
}

export function runCli(args: readonly string[], options: { cwd: string; env?: NodeJS.ProcessEnv }): Promise<CliResult> {
  return startCli(args, options).done;
}
