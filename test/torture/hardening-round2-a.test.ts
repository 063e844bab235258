// Issue 20, round 2 of hardening (part A): a reader that hangs up (`| head`), the compiled-code
// cache's growth, a quadratic `fmt`, a torn journal line that only apply reported, a full disk in
// the middle of an apply, and `${NAME:-}` / an empty baseUrl. The built CLI runs as a child process
// against the in-process emulator over real HTTP, on real files.
import { spawn } from 'node:child_process';
import { existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, statSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertBuilt, childEnv, CLI, collect, makeWorkspace, ROOT, runCli, STACK_TRACE, startTortureEmulator, type CliResult, type TortureEmulator, type Workspace } from './helpers.js';
import { leftoverTemps, smallManifest } from './hardening-helpers.js';

let emulator: TortureEmulator;
let ws: Workspace;
let projects = 0;

beforeAll(async () => {
  assertBuilt();
  emulator = await startTortureEmulator();
  ws = makeWorkspace('agentsync-round2a-');
});

afterAll(async () => {
  await emulator?.close();
  ws?.remove();
});

interface Project {
  dir: string;
  manifest: string;
  state: string;
  /** `-f manifest --state state` */
  args: string[];
  write(instruction: string, tools?: number): void;
  cli(args: string[], extraEnv?: Record<string, string | undefined>): Promise<CliResult>;
}

function project(instruction = 'v1', tools = 2): Project {
  const name = `r${++projects}`;
  const dir = ws.path(name);
  mkdirSync(dir);
  const manifest = join(dir, 'agents.yaml');
  const write = (text: string, count = tools): void => writeFileSync(manifest, smallManifest(name, text, count));
  write(instruction);
  const state = join(dir, 'state.json');
  return {
    dir,
    manifest,
    state,
    args: ['-f', manifest, '--state', state],
    write,
    cli: (args, extraEnv = {}) => runCli(args, { env: { ...emulator.env, ...extraEnv }, cwd: dir }),
  };
}

/** No crash report of any kind on stderr. */
function expectNoCrash(result: CliResult): void {
  expect(result.stderr).not.toMatch(STACK_TRACE);
  expect(result.stderr).not.toMatch(/EPIPE|Unhandled 'error'|internal error/);
}

/**
 * Runs `agentsync ARGS | head -c 200` through a real pipe: once head has its bytes it exits, and
 * every later write of the CLI meets a closed pipe. The result is the CLI's own exit code and
 * stderr, and the bytes head passed on.
 */
function runIntoHead(args: string[], cwd: string): Promise<CliResult> {
  const script = '"$@" | head -c 200; exit "${PIPESTATUS[0]}"';
  const child = spawn('bash', ['-c', script, 'pipeline', process.execPath, CLI, ...args], { cwd, env: childEnv(emulator.env), stdio: ['ignore', 'pipe', 'pipe'] });
  return collect(child, 90_000);
}

describe('a reader that hangs up (| head) never crashes a command or cuts an apply short', () => {
  let big: Project;
  beforeAll(async () => {
    // 2,000 tools: every listing below is far larger than a pipe's 64 KiB buffer.
    big = project('v1', 2000);
    const applied = await big.cli(['apply', '--auto-approve', ...big.args]);
    expect(applied.code, applied.stderr).toBe(0);
  });

  const readers: [string, (p: Project) => string[]][] = [
    ['plan --offline --json', (p) => ['plan', '--offline', '--json', ...p.args]],
    ['plan --out -', (p) => ['plan', '--offline', '--out', '-', ...p.args]],
    ['state list', (p) => ['state', 'list', ...p.args]],
    ['export', (p) => ['export', '-f', p.manifest, '-e', 'local']],
  ];
  for (const [name, argsOf] of readers) {
    it(`${name} exits quietly`, async () => {
      if (name.startsWith('plan')) big.write('v2 changes the agent', 2000);
      const result = await runIntoHead(argsOf(big), big.dir);
      expectNoCrash(result);
      expect([0, 2, 141], `${name}: ${result.stderr}`).toContain(result.code);
      expect(result.stdout.length).toBeGreaterThan(0);
      expect(leftoverTemps(big.dir)).toEqual([]);
    });
  }

  it('apply --auto-approve finishes and records every change, and leaves no temporary file', async () => {
    const p = project('v1', 40);
    expect((await p.cli(['apply', '--auto-approve', ...p.args])).code).toBe(0);
    p.write('v2 with a new instruction', 80);
    // Slow enough that most of the progress lines are written after the reader is gone.
    await emulator.configure({ latencyMs: 15 });
    let result: CliResult;
    try {
      result = await runIntoHead(['apply', '--auto-approve', '--concurrency', '2', ...p.args], p.dir);
    } finally {
      await emulator.configure({ latencyMs: 0 });
    }
    expectNoCrash(result);
    expect([0, 141], result.stderr).toContain(result.code);
    const state = JSON.parse(readFileSync(p.state, 'utf8')) as { resources: Record<string, unknown>; pending?: Record<string, unknown> };
    expect(Object.keys(state.resources)).toHaveLength(81);
    expect(state.pending ?? {}).toEqual({});
    expect(leftoverTemps(p.dir)).toEqual([]);
    expect(existsSync(`${p.state}.lock`)).toBe(false);
    expect(existsSync(`${p.state}.journal`) ? readFileSync(`${p.state}.journal`, 'utf8') : '').toBe('');
    const again = await p.cli(['plan', '--detailed-exitcode', ...p.args]);
    expect(again.code, again.stdout + again.stderr).toBe(0);
  });
});

