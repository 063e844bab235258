// The bin's code cache (src/io/runtime/code-cache.ts), through the built CLI as a child process of
// the Node running this test: the bundle is compiled as a vm.Script, and V8's cache of it is taken
// when the command has run and kept in a private directory, one file per build of the bundle and
// Node, behind a checksum. .ci/run runs this file on Node 22 and 24 too, where Node's own compile
// cache also takes the vendored bundles. Whatever the cache does, a command's output and exit code
// stay the same.
import Module from 'node:module';
import { chmod, copyFile, cp, mkdir, mkdtemp, readdir, readFile, rm, stat, symlink, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT, runCliProcess as runCli } from '../support/cli.js';
import { startTestEmulator } from '../support/emulator.js';

/** Node 22.1+ also has the public compile cache, which agentsync turns on for the vendored bundles. */
const nodeHasCompileCache = typeof (Module as unknown as { enableCompileCache?: unknown }).enableCompileCache === 'function';
const uid = process.getuid?.() ?? 'user';
const example = join(ROOT, 'examples', 'minimal.yaml');
const valid = { code: 0, signal: null, stdout: `${example} is valid (environment prod).\n`, stderr: '' };
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

/** The bundle's caches (Node's own compile cache keeps its files in a folder per Node version beside them). */
async function bundleCaches(cacheDir: string): Promise<string[]> {
  const names = await readdir(cacheDir).catch(() => []);
  return names
    .filter((name) => name.endsWith('.v8cache'))
    .sort()
    .map((name) => join(cacheDir, name));
}

async function filesUnder(root: string): Promise<string[]> {
  const entries = await readdir(root, { recursive: true, withFileTypes: true }).catch(() => []);
  return entries.filter((entry) => entry.isFile()).map((entry) => join(entry.parentPath, entry.name));
}

/** A copy of the built bin (main.cjs, agentsync.cjs, vendor/) that a test may change. */
async function copyOfBin(into: string): Promise<string> {
  await mkdir(into);
  for (const name of ['main.cjs', 'agentsync.cjs']) await copyFile(join(ROOT, 'dist', 'cli', name), join(into, name));
  await cp(join(ROOT, 'dist', 'cli', 'vendor'), join(into, 'vendor'), { recursive: true });
  return join(into, 'main.cjs');
}

