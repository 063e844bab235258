// The built CLI as a child process: readiness line, real requests, clean exit on signals, and
// one-line errors for bad flags. `npm test` builds dist/ first; this file builds it only if absent.
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { validTool } from './helpers.js';

const repoRoot = fileURLToPath(new URL('../../', import.meta.url));
const cli = join(repoRoot, 'dist/cli/main.cjs');

beforeAll(() => {
  if (!existsSync(join(repoRoot, 'dist/emulator/index.js'))) {
    try {
      execFileSync('npx', ['tsc', '-p', 'tsconfig.build.json'], { cwd: repoRoot, stdio: 'ignore' });
    } catch {
      // tsc exits non-zero on type errors elsewhere but still emits; the checks below fail clearly if it did not.
    }
  }
}, 120_000);

interface Running {
  child: ChildProcess;
  url: string;
  stdout: () => string;
  stderr: () => string;
  exited: Promise<number | null>;
}

function startCli(args: string[], env: NodeJS.ProcessEnv = {}): Promise<Running> {
  const child = spawn(process.execPath, [cli, 'emulator', ...args], { cwd: repoRoot, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no ready line; stderr: ${stderr}`)), 15_000);
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      const match = /http:\/\/127\.0\.0\.1:\d+\/v3/.exec(stdout);
      if (match) {
        clearTimeout(timer);
        resolve({ child, url: match[0], stdout: () => stdout, stderr: () => stderr, exited });
      }
    });
    void exited.then((code) => reject(new Error(`exited ${code} before ready; stderr: ${stderr}`)));
  });
}

function runCli(args: string[]): { status: number | null; stdout: string; stderr: string } {
  try {
    const stdout = execFileSync(process.execPath, [cli, 'emulator', ...args], { cwd: repoRoot, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], timeout: 15_000 });
    return { status: 0, stdout, stderr: '' };
  } catch (err) {
    const failure = err as { status: number | null; stdout: string; stderr: string };
    return { status: failure.status, stdout: failure.stdout, stderr: failure.stderr };
  }
}

const postTool = (url: string, key: string, name: string) =>
  fetch(`${url}/ai-agents/tools`, { method: 'POST', headers: { apikey: key, 'content-type': 'application/json' }, body: JSON.stringify(validTool(name)) });
const putTool = (url: string, key: string, name: string) =>
  fetch(`${url}/ai-agents/tools/${name}`, { method: 'PUT', headers: { apikey: key, 'content-type': 'application/json' }, body: JSON.stringify(validTool(name)) });

describe('agentsync emulator (CLI)', () => {
  it('prints one ready line with the real port and the accepted key, serves requests, and exits 0 on SIGTERM', async () => {
    const running = await startCli(['--port', '0', '--app-id', 'cli-app', '--api-key', 'cli-secret']);
    expect(running.url).not.toContain(':0/');
    const reply = await postTool(running.url, 'cli-secret', 'from_cli');
    expect(reply.status).toBe(200);
    expect(((await reply.json()) as { _id: string })._id).toBe('cli-app_from_cli');
    // Without --put-creates, PUT of an unknown tool is a 404, as the public reference says.
    expect((await putTool(running.url, 'cli-secret', 'not_there')).status).toBe(404);
    running.child.kill('SIGTERM');
    expect(await running.exited).toBe(0);
    expect(running.stdout()).toBe(`agentsync emulator ready at ${running.url} (app "cli-app", API key: cli-secret)\n`);
    expect(running.stderr()).toContain('POST /v3/ai-agents/tools 200');
    expect(running.stderr()).toContain('PUT /v3/ai-agents/tools/not_there 404');
    // The ready line is the one place the key appears.
    expect(running.stderr()).not.toContain('cli-secret');
  });

  it('exits 0 on SIGINT too, and takes the key from $AGENTSYNC_EMULATOR_API_KEY (and names it)', async () => {
    const running = await startCli(['--port', '0'], { AGENTSYNC_EMULATOR_API_KEY: 'env-key' });
    expect(running.stdout()).toContain('(app "local", API key: env-key)');
    expect((await postTool(running.url, 'env-key', 'env_tool')).status).toBe(200);
    expect((await postTool(running.url, 'local-dev-key', 'env_tool')).status).toBe(401);
    running.child.kill('SIGINT');
    expect(await running.exited).toBe(0);
  });

  it('names local-dev-key when no key is configured', async () => {
    const running = await startCli(['--port', '0'], { AGENTSYNC_EMULATOR_API_KEY: '' });
    expect(running.stdout()).toMatch(/^agentsync emulator ready at http:\/\/127\.0\.0\.1:\d+\/v3 \(app "local", API key: local-dev-key\)\n$/);
    running.child.kill('SIGTERM');
    expect(await running.exited).toBe(0);
  });

  it('--put-creates lets PUT create an unknown tool, the seed reading', async () => {
    const running = await startCli(['--port', '0', '--put-creates']);
    const reply = await putTool(running.url, 'local-dev-key', 'upserted');
    expect(reply.status).toBe(200);
    expect(((await reply.json()) as { name: string }).name).toBe('upserted');
    const config = (await (await fetch(`${new URL(running.url).origin}/__emulator/config`)).json()) as { putCreates: boolean };
    expect(config.putCreates).toBe(true);
    running.child.kill('SIGTERM');
    expect(await running.exited).toBe(0);
  });

  it('--kb-processing-ms sets how long indexing discovered URLs takes', async () => {
    const running = await startCli(['--port', '0', '--kb-processing-ms', '0']);
    const config = (await (await fetch(`${new URL(running.url).origin}/__emulator/config`)).json()) as { kbProcessingMs: number };
    expect(config.kbProcessingMs).toBe(0);
    running.child.kill('SIGTERM');
    expect(await running.exited).toBe(0);
  });

  it('flushes --data on SIGTERM so a restarted emulator keeps the data', async () => {
    const folder = await mkdtemp(join(tmpdir(), 'agentsync-cli-'));
    try {
      const dataFile = join(folder, 'emulator.json');
      const first = await startCli(['--port', '0', '--data', dataFile]);
      expect((await postTool(first.url, 'local-dev-key', 'persisted')).status).toBe(200);
      first.child.kill('SIGTERM');
      expect(await first.exited).toBe(0);
      const second = await startCli(['--port', '0', '--data', dataFile]);
      const reply = await fetch(`${second.url}/ai-agents/tools/persisted`, { headers: { apikey: 'local-dev-key' } });
      expect(reply.status).toBe(200);
      second.child.kill('SIGTERM');
      expect(await second.exited).toBe(0);
    } finally {
      await rm(folder, { recursive: true, force: true });
    }
  });

  it.each([
    [['--fail-rate', '2'], '--fail-rate'],
    [['--fail-rate', 'often'], '--fail-rate'],
    [['--port', 'abc'], '--port'],
    [['--port', '70000'], '--port'],
    [['--latency', '-5'], '--latency'],
    [['--rate-limit', '0'], '--rate-limit'],
    [['--app-id', ''], '--app-id'],
    [['--kb-processing-ms', '-1'], '--kb-processing-ms'],
    [['--kb-processing-ms', 'soon'], '--kb-processing-ms'],
  ])('rejects %j with exit 1 and a one-line error', (args, flag) => {
    const result = runCli(args);
    expect(result.status).toBe(1);
    const lines = result.stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^Error: /);
    expect(lines[0]).toContain(flag);
    expect(result.stderr).not.toMatch(/\n\s+at /);
    expect(result.stdout).toBe('');
  });

  it('reports a port in use as a one-line error with exit 1', async () => {
    const running = await startCli(['--port', '0']);
    const port = new URL(running.url).port;
    const result = runCli(['--port', port]);
    expect(result.status).toBe(1);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
    expect(result.stderr).toContain(`127.0.0.1:${port}`);
    running.child.kill('SIGTERM');
    expect(await running.exited).toBe(0);
  });
});
