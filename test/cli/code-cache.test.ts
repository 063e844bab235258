// The bin's compile cache (src/io/runtime/code-cache.ts), through the built CLI as a child process of
// the Node running this test: on Node 22.1+ (`module.enableCompileCache`) it is Node's own cache in a
// private directory; on Node 20 there is none, and nothing is written anywhere. .ci/run runs this
// file on Node 22 and 24 too, so each branch is exercised. Whatever the cache does, a command's
// output and exit code stay the same.
import Module from 'node:module';
import { chmod, mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT, runCliProcess as runCli } from '../support/cli.js';

/** Node 22.1+ has the public compile cache; Node 20 has none, and then neither has agentsync. */
const nodeHasCache = typeof (Module as unknown as { enableCompileCache?: unknown }).enableCompileCache === 'function';
const uid = process.getuid?.() ?? 'user';
const example = join(ROOT, 'examples', 'minimal.yaml');
let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'agentsync-code-cache-test-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** A temporary directory of its own for one test: TMPDIR there puts the default cache inside it. */
async function freshTmp(name: string): Promise<{ tmp: string; cacheDir: string; env: Record<string, string> }> {
  const tmp = join(dir, name);
  await mkdir(tmp, { mode: 0o700 });
  // NODE_COMPILE_CACHE empty: the default directory, whatever the environment running the tests says.
  return { tmp, cacheDir: join(tmp, `agentsync-code-cache-${uid}`), env: { TMPDIR: tmp, NODE_COMPILE_CACHE: '' } };
}

/** Every file under `root` (Node keeps one folder per Node version inside the cache directory). */
async function filesUnder(root: string): Promise<string[]> {
  const entries = await readdir(root, { recursive: true, withFileTypes: true }).catch(() => []);
  return entries.filter((entry) => entry.isFile()).map((entry) => join(entry.parentPath, entry.name));
}

describe(nodeHasCache ? `the compile cache on Node ${process.version}` : `no compile cache on Node ${process.version}`, () => {
  it('is kept in <tmpdir>/agentsync-code-cache-<uid>, privately, where Node has one, and never changes the output', async () => {
    const { cacheDir, env } = await freshTmp('default');
    const cold = await runCli(['validate', '-f', example], { env });
    const afterCold = await filesUnder(cacheDir);
    const warm = await runCli(['validate', '-f', example], { env });
    const uncached = await runCli(['validate', '-f', example], { env: { ...env, NODE_DISABLE_COMPILE_CACHE: '1' } });
    expect(cold).toEqual({ code: 0, signal: null, stdout: expect.stringContaining('is valid') as string, stderr: '' });
    expect(warm).toEqual(cold);
    expect(uncached).toEqual(cold);
    if (nodeHasCache) {
      expect(afterCold.length).toBeGreaterThan(0);
      expect(((await stat(cacheDir)).mode & 0o777).toString(8)).toBe('700');
      const sizes = await Promise.all(afterCold.map(async (file) => (await stat(file)).size));
      expect(Math.max(...sizes)).toBeGreaterThan(10_000);
      // A warm run finds what the cold one wrote and adds nothing.
      expect(await filesUnder(cacheDir)).toEqual(afterCold);
    } else {
      expect(afterCold).toEqual([]);
      await expect(stat(cacheDir)).rejects.toThrow(/ENOENT/);
    }
  });

  it('goes where NODE_COMPILE_CACHE says (on Node 20, nowhere)', async () => {
    const { tmp, cacheDir, env } = await freshTmp('named');
    const named = join(tmp, 'named');
    const run = await runCli(['validate', '-f', example], { env: { ...env, NODE_COMPILE_CACHE: named } });
    expect(run.code).toBe(0);
    expect((await filesUnder(named)).length > 0).toBe(nodeHasCache);
    expect(await filesUnder(cacheDir)).toEqual([]);
  });

  it('is not used from a directory others can write to', async () => {
    const { cacheDir, env } = await freshTmp('shared');
    await mkdir(cacheDir);
    await chmod(cacheDir, 0o777);
    const run = await runCli(['validate', '-f', example], { env });
    expect(run).toEqual({ code: 0, signal: null, stdout: expect.stringContaining('is valid') as string, stderr: '' });
    expect(await filesUnder(cacheDir)).toEqual([]);
  });

  it('is off with NODE_DISABLE_COMPILE_CACHE=1 or AGENTSYNC_DEBUG=1, and a directory that cannot be made is no error', async () => {
    const { tmp, cacheDir, env } = await freshTmp('disabled');
    expect((await runCli(['validate', '-f', example], { env: { ...env, NODE_DISABLE_COMPILE_CACHE: '1' } })).code).toBe(0);
    expect((await runCli(['validate', '-f', example], { env: { ...env, AGENTSYNC_DEBUG: '1' } })).code).toBe(0);
    expect(await filesUnder(cacheDir)).toEqual([]);
    const blocker = join(tmp, 'a-file');
    await writeFile(blocker, 'not a directory');
    const run = await runCli(['validate', '-f', example], { env: { ...env, TMPDIR: blocker } });
    expect(run).toEqual({ code: 0, signal: null, stdout: expect.stringContaining('is valid') as string, stderr: '' });
  });

  it('lets many first runs race: every one succeeds with the same output', async () => {
    const { env } = await freshTmp('race');
    const runs = await Promise.all(Array.from({ length: 6 }, () => runCli(['validate', '-f', example], { env })));
    for (const run of runs) expect(run).toEqual(runs[0]);
    expect(runs[0]?.code).toBe(0);
  });

  it('runs a command that loads a builtin on first use, cold and warm', async () => {
    const { tmp, env } = await freshTmp('lazy-builtin');
    for (const round of ['cold', 'warm']) {
      const project = join(tmp, `init-${round}`);
      await mkdir(project);
      const run = await runCli(['init'], { env, cwd: project });
      expect({ round, code: run.code, stderr: run.stderr }).toEqual({ round, code: 0, stderr: '' });
      expect(run.stdout).toContain('Next steps:');
    }
  });

  it.runIf(nodeHasCache)('also caches a vendored bundle a command loads on first use', async () => {
    const { cacheDir, env } = await freshTmp('vendor');
    await runCli(['validate', '-f', example], { env });
    const cliOnly = await filesUnder(cacheDir);
    // `state list` on a PostgreSQL URL loads vendor/pg.cjs before it fails to connect.
    const run = await runCli(['state', 'list', '-f', example, '--state', 'postgres://agentsync@127.0.0.1:1/none'], { env });
    expect(run.code).toBe(1);
    expect((await filesUnder(cacheDir)).length).toBeGreaterThan(cliOnly.length);
  });

  it.runIf(nodeHasCache)('survives damaged cache files: Node refuses them and the command runs as before', async () => {
    const { cacheDir, env } = await freshTmp('damaged');
    const first = await runCli(['validate', '-f', example], { env });
    const written = await filesUnder(cacheDir);
    expect(written.length).toBeGreaterThan(0);
    for (const file of written) await writeFile(file, Buffer.alloc(4096, 0xa5));
    expect(await runCli(['validate', '-f', example], { env })).toEqual(first);
    // Node rewrites what it refused.
    const rewritten = await Promise.all(written.map((file) => readFile(file)));
    expect(rewritten.some((data) => !data.equals(Buffer.alloc(4096, 0xa5)))).toBe(true);
  });
});