describe(`the code cache on Node ${process.version}`, () => {
  it('is kept in <tmpdir>/agentsync-code-cache-<uid>, privately, and never changes the output', async () => {
    const { cacheDir, env } = await freshTmp('default');
    const cold = await runCli(['validate', '-f', example], { env });
    const afterCold = await bundleCaches(cacheDir);
    const warm = await runCli(['validate', '-f', example], { env });
    const uncached = await runCli(['validate', '-f', example], { env: { ...env, NODE_DISABLE_COMPILE_CACHE: '1' } });
    expect(cold).toEqual(valid);
    expect(warm).toEqual(cold);
    expect(uncached).toEqual(cold);
    expect(afterCold).toHaveLength(1);
    expect(((await stat(cacheDir)).mode & 0o777).toString(8)).toBe('700');
    expect(((await stat(afterCold[0] ?? '')).mode & 0o777).toString(8)).toBe('600');
    // A warm run finds what the cold one wrote, and neither rewrites nor adds a file.
    expect(await bundleCaches(cacheDir)).toEqual(afterCold);
  });

  it('is taken after the command ran, so it holds the functions the command compiled', async () => {
    const { tmp, env } = await freshTmp('after-run');
    const versionDir = join(tmp, 'version');
    const validateDir = join(tmp, 'validate');
    expect((await runCli(['--version'], { env: { ...env, NODE_COMPILE_CACHE: versionDir } })).code).toBe(0);
    expect(await runCli(['validate', '-f', example], { env: { ...env, NODE_COMPILE_CACHE: validateDir } })).toEqual(valid);
    const [versionCache] = await bundleCaches(versionDir);
    const [validateCache] = await bundleCaches(validateDir);
    // Taken before running, both would hold the same top level; validate compiles yaml, zod and the
    // manifest's resolution on top of what --version needs.
    const sizes = { version: (await stat(versionCache ?? '')).size, validate: (await stat(validateCache ?? '')).size };
    expect(sizes.validate).toBeGreaterThan(sizes.version * 1.3);
  });

  it("grows with the commands that run, once each, never lists an option's value, and stops growing at 16 words", async () => {
    const { cacheDir, env } = await freshTmp('words');
    const run = (args: string[]): Promise<{ code: number | null }> => runCli(args, { env });
    const cacheNow = async (): Promise<{ files: string[]; ino: number; size: number }> => {
      const files = await bundleCaches(cacheDir);
      const { ino, size } = await stat(files[0] ?? '');
      return { files, ino, size };
    };
    // --help first: a cache of the top level and the help, which validate then adds to, once.
    expect((await run(['--help'])).code).toBe(0);
    const afterHelp = await cacheNow();
    expect(await run(['validate', '-f', example])).toEqual(valid);
    const afterValidate = await cacheNow();
    expect(afterValidate.ino).not.toBe(afterHelp.ino);
    expect(afterValidate.size).toBeGreaterThan(afterHelp.size);
    expect(await run(['validate', '-f', example])).toEqual(valid);
    expect(await run(['--help'])).toMatchObject({ code: 0 });
    expect(await cacheNow()).toEqual(afterValidate);
    // An option first is listed as one word ('*'), whatever follows: its value, which may be a
    // secret, is never written into the file.
    for (const environment of ['staging', 'prodsecretvalue', 'qa', 'dev']) expect((await run(['-e', environment, 'validate', '-f', example])).code).not.toBeNull();
    // The words are the file's header: after the magic, the checksum and their 2-byte length.
    const header = await readFile(afterValidate.files[0] ?? '');
    expect(header.toString('latin1', 10, 10 + header.readUInt16LE(8)).split('\n')).toEqual(['*', 'validate']);
    expect(header.includes('prodsecretvalue')).toBe(false);
    // Typos are words, up to 16 in all; then nothing is rewritten.
    const words = ['plna', 'aply', 'vaildate', 'staet', 'exprot', 'imoprt', 'shcema', 'fmtt', 'initt', 'sned', 'no-such-thing', 'z', 'zz', 'zzz', 'zzzz', 'zzzzz'];
    for (const word of words) expect((await run([word])).code).toBe(1);
    const full = await cacheNow();
    expect(full.files).toEqual(afterValidate.files);
    for (const word of ['more', 'typos', 'after', 'that']) expect((await run([word])).code).toBe(1);
    expect(await cacheNow()).toEqual(full);
    expect(await run(['validate', '-f', example])).toEqual(valid);
  });

  it('never writes through a symlinked cache folder', async () => {
    const { tmp, cacheDir, env } = await freshTmp('symlinked');
    const real = join(tmp, 'real');
    await mkdir(real, { mode: 0o700 });
    await symlink(real, cacheDir);
    expect(await runCli(['validate', '-f', example], { env })).toEqual(valid);
    expect(await readdir(real)).toEqual([]);
  });

  it("is kept by a command that changes V8's flags: plan against a server (Node 20 and 22 turn on --liftoff-only)", async () => {
    const { tmp, cacheDir, env } = await freshTmp('flags');
    const emulator = await startTestEmulator();
    try {
      const manifest = join(tmp, 'agents.yaml');
      await writeFile(manifest, (await readFile(example, 'utf8')).replace('appId: my-app-id', 'appId: local'));
      const plan = (): Promise<{ code: number | null; stdout: string; stderr: string }> => runCli(['plan', '-f', manifest, '--state', join(tmp, 'state.json')], { env: { ...env, ...emulator.env } });
      const inodes: number[] = [];
      for (let i = 0; i < 3; i++) {
        expect(await plan()).toMatchObject({ code: 0, stdout: expect.stringContaining('Plan: 2 to create') as string, stderr: '' });
        const caches = await bundleCaches(cacheDir);
        expect(caches).toHaveLength(1);
        inodes.push((await stat(caches[0] ?? '')).ino);
      }
      // Taken before the flags changed, the first run's cache is the one every later run takes.
      expect(new Set(inodes).size).toBe(1);
    } finally {
      await emulator.close();
    }
  });

  it("keeps one file per set of Node flags, so runs that alternate between two sets do not replace each other's", async () => {
    const { cacheDir, env } = await freshTmp('node-flags');
    const withFlags = { ...env, NODE_OPTIONS: '--max-old-space-size=300' };
    const inodes = async (): Promise<number[]> => Promise.all((await bundleCaches(cacheDir)).map(async (file) => (await stat(file)).ino));
    expect(await runCli(['validate', '-f', example], { env })).toEqual(valid);
    expect(await runCli(['validate', '-f', example], { env: withFlags })).toEqual(valid);
    const first = await inodes();
    expect(first).toHaveLength(2);
    for (let i = 0; i < 2; i++) {
      expect(await runCli(['validate', '-f', example], { env })).toEqual(valid);
      expect(await runCli(['validate', '-f', example], { env: withFlags })).toEqual(valid);
    }
    // V8 took each file (refused, it would have been written again under a new inode).
    expect(await inodes()).toEqual(first);
  });

  it('goes where NODE_COMPILE_CACHE says', async () => {
    const { tmp, cacheDir, env } = await freshTmp('named');
    const named = join(tmp, 'named');
    expect(await runCli(['validate', '-f', example], { env: { ...env, NODE_COMPILE_CACHE: named } })).toEqual(valid);
    expect(await bundleCaches(named)).toHaveLength(1);
    expect(await filesUnder(cacheDir)).toEqual([]);
  });

  it('is not used from a directory others can write to', async () => {
    const { cacheDir, env } = await freshTmp('shared');
    await mkdir(cacheDir);
    await chmod(cacheDir, 0o777);
    expect(await runCli(['validate', '-f', example], { env })).toEqual(valid);
    expect(await filesUnder(cacheDir)).toEqual([]);
  });

  it('is off with NODE_DISABLE_COMPILE_CACHE=1 or AGENTSYNC_DEBUG=1, and a directory that cannot be made is no error', async () => {
    const { tmp, cacheDir, env } = await freshTmp('disabled');
    expect(await runCli(['validate', '-f', example], { env: { ...env, NODE_DISABLE_COMPILE_CACHE: '1' } })).toEqual(valid);
    expect(await runCli(['validate', '-f', example], { env: { ...env, AGENTSYNC_DEBUG: '1' } })).toEqual(valid);
    expect(await filesUnder(cacheDir)).toEqual([]);
    const blocker = join(tmp, 'a-file');
    await writeFile(blocker, 'not a directory');
    expect(await runCli(['validate', '-f', example], { env: { ...env, TMPDIR: blocker } })).toEqual(valid);
  });

  it('lets many first runs race: every one succeeds with the same output, and one whole cache is left', async () => {
    const { cacheDir, env } = await freshTmp('race');
    const runs = await Promise.all(Array.from({ length: 6 }, () => runCli(['validate', '-f', example], { env })));
    for (const run of runs) expect(run).toEqual(valid);
    expect(await bundleCaches(cacheDir)).toHaveLength(1);
    expect((await readdir(cacheDir)).filter((name) => name.endsWith('.tmp'))).toEqual([]);
    expect(await runCli(['validate', '-f', example], { env })).toEqual(valid);
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

  it.runIf(nodeHasCompileCache)('lets Node cache a vendored bundle a command loads on first use', async () => {
    const { cacheDir, env } = await freshTmp('vendor');
    await runCli(['validate', '-f', example], { env });
    const cliOnly = await filesUnder(cacheDir);
    // `state list` on a PostgreSQL URL loads vendor/pg.cjs before it fails to connect.
    const run = await runCli(['state', 'list', '-f', example, '--state', 'postgres://agentsync@127.0.0.1:1/none'], { env });
    expect(run.code).toBe(1);
    expect((await filesUnder(cacheDir)).length).toBeGreaterThan(cliOnly.length);
  });

  it('never hands V8 a damaged cache: garbage, a cut file or a changed byte is refused and rewritten', async () => {
    const { cacheDir, env } = await freshTmp('damaged');
    expect(await runCli(['validate', '-f', example], { env })).toEqual(valid);
    const [file] = await bundleCaches(cacheDir);
    const good = await readFile(file ?? '');
    expect(good.length).toBeGreaterThan(100_000);
    // V8 checks only a cache's header in release builds: given a payload with a changed byte, it
    // can crash (SIGSEGV) or run wrong code. The checksum in front of it is what refuses these.
    const flipped = (at: number): Buffer => {
      const copy = Buffer.from(good);
      copy.writeUInt32LE(~copy.readUInt32LE(at) >>> 0, at);
      return copy;
    };
    const damages: Record<string, Buffer> = {
      garbage: Buffer.alloc(4096, 0xa5),
      empty: Buffer.alloc(0),
      cut: good.subarray(0, good.length >> 1),
      'header only': good.subarray(0, 4),
      'early byte': flipped(64),
      'middle byte': flipped(good.length >> 1),
      'late byte': flipped(good.length - 64),
    };
    for (const [damage, data] of Object.entries(damages)) {
      await writeFile(file ?? '', data);
      expect({ damage, run: await runCli(['validate', '-f', example], { env }) }).toEqual({ damage, run: valid });
      // Refused, so taken again after the run: the file is whole again.
      expect({ damage, rewritten: (await readFile(file ?? '')).length > 100_000 }).toEqual({ damage, rewritten: true });
    }
  });

  it('never meets a changed bundle, even one of the same length', async () => {
    const { tmp, cacheDir, env } = await freshTmp('rebuilt');
    const bin = await copyOfBin(join(tmp, 'cli'));
    expect(await runCli(['validate', '-f', example], { env, bin })).toEqual(valid);
    expect(await bundleCaches(cacheDir)).toHaveLength(1);
    // The same length and modification time: V8 checks the source only by its length.
    const bundle = join(tmp, 'cli', 'agentsync.cjs');
    const before = await stat(bundle);
    const text = await readFile(bundle, 'utf8');
    expect(text).toContain('} is valid (${');
    await writeFile(bundle, text.replace('} is valid (${', '} IS VALID (${'));
    await utimes(bundle, before.atime, before.mtime);
    const changed = await runCli(['validate', '-f', example], { env, bin });
    expect(changed).toEqual({ ...valid, stdout: `${example} IS VALID (environment prod).\n` });
    expect(await bundleCaches(cacheDir)).toHaveLength(2);
  });

  it('keeps the caches of the last 8 builds and removes older ones', async () => {
    const { cacheDir, env } = await freshTmp('pruned');
    await mkdir(cacheDir, { mode: 0o700 });
    const old = Array.from({ length: 10 }, (_, i) => join(cacheDir, `agentsync-v0.0.${i}-old.v8cache`));
    for (const [i, file] of old.entries()) {
      await writeFile(file, 'an older build');
      const when = new Date(Date.UTC(2025, 0, 1 + i));
      await utimes(file, when, when);
    }
    const unrelated = join(cacheDir, 'not-ours.bin');
    await writeFile(unrelated, 'kept');
    expect(await runCli(['validate', '-f', example], { env })).toEqual(valid);
    const left = await bundleCaches(cacheDir);
    expect(left).toHaveLength(8);
    // The newest old ones stay (days 4 to 10), with the one just written.
    expect(left.filter((file) => old.includes(file))).toEqual(old.slice(3).sort());
    expect(await readFile(unrelated, 'utf8')).toBe('kept');
  });
});
