// One run of the built bin (dist/cli/main.cjs, a child process) per command: the in-process tests
// drive the same code through runMain, so what this adds is the bin itself: the bundle loads every
// command's modules, entry.ts wires the real streams, environment and folder, and the exit code
// reaches the shell. The emulator's own start and stop are test/emulator/cli.test.ts.
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertBuilt, runCliProcess, type CliResult } from '../support/cli.js';
import { startTestEmulator, type TestEmulator } from '../support/emulator.js';

let emu: TestEmulator;
let dir: string;
beforeAll(async () => {
  assertBuilt();
  emu = await startTestEmulator({ kb: { kbProcessingMs: 0 } });
  dir = await mkdtemp(join(tmpdir(), 'agentsync-bin-smoke-'));
});
afterAll(async () => {
  await emu.close();
  await rm(dir, { recursive: true, force: true });
});

const bin = (args: string[], stdin?: string): Promise<CliResult> => runCliProcess(args, { cwd: dir, env: emu.env, ...(stdin === undefined ? {} : { stdin }) });

function ok(result: CliResult): CliResult {
  expect(result.stderr).not.toMatch(/internal error|\n\s+at /);
  expect(result.code, result.stderr).toBe(0);
  return result;
}

describe('the built bin, one run per command, in order', () => {
  it('init, validate, lint, graph, fmt, schema and completion', async () => {
    expect(ok(await bin(['init'])).stdout).toContain('created agents.yaml');
    expect(ok(await bin(['validate'])).stdout).toBe('agents.yaml is valid (environment local).\n');
    expect(ok(await bin(['lint'])).stdout).toContain('agents.yaml');
    expect(ok(await bin(['graph'])).stdout).toMatch(/^(flowchart|graph) /);
    expect(ok(await bin(['fmt', '--check'])).stdout).toBe('');
    expect(JSON.parse(ok(await bin(['schema'])).stdout)).toHaveProperty('$schema');
    expect(ok(await bin(['completion', 'bash'])).stdout).toContain('agentsync');
  });

  it('plan --out, show, apply PLANFILE, state list, kb status, import, export and send', async () => {
    expect(ok(await bin(['plan', '--out', 'plan.json'])).stdout).toContain('Saved the plan to plan.json');
    expect(ok(await bin(['show', 'plan.json'])).stdout).toContain('agent.assistant');
    expect(ok(await bin(['apply', 'plan.json'])).stdout).toContain('Apply complete');
    expect(ok(await bin(['state', 'list'])).stdout).toContain('agent.assistant');
    expect(ok(await bin(['kb', 'status', '--json'])).stdout.trim()).toMatch(/^[[{]/);
    expect(ok(await bin(['import'])).stdout).toContain('Imported 0 resources.');
    expect(ok(await bin(['export', '--out', 'exported.yaml'])).stdout).toContain('to exported.yaml');
    expect(await readFile(join(dir, 'exported.yaml'), 'utf8')).toContain('agents:');
    expect(ok(await bin(['send', '--to', 'agent:assistant', '--text', 'hello'])).stdout).toMatch(/^\S+\n$/);
  });

  it('a usage error and a manifest error exit 1 with one line; -f - reads the real stdin', async () => {
    const usage = await bin(['plan', '--no-such-flag']);
    expect(usage.code).toBe(1);
    expect(usage.stderr.trim().split('\n')).toHaveLength(1);
    await writeFile(join(dir, 'broken.yaml'), 'version: 2\n');
    expect((await bin(['validate', '-f', 'broken.yaml'])).code).toBe(1);
    const piped = await bin(['validate', '-f', '-'], await readFile(join(dir, 'agents.yaml'), 'utf8'));
    expect(ok(piped).stdout).toBe('<stdin> is valid (environment local).\n');
  });
});
