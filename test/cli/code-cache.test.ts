// The bin's code cache (src/io/runtime/code-cache.ts), through the built CLI as a child process: where it
// writes, when it rewrites, and that nothing about it can change what a command does or make it fail.
import { chmod, cp, mkdir, mkdtemp, readdir, readFile, rm, stat, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT, runCli } from '../support/cli.js';

let dir: string;
const example = join(ROOT, 'examples', 'minimal.yaml');

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'agentsync-code-cache-test-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function freshCacheDir(name: string): Promise<string> {
  const cacheDir = join(dir, name);
  await mkdir(cacheDir, { mode: 0o700 });
  return cacheDir;
}

const files = async (cacheDir: string): Promise<string[]> => (await readdir(cacheDir)).sort();

describe('the code cache', () => {
  it('is written once per command, privately, and reused without changing the output', async () => {
    const cacheDir = await freshCacheDir('reuse');
    const env = { NODE_COMPILE_CACHE: cacheDir };
    const cold = await runCli(['validate', '-f', example], { env });
    const written = await files(cacheDir);
    expect(written).toHaveLength(1);
    expect(written[0]).toMatch(new RegExp(`^agentsync-[0-9a-z]+-${process.version}-${process.arch}-\\d+-\\d+-validate\\.bin$`));
    const first = await stat(join(cacheDir, written[0]!));
    expect(first.mode & 0o777).toBe(0o600);
    expect(first.size).toBeGreaterThan(10_000);

    const warm = await runCli(['validate', '-f', example], { env });
    const uncached = await runCli(['validate', '-f', example], { env: { NODE_DISABLE_COMPILE_CACHE: '1' } });
    expect(warm).toEqual(cold);
    expect(uncached).toEqual(cold);
    expect(cold.code).toBe(0);
    // An accepted cache is not written again.
    expect((await stat(join(cacheDir, written[0]!))).mtimeMs).toBe(first.mtimeMs);

    await runCli(['--version'], { env });
    expect((await files(cacheDir)).map((f) => f.replace(/^.*-(\w+)\.bin$/, '$1'))).toEqual(['none', 'validate']);
  });

  it('keeps a failed run’s cache as partial, and a later successful run replaces it', async () => {
    const cacheDir = await freshCacheDir('partial');
    const env = { NODE_COMPILE_CACHE: cacheDir };
    const failed = await runCli(['validate', '-f', join(dir, 'missing.yaml')], { env });
    expect(failed.code).toBe(1);
    expect(await files(cacheDir)).toEqual([expect.stringMatching(/-validate\.partial\.bin$/)]);
    expect((await runCli(['validate', '-f', example], { env })).code).toBe(0);
    expect(await files(cacheDir)).toEqual([expect.stringMatching(/-validate\.bin$/)]);
  });

  it('survives a damaged cache file: V8 refuses it, the command runs, the cache is rewritten', async () => {
    const cacheDir = await freshCacheDir('damaged');
    const env = { NODE_COMPILE_CACHE: cacheDir };
    await runCli(['validate', '-f', example], { env });
    const [name] = await files(cacheDir);
    const path = join(cacheDir, name!);
    await writeFile(path, Buffer.alloc(4096, 0xa5));
    const run = await runCli(['validate', '-f', example], { env });
    expect(run).toEqual({ code: 0, signal: null, stdout: expect.stringContaining('is valid') as string, stderr: '' });
    const rewritten = await readFile(path);
    expect(rewritten.equals(Buffer.alloc(4096, 0xa5))).toBe(false);
  });

  it('is not used from a directory others can write to', async () => {
    const cacheDir = await freshCacheDir('shared');
    await chmod(cacheDir, 0o777);
    const run = await runCli(['validate', '-f', example], { env: { NODE_COMPILE_CACHE: cacheDir } });
    expect(run.code).toBe(0);
    expect(run.stderr).toBe('');
    expect(await files(cacheDir)).toEqual([]);
  });

  it('is not used when NODE_DISABLE_COMPILE_CACHE is set or where the directory cannot be made', async () => {
    const cacheDir = await freshCacheDir('disabled');
    expect((await runCli(['validate', '-f', example], { env: { NODE_COMPILE_CACHE: cacheDir, NODE_DISABLE_COMPILE_CACHE: '1' } })).code).toBe(0);
    expect(await files(cacheDir)).toEqual([]);
    const blocker = join(dir, 'a-file');
    await writeFile(blocker, 'not a directory');
    const run = await runCli(['validate', '-f', example], { env: { NODE_COMPILE_CACHE: join(blocker, 'cache') } });
    expect(run).toEqual({ code: 0, signal: null, stdout: expect.stringContaining('is valid') as string, stderr: '' });
  });

  it('drops an older build’s caches when the bundle changes, and never serves them', async () => {
    const copy = join(dir, 'copy');
    await cp(join(ROOT, 'dist', 'cli'), copy, { recursive: true, filter: (source) => !source.endsWith('.map') && !source.endsWith('.d.ts') });
    const cacheDir = await freshCacheDir('rebuild');
    const env = { NODE_COMPILE_CACHE: cacheDir };
    const bin = join(copy, 'main.cjs');
    expect((await runCli(['validate', '-f', example], { env, bin })).code).toBe(0);
    const before = await files(cacheDir);
    expect(before).toHaveLength(1);
    // A rebuild: same path, new contents (here, one more line), new mtime.
    const bundle = join(copy, 'agentsync.cjs');
    await writeFile(bundle, `${await readFile(bundle, 'utf8')}\n// rebuilt\n`);
    await utimes(bundle, new Date(), new Date(Date.now() + 5_000));
    expect((await runCli(['validate', '-f', example], { env, bin })).code).toBe(0);
    const after = await files(cacheDir);
    expect(after).toHaveLength(1);
    expect(after[0]).not.toBe(before[0]);
  });

  it('lets many first runs race: every one succeeds and no temporary file is left', async () => {
    const cacheDir = await freshCacheDir('race');
    const env = { NODE_COMPILE_CACHE: cacheDir };
    const runs = await Promise.all(Array.from({ length: 6 }, () => runCli(['validate', '-f', example], { env })));
    for (const run of runs) expect(run.code).toBe(0);
    expect(await files(cacheDir)).toEqual([expect.stringMatching(/-validate\.bin$/)]);
  });

  it('runs a command that loads a builtin on first use from a warm cache (no import() in the bundles)', async () => {
    const cacheDir = await freshCacheDir('lazy-builtin');
    const env = { NODE_COMPILE_CACHE: cacheDir };
    // init loads node:path lazily; a cached script cannot run an import(), so this failed once.
    for (const round of ['cold', 'warm']) {
      const project = join(dir, `init-${round}`);
      await mkdir(project);
      const run = await runCli(['init'], { env, cwd: project });
      expect({ round, code: run.code, stderr: run.stderr }).toEqual({ round, code: 0, stderr: '' });
      expect(run.stdout).toContain('Next steps:');
    }
    expect(await files(cacheDir)).toEqual([expect.stringMatching(/-init\.bin$/)]);
  });

  it('also caches the vendored bundles a command loads on first use', async () => {
    const cacheDir = await freshCacheDir('vendor');
    // `state list` on a PostgreSQL URL loads vendor/pg.cjs before it fails to connect.
    const run = await runCli(['state', 'list', '-f', example, '--state', 'postgres://agentsync@127.0.0.1:1/none'], { env: { NODE_COMPILE_CACHE: cacheDir } });
    expect(run.code).toBe(1);
    expect(await files(cacheDir)).toEqual([expect.stringMatching(/^agentsync-.*-state\.partial\.bin$/), expect.stringMatching(/^pg-.*-state\.partial\.bin$/)]);
  });
});

describe('the cache’s command words', () => {
  it('name every top-level command, so that each command keeps a cache of its own', async () => {
    const { buildProgram } = await import('../../src/cli/program.js');
    const { COMMAND_WORDS } = await import('../../src/cli/command-words.js');
    const registered = buildProgram().commands.map((command) => command.name());
    expect(registered.length).toBeGreaterThan(5);
    expect(registered.filter((name) => !COMMAND_WORDS.includes(name))).toEqual([]);
  });
});
