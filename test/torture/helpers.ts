// Shared by the torture suites: temp workspaces, the reasons in a refusal, and the server's lists.
// The CLI and the emulator come from test/support/ (cli.ts, emulator.ts). Nothing is mocked.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestEmulator } from '../support/emulator.js';

export interface Workspace {
  dir: string;
  path(...parts: string[]): string;
  remove(): void;
}

export function makeWorkspace(prefix = 'agentsync-torture-'): Workspace {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  return { dir, path: (...parts) => join(dir, ...parts), remove: () => rmSync(dir, { recursive: true, force: true }) };
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

export async function serverTools(emulator: TestEmulator): Promise<ServerTool[]> {
  const body = await emulator.get<unknown>('/ai-agents/tools');
  return unwrapList<ServerTool>(body);
}

export async function serverAgents(emulator: TestEmulator): Promise<ServerAgent[]> {
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
