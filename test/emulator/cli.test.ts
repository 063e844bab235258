// `agentsync emulator`, run in this process through runMain: readiness line, real requests over
// HTTP, a clean stop when the run's stop signal comes, and one-line errors for bad flags. The run's
// AbortSignal stands for SIGINT and SIGTERM here; the real signals to the built bin are
// test/cli/signals.test.ts.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli, startCliInProcess, type CliResult } from '../support/cli.js';
import { validTool } from './helpers.js';

interface Running {
  url: string;
  stdout: () => string;
  stderr: () => string;
  /** Ends the run as SIGINT or SIGTERM would. */
  stop(signal: 'SIGINT' | 'SIGTERM'): void;
  exited: Promise<number | null>;
}

/** `agentsync emulator ARGS`, resolved once it prints its ready line. */
async function startEmulatorCli(args: string[], env: Record<string, string> = {}): Promise<Running> {
  const controller = new AbortController();
  const run = startCliInProcess(['emulator', ...args], { env, signal: controller.signal });
  let ended = false;
  const exited = run.done.then((result) => {
    ended = true;
    return result.code;
  });
  const started = Date.now();
  for (;;) {
    const match = /http:\/\/127\.0\.0\.1:\d+\/v3/.exec(run.stdout());
    if (match) return { url: match[0], stdout: run.stdout, stderr: run.stderr, stop: (signal) => controller.abort(signal), exited };
    if (ended) throw new Error(`exited ${await exited} before ready; stderr: ${run.stderr()}`);
    if (Date.now() - started > 15_000) throw new Error(`no ready line; stderr: ${run.stderr()}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

const runEmulatorCli = (args: string[]): Promise<CliResult> => runCli(['emulator', ...args], { timeoutMs: 15_000 });

const postTool = (url: string, key: string, name: string) =>
  fetch(`${url}/ai-agents/tools`, { method: 'POST', headers: { apikey: key, 'content-type': 'application/json' }, body: JSON.stringify(validTool(name)) });
const putTool = (url: string, key: string, name: string) =>
  fetch(`${url}/ai-agents/tools/${name}`, { method: 'PUT', headers: { apikey: key, 'content-type': 'application/json' }, body: JSON.stringify(validTool(name)) });

describe('agentsync emulator (CLI)', () => {
  it('prints one ready line with the real port and the accepted key, serves requests, and exits 0 when stopped', async () => {
    const running = await startEmulatorCli(['--port', '0', '--app-id', 'cli-app', '--api-key', 'cli-secret']);
    expect(running.url).not.toContain(':0/');
    const reply = await postTool(running.url, 'cli-secret', 'from_cli');
    expect(reply.status).toBe(200);
    expect(((await reply.json()) as { _id: string })._id).toBe('cli-app_from_cli');
    // Without --put-creates, PUT of an unknown tool is a 404, as the public reference says.
    expect((await putTool(running.url, 'cli-secret', 'not_there')).status).toBe(404);
    running.stop('SIGTERM');
    expect(await running.exited).toBe(0);
    expect(running.stdout()).toBe(`agentsync emulator ready at ${running.url} (app "cli-app", API key: cli-secret)\nDashboard: ${running.url.replace(/v3$/, '')}\n`);
    expect(running.stderr()).toContain('POST /v3/ai-agents/tools 200');
    expect(running.stderr()).toContain('PUT /v3/ai-agents/tools/not_there 404');
    // The ready line is the one place the key appears.
    expect(running.stderr()).not.toContain('cli-secret');
  });

  it('exits 0 when stopped as by SIGINT too, and takes the key from $AGENTSYNC_EMULATOR_API_KEY (and names it)', async () => {
    const running = await startEmulatorCli(['--port', '0'], { AGENTSYNC_EMULATOR_API_KEY: 'env-key' });
    expect(running.stdout()).toContain('(app "local", API key: env-key)');
    expect((await postTool(running.url, 'env-key', 'env_tool')).status).toBe(200);
    expect((await postTool(running.url, 'local-dev-key', 'env_tool')).status).toBe(401);
    running.stop('SIGINT');
    expect(await running.exited).toBe(0);
  });

  it('names local-dev-key when no key is configured', async () => {
    const running = await startEmulatorCli(['--port', '0'], { AGENTSYNC_EMULATOR_API_KEY: '' });
    expect(running.stdout()).toMatch(/^agentsync emulator ready at http:\/\/127\.0\.0\.1:\d+\/v3 \(app "local", API key: local-dev-key\)\nDashboard: http:\/\/127\.0\.0\.1:\d+\/\n$/);
    running.stop('SIGTERM');
    expect(await running.exited).toBe(0);
  });

  it('--put-creates lets PUT create an unknown tool, the seed reading', async () => {
    const running = await startEmulatorCli(['--port', '0', '--put-creates']);
    const reply = await putTool(running.url, 'local-dev-key', 'upserted');
    expect(reply.status).toBe(200);
    expect(((await reply.json()) as { name: string }).name).toBe('upserted');
    const config = (await (await fetch(`${new URL(running.url).origin}/__emulator/config`)).json()) as { putCreates: boolean };
    expect(config.putCreates).toBe(true);
    running.stop('SIGTERM');
    expect(await running.exited).toBe(0);
  });

  it('--kb-processing-ms sets how long indexing discovered URLs takes', async () => {
    const running = await startEmulatorCli(['--port', '0', '--kb-processing-ms', '0']);
    const config = (await (await fetch(`${new URL(running.url).origin}/__emulator/config`)).json()) as { kbProcessingMs: number };
    expect(config.kbProcessingMs).toBe(0);
    running.stop('SIGTERM');
    expect(await running.exited).toBe(0);
  });

  it('flushes --data when stopped so a restarted emulator keeps the data', async () => {
    const folder = await mkdtemp(join(tmpdir(), 'agentsync-cli-'));
    try {
      const dataFile = join(folder, 'emulator.json');
      const first = await startEmulatorCli(['--port', '0', '--data', dataFile]);
      expect((await postTool(first.url, 'local-dev-key', 'persisted')).status).toBe(200);
      first.stop('SIGTERM');
      expect(await first.exited).toBe(0);
      const second = await startEmulatorCli(['--port', '0', '--data', dataFile]);
      const reply = await fetch(`${second.url}/ai-agents/tools/persisted`, { headers: { apikey: 'local-dev-key' } });
      expect(reply.status).toBe(200);
      second.stop('SIGTERM');
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
  ])('rejects %j with exit 1 and a one-line error', async (args, flag) => {
    const result = await runEmulatorCli(args);
    expect(result.code).toBe(1);
    const lines = result.stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^Error: /);
    expect(lines[0]).toContain(flag);
    expect(result.stderr).not.toMatch(/\n\s+at /);
    expect(result.stdout).toBe('');
  });

  it('reports a port in use as a one-line error with exit 1', async () => {
    const running = await startEmulatorCli(['--port', '0']);
    const port = new URL(running.url).port;
    const result = await runEmulatorCli(['--port', port]);
    expect(result.code).toBe(1);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
    expect(result.stderr).toContain(`127.0.0.1:${port}`);
    running.stop('SIGTERM');
    expect(await running.exited).toBe(0);
  });
});
