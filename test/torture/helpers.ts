// Shared by the torture suites: the built CLI as a child process, an in-process emulator on port 0
// over real HTTP, and temp workspaces. Nothing of the project is mocked.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { startEmulator, type EmulatorHandle, type EmulatorOptions, type RequestLogEntry } from '../../src/emulator/index.js';

export const ROOT = resolve(import.meta.dirname, '..', '..');
export const CLI = join(ROOT, 'dist', 'cli', 'main.cjs');
export const API_KEY = 'torture-key-3f9c1a7e5b';

export interface CliResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

export interface CliOptions {
  cwd?: string;
  env?: Record<string, string | undefined>;
  /** Kills the child (SIGKILL) after this long; the test then fails on the null exit code. */
  timeoutMs?: number;
}

/** The environment every CLI child gets: no colour, no inherited key or base URL from the developer's shell. */
export function childEnv(extra: Record<string, string | undefined> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, NO_COLOR: '1', FORCE_COLOR: undefined, AGENTSYNC_DEBUG: undefined };
  delete env.COMETCHAT_API_KEY;
  delete env.AGENTSYNC_BASE_URL;
  for (const [key, value] of Object.entries(extra)) {
    if (value === undefined) delete env[key];
    else env[key] = value;
  }
  return env;
}

export function spawnCli(args: readonly string[], options: CliOptions = {}): ChildProcess {
  return spawn(process.execPath, [CLI, ...args], { cwd: options.cwd ?? ROOT, env: childEnv(options.env), stdio: ['ignore', 'pipe', 'pipe'] });
}

export function runCli(args: readonly string[], options: CliOptions = {}): Promise<CliResult> {
  const child = spawnCli(args, options);
  return collect(child, options.timeoutMs ?? 60_000);
}

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

export function assertBuilt(): void {
  if (!existsSync(CLI)) throw new Error(`${CLI} is missing: run \`npm run build\` (npm run test:torture does).`);
}

export interface Workspace {
  dir: string;
  path(...parts: string[]): string;
  remove(): void;
}

export function makeWorkspace(prefix = 'agentsync-torture-'): Workspace {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  return { dir, path: (...parts) => join(dir, ...parts), remove: () => rmSync(dir, { recursive: true, force: true }) };
}

export interface TortureEmulator extends EmulatorHandle {
  /** The env a CLI child needs to reach this emulator with the right key. */
  env: Record<string, string>;
  requests(): Promise<RequestLogEntry[]>;
  clearRequests(): Promise<void>;
  configure(config: Record<string, unknown>): Promise<void>;
  stats(): Promise<{ inFlight: number; maxInFlight: number; requests: number }>;
  reset(): Promise<void>;
  /** GET on the API with the key; retries 429/503/drops so a fault setting never breaks an assertion. */
  get<T>(path: string): Promise<T>;
}

export async function startTortureEmulator(options: EmulatorOptions = {}): Promise<TortureEmulator> {
  const handle = await startEmulator({ port: 0, apiKey: API_KEY, ...options });
  const admin = async (method: string, path: string, body?: unknown): Promise<unknown> => {
    const init: RequestInit = { method };
    if (body !== undefined) init.body = JSON.stringify(body);
    if (body !== undefined) init.headers = { 'content-type': 'application/json' };
    const response = await fetch(`${handle.origin}/__emulator${path}`, init);
    const json: unknown = await response.json();
    if (!response.ok) throw new Error(`${method} /__emulator${path} → ${response.status} ${JSON.stringify(json)}`);
    return json;
  };
  return Object.assign(handle, {
    env: { COMETCHAT_API_KEY: API_KEY, AGENTSYNC_BASE_URL: handle.url },
    requests: async () => ((await admin('GET', '/requests')) as { requests: RequestLogEntry[] }).requests,
    clearRequests: async () => void (await admin('DELETE', '/requests')),
    configure: async (config: Record<string, unknown>) => void (await admin('POST', '/config', config)),
    stats: async () => (await admin('GET', '/stats')) as { inFlight: number; maxInFlight: number; requests: number },
    reset: async () => {
      await admin('POST', '/reset');
      await admin('DELETE', '/requests');
      await admin('DELETE', '/stats');
    },
    get: async <T>(path: string): Promise<T> => {
      for (let attempt = 0; ; attempt++) {
        try {
          const response = await fetch(`${handle.url}${path}`, { headers: { apikey: API_KEY } });
          if (response.ok) return (await response.json()) as T;
          if (![429, 503].includes(response.status) || attempt > 50) throw new Error(`GET ${path} → ${response.status} ${await response.text()}`);
        } catch (err) {
          if (attempt > 50) throw err;
        }
        await new Promise((r) => setTimeout(r, 100));
      }
    },
  });
}

/** Summary lines ("2 errors, 0 warnings", "Error: FILE is not valid (2 errors):") are not reasons of their own. */
const SUMMARY = /^\d+ errors?, \d+ warnings?$|is not valid \(\d+ errors?\):$/;

/** The lines of stderr that give a reason: non-empty and not a summary. */
export function reasonLines(stderr: string): string[] {
  return stderr
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l !== '' && !SUMMARY.test(l));
}

/** A stack trace line, as Node prints it. */
export const STACK_TRACE = /\n\s+at /;

export interface ServerTool {
  name: string;
  displayName: string;
  executionText: string;
  doNotExecute: boolean;
  tool?: { name: string; description?: string; parameters?: { properties?: Record<string, unknown> } };
}

export interface ServerAgent {
  uid: string;
  name: string;
  instruction?: string;
  tools: string[];
  actions: string[];
  integrateWith: string;
  isActive: boolean;
}

export async function serverTools(emulator: TortureEmulator): Promise<ServerTool[]> {
  const body = await emulator.get<unknown>('/ai-agents/tools');
  return unwrapList<ServerTool>(body);
}

export async function serverAgents(emulator: TortureEmulator): Promise<ServerAgent[]> {
  const body = await emulator.get<unknown>('/ai-agents/agents');
  return unwrapList<ServerAgent>(body);
}

/** Lists come back as a bare array (agents) or wrapped in `data` (tools); accept both. */
function unwrapList<T>(body: unknown): T[] {
  if (Array.isArray(body)) return body as T[];
  const data = (body as { data?: unknown }).data;
  if (Array.isArray(data)) return data as T[];
  throw new Error(`unexpected list body: ${JSON.stringify(body).slice(0, 300)}`);
}

export function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}