describe('the compiled-code cache stays small, private and symlink-safe', () => {
  const example = join(ROOT, 'examples', 'minimal.yaml');
  const cacheRun = (args: string[], cacheDir: string): Promise<CliResult> => runCli(args, { env: { NODE_COMPILE_CACHE: cacheDir } });
  const binFiles = (dir: string): string[] => readdirSync(dir).filter((name) => name.endsWith('.bin'));

  it('adds no file for a typo or an option value before the command', async () => {
    const cacheDir = ws.path('cache-typos');
    const words = ['plna', 'aply', 'vaildate', 'staet', 'exprot', 'imoprt', 'shcema', 'fmtt', 'initt', 'sned', 'no-such-thing', 'z'];
    for (const word of words) expect((await cacheRun([word], cacheDir)).code).toBe(1);
    for (const env of ['staging', 'prod', 'qa', 'dev']) {
      const run = await cacheRun(['-e', env, 'validate', '-f', example], cacheDir);
      expect(run.code, run.stderr).not.toBeNull();
    }
    const names = binFiles(cacheDir).map((name) => name.replace(/^.*-([a-z]+)(\.partial)?\.bin$/, '$1'));
    // One cache for every unknown word and one for validate, however many runs.
    expect(names.sort()).toEqual(['other', 'validate']);
    expect(statSync(cacheDir).mode & 0o777).toBe(0o700);
  });

  it('prunes the folder to a bounded number of files, oldest first, and stale temporary files', async () => {
    const cacheDir = ws.path('cache-full');
    mkdirSync(cacheDir, { mode: 0o700 });
    const old = new Date(Date.now() - 3_600_000);
    // Caches of 60 other installations (other paths, other Nodes), each written an hour ago.
    for (let i = 0; i < 60; i++) {
      const file = join(cacheDir, `agentsync-other${i}-v0.0.${i}-x64-1-1-plan.bin`);
      writeFileSync(file, Buffer.alloc(1024, i));
      utimesSync(file, old, old);
    }
    const stale = join(cacheDir, 'agentsync-x-v0-x64-1-1-plan.bin.4242.tmp');
    writeFileSync(stale, 'half a cache');
    utimesSync(stale, old, old);
    expect((await cacheRun(['validate', '-f', example], cacheDir)).code).toBe(0);
    const left = binFiles(cacheDir);
    expect(left.length).toBeLessThanOrEqual(32);
    // The cache just written is kept; the pruned ones are the oldest.
    expect(left.filter((name) => name.endsWith('-validate.bin'))).toHaveLength(1);
    expect(existsSync(stale)).toBe(false);
    expect((await cacheRun(['validate', '-f', example], cacheDir)).code).toBe(0);
  });

  it('never writes through a symlinked cache folder', async () => {
    const real = ws.path('cache-real');
    mkdirSync(real, { mode: 0o700 });
    const link = ws.path('cache-link');
    symlinkSync(real, link);
    const run = await cacheRun(['validate', '-f', example], link);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toBe('');
    expect(readdirSync(real)).toEqual([]);
    expect(lstatSync(link).isSymbolicLink()).toBe(true);
  });
});
