// The project the hostile-input suites (test/cli/hostile-input*.test.ts) share: a one-tool manifest
// applied to the emulator in a folder of its own, the CLI run in-process there, and the shape of
// the refusal they all expect.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect } from 'vitest';
import { runCli, type CliResult } from './cli.js';
import { startTestEmulator, type TestEmulator } from './emulator.js';

export const HOSTILE_MANIFEST = `version: 1
environments:
  local: { appId: local, region: us }
tools:
  lookup:
    displayName: Lookup
    executionText: Looking it up
    description: Looks up an order by its number.
    parameters: {}
`;

export interface HostileProject {
  emulator: TestEmulator;
  /** The project's folder: agents.yaml, and the state under .agentsync/. */
  dir: string;
  /** The CLI in the project's folder, with the emulator's environment plus `env`. */
  cli(args: string[], env?: Record<string, string | undefined>): Promise<CliResult>;
}

/** Registers the suite's beforeAll/afterAll; the returned object is filled in once beforeAll has run. */
export function useHostileProject(prefix: string): HostileProject {
  const project = {
    cli: (args: string[], env: Record<string, string | undefined> = {}) => runCli(args, { cwd: project.dir, env: { ...project.emulator.env, ...env }, timeoutMs: 20_000 }),
  } as HostileProject;
  beforeAll(async () => {
    project.emulator = await startTestEmulator();
    project.dir = mkdtempSync(join(tmpdir(), prefix));
    writeFileSync(join(project.dir, 'agents.yaml'), HOSTILE_MANIFEST);
    const applied = await project.cli(['apply', '--auto-approve']);
    if (applied.code !== 0) throw new Error(`the manifest must apply: ${applied.stderr}`);
  });
  afterAll(async () => {
    await project.emulator?.close();
    if (project.dir) rmSync(project.dir, { recursive: true, force: true });
  });
  return project;
}

/** One line on stderr, exit 1, no stack trace and no internal error. */
export function expectOneLineRefusal(result: CliResult, pattern: RegExp): void {
  expect(result.code, result.stderr).toBe(1);
  expect(result.stderr).toMatch(/^Error: [^\n]*\n$/);
  expect(result.stderr).toMatch(pattern);
  expect(result.stderr).not.toMatch(/internal error|\n\s+at /);
}
