// One run of the built bin (dist/cli/main.cjs, a child process) per command: the in-process tests
// drive the same code through runMain, so what this adds is the bin itself: the bundle loads every
// command's modules, entry.ts wires the real streams, environment and folder, and the exit code
// reaches the shell. The emulator's stop on a real signal is test/cli/signals.test.ts. Last, `npm run
// demo` (scripts/demo.mjs), which runs the built bin against the root agents.yaml.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertBuilt, ROOT, runCliProcess, type CliResult } from '../support/cli.js';
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

  it('examples/agent-builder applies through the bin (a file uploaded through the vendored undici) and then plans No changes', async () => {
    await cp(join(ROOT, 'examples', 'agent-builder'), join(dir, 'agent-builder'), { recursive: true });
    const applied = ok(await bin(['apply', '-f', 'agent-builder', '--auto-approve', '--state', 'ab.state.json']));
    expect(applied.stdout).toMatch(/created file\.handbook/);
    expect(applied.stdout).toContain('Apply complete: 5 created');
    const plan = ok(await bin(['plan', '-f', 'agent-builder', '--state', 'ab.state.json', '--detailed-exitcode']));
    expect(plan.stdout).toContain('No changes.');
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

describe('npm run demo', () => {
  it('applies the root agents.yaml to an in-process emulator, then shows no changes, with no key and no trace', async () => {
    const hadStateDir = existsSync(join(ROOT, '.agentsync'));
    const env: NodeJS.ProcessEnv = { PATH: process.env.PATH, NO_COLOR: '1' };
    const { code, stdout, stderr } = await new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve, reject) => {
      const child = spawn(process.execPath, [join(ROOT, 'scripts', 'demo.mjs')], { cwd: ROOT, env });
      let out = '';
      let err = '';
      child.stdout.on('data', (c: Buffer) => (out += c.toString()));
      child.stderr.on('data', (c: Buffer) => (err += c.toString()));
      child.on('error', reject);
      child.on('close', (exit) => resolve({ code: exit, stdout: out, stderr: err }));
    });
    expect(stderr).toBe('');
    expect(code).toBe(0);
    expect(stdout).toMatch(/Emulator running at http:\/\/127\.0\.0\.1:\d+\/v3/);
    expect(stdout).toMatch(/Plan: \d+ to create, 0 to update, 0 to forget\./);
    expect(stdout).toMatch(/Apply complete: \d+ created, 0 updated, 0 forgotten\./);
    expect(stdout.trimEnd().split('\n').at(-1)).toBe('No changes. Environment "local" matches the manifest.');
    expect(existsSync(join(ROOT, '.agentsync'))).toBe(hadStateDir);
  });
});
