// The single-file binary (docs/spec/distribution.md#single-file-binary): `npm run sea`'s build
// (scripts/sea.mjs), run the way a user who downloaded it runs it: from an empty folder far from
// this repository, with no node and no node_modules to find (PATH names an empty folder, the
// environment is otherwise empty). One build for the file, ~15 s; every step below runs that
// binary.
import { execFile, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdir, mkdtemp, readFile, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const BUILD_TIMEOUT = 120_000;

let dir: string;
let binary: string;
let work: string;
let version: string;

interface Run {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/** Nothing a developer's shell would lend it: no node on PATH, no NODE_* variables, no npm_*. */
function bareEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  return { PATH: join(dir, 'empty-path'), HOME: dir, NO_COLOR: '1', ...extra };
}

function run(args: string[], env: NodeJS.ProcessEnv = bareEnv()): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(binary, args, { cwd: work, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    child.on('error', reject);
    child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr }));
  });
}

const supported = process.platform === 'linux' && process.arch === 'x64';

beforeAll(async () => {
  if (!supported) return;
  dir = await mkdtemp(join(tmpdir(), 'agentsync-sea-'));
  binary = join(dir, 'bin', 'agentsync-linux-x64');
  work = join(dir, 'project');
  await Promise.all([mkdir(join(dir, 'bin')), mkdir(work), mkdir(join(dir, 'empty-path'))]);
  version = (JSON.parse(await readFile(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;
  await promisify(execFile)(process.execPath, ['scripts/sea.mjs', binary], { cwd: ROOT, timeout: BUILD_TIMEOUT });
}, BUILD_TIMEOUT);
afterAll(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe.runIf(supported)('the single-file binary (npm run sea)', () => {
  it('is one file with the version compiled in, and nothing beside it', async () => {
    expect(await readdir(join(dir, 'bin'))).toEqual(['agentsync-linux-x64']);
    expect(await readdir(work)).toEqual([]);
    expect(await run(['--version'])).toEqual({ code: 0, signal: null, stdout: `${version}\n`, stderr: '' });
  });

  it('init, validate and plan --offline in an empty folder', async () => {
    const init = await run(['init']);
    expect(init.code).toBe(0);
    expect((await readdir(work)).sort()).toEqual(['.gitignore', 'agents.yaml', 'agentsync.schema.json']);
    expect(await run(['validate'])).toEqual({ code: 0, signal: null, stdout: 'agents.yaml is valid (environment local).\n', stderr: '' });
    const plan = await run(['plan', '--offline', '--detailed-exitcode']);
    expect(plan.stderr).toBe('');
    expect(plan.code).toBe(2);
    expect(plan.stdout).toContain('+ tool.get_weather');
    expect(plan.stdout).toContain('Plan: 2 to create, 0 to update, 0 to forget.');
    // Bad input: one line, exit 1, no stack trace.
    const bad = await run(['validate', '-f', 'missing.yaml']);
    expect(bad.code).toBe(1);
    expect(bad.stderr.trim().split('\n')).toHaveLength(1);
    expect(bad.stderr).not.toMatch(/\n\s+at /);
  });

  it('keeps the API key out of what a server says back: the secret scope works in a process started from the snapshot', async () => {
    if (!existsSync(join(work, 'agents.yaml'))) await run(['init']);
    // A server that echoes the key it was sent in its error message.
    const server = createServer((req, res) => {
      res.writeHead(400, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { message: `bad key ${String(req.headers.apikey)}` } }));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = server.address() as AddressInfo;
      const plan = await run(['plan'], bareEnv({ COMETCHAT_API_KEY: 'sea-secret-key-4711', AGENTSYNC_BASE_URL: `http://127.0.0.1:${port}/v3` }));
      expect(plan.code).toBe(1);
      expect(plan.stderr).toContain('bad key (sensitive)');
      expect(plan.stderr + plan.stdout).not.toContain('sea-secret-key-4711');
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it('runs the emulator, applies to it over HTTP, and stops on SIGTERM', async () => {
    if (!existsSync(join(work, 'agents.yaml'))) await run(['init']);
    const emulator = spawn(binary, ['emulator', '--port', '0'], { cwd: work, env: bareEnv(), stdio: ['ignore', 'pipe', 'pipe'] });
    const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => emulator.on('close', (code, signal) => resolve({ code, signal })));
    try {
      const url = await new Promise<string>((resolve, reject) => {
        let out = '';
        const timer = setTimeout(() => reject(new Error(`no ready line within 10 s: ${out}`)), 10_000);
        emulator.stdout.on('data', (c: Buffer) => {
          out += c.toString();
          const ready = /ready at (http:\/\/127\.0\.0\.1:\d+\/v3) \(app "local", API key: local-dev-key\)\n/.exec(out);
          if (ready?.[1]) {
            clearTimeout(timer);
            resolve(ready[1]);
          }
        });
        emulator.on('error', reject);
      });
      // undici is inside the binary too: a plan that reads the server, then an apply.
      const env = bareEnv({ COMETCHAT_API_KEY: 'local-dev-key', AGENTSYNC_BASE_URL: url });
      const applied = await run(['apply', '--auto-approve'], env);
      expect(applied.stderr).toBe('');
      expect(applied.code).toBe(0);
      expect(applied.stdout).toContain('2 created');
      const after = await run(['plan', '--detailed-exitcode'], env);
      expect(after.code).toBe(0);
      expect(after.stdout).toContain('No changes.');
    } finally {
      emulator.kill('SIGTERM');
    }
    expect(await exited).toEqual({ code: 0, signal: null });
  });
});
