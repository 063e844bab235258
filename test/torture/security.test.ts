// Security: the key and secret values never leak into output or files; state files are 0600;
// plain http is refused off loopback; and tool names cannot escape their path segment. One state
// admitting one process's apply at a time is test/torture/processes.test.ts.
import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateManifest } from '../../bench/generate.mjs';
import { runCli, startCliInProcess, type CliResult } from '../support/cli.js';
import { API_KEY, startTestEmulator, type TestEmulator } from '../support/emulator.js';
import { waitFor } from '../support/wait.js';
import { makeWorkspace, reasonLines, STACK_TRACE, type Workspace } from './helpers.js';

const SECRET = 'sEcReT-9d41f0c2-never-print-me';
const SECRET_2 = 'sEcReT-77aa01be-rotated-value';

const manifestWithSecret = `version: 1
environments:
  local:
    appId: local
    region: us
tools:
  lookup:
    displayName: Lookup
    executionText: Looking up
    description: Finds things
    parameters: {}
agents:
  helper:
    name: Helper
    integrationType: agent
    integrateWith: langgraph
    instruction: \${secret:TORTURE_INSTRUCTION}
    integrationMeta:
      baseUrl: https://agents.example.com/helper
      headers: { authorization: "Bearer \${secret:TORTURE_INSTRUCTION}" }
    actions: [lookup]
`;

let emulator: TestEmulator;
let ws: Workspace;

beforeAll(async () => {
  emulator = await startTestEmulator();
  ws = makeWorkspace();
});

afterAll(async () => {
  await emulator?.close();
  ws?.remove();
});

/** Every file under dir, recursively, with its contents. */
function allFiles(dir: string): { path: string; text: string }[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile())
    .map((e) => join(e.parentPath, e.name))
    .map((path) => ({ path, text: readFileSync(path, 'latin1') }));
}

describe('security', () => {
  it('never prints or stores the API key or a ${secret:…} value', async () => {
    const dir = ws.path('secrets');
    const manifest = join(dir, 'agents.yaml');
    const state = join(dir, 'state.json');
    const planFile = join(dir, 'saved.plan.json');
    mkdirSync(dir);
    writeFileSync(manifest, manifestWithSecret);
    const common = ['-f', manifest, '--state', state];
    const env = { ...emulator.env, TORTURE_INSTRUCTION: SECRET };
    const outputs: CliResult[] = [];
    const run = async (args: string[], extraEnv: Record<string, string> = {}): Promise<CliResult> => {
      const result = await runCli(args, { env: { ...env, ...extraEnv } });
      outputs.push(result);
      return result;
    };

    expect((await run(['validate', '-f', manifest])).code).toBe(0);
    expect((await run(['plan', ...common])).code).toBe(0);
    expect((await run(['plan', '--json', ...common])).code).toBe(0);
    expect((await run(['plan', '--format', 'markdown', ...common])).code).toBe(0);
    expect((await run(['plan', '--out', planFile, ...common])).code).toBe(0);
    expect((await run(['apply', '--auto-approve', ...common, planFile])).code).toBe(0);
    // The secret rotates: a change must show, without either value.
    const rotated = await run(['plan', '--detailed-exitcode', ...common], { TORTURE_INSTRUCTION: SECRET_2 });
    expect(rotated.code, rotated.stdout).toBe(2);
    expect(rotated.stdout).toContain('(sensitive)');
    expect((await run(['apply', '--auto-approve', ...common], { TORTURE_INSTRUCTION: SECRET_2 })).code).toBe(0);
    expect((await run(['state', 'list', ...common])).code).toBe(0);
    expect((await run(['state', 'list', '--json', ...common])).code).toBe(0);
    expect((await run(['state', 'show', 'agent.helper', ...common])).code).toBe(0);
    expect((await run(['state', 'show', 'agent.helper', '--json', ...common])).code).toBe(0);
    // A rejected key, with debug output on: still no key in what is printed.
    const denied = await run(['apply', '--auto-approve', ...common], { TORTURE_INSTRUCTION: SECRET, COMETCHAT_API_KEY: `${API_KEY}-wrong`, AGENTSYNC_DEBUG: '1' });
    expect(denied.code).toBe(1);

    for (const [i, output] of outputs.entries()) {
      for (const needle of [API_KEY, SECRET, SECRET_2]) {
        expect(output.stdout, `stdout of run ${i}`).not.toContain(needle);
        expect(output.stderr, `stderr of run ${i}`).not.toContain(needle);
      }
    }
    const files = allFiles(dir);
    expect(files.map((f) => f.path)).toEqual(expect.arrayContaining([state, `${state}.backup`, planFile]));
    for (const file of files) {
      for (const needle of [API_KEY, SECRET, SECRET_2]) expect(file.text, file.path).not.toContain(needle);
    }
  });

  it('keeps state, journal and backup at mode 0600', async () => {
    const dir = ws.path('modes');
    mkdirSync(dir);
    const manifest = join(dir, 'agents.yaml');
    const state = join(dir, 'state.json');
    writeFileSync(manifest, generateManifest({ count: 60, seed: 5 }));
    await emulator.configure({ latencyMs: 20 });
    try {
      // Mid-apply, the journal holds what succeeded; the run is then stopped as by SIGINT, and the
      // rerun's state write leaves a backup of the state the stop recorded.
      const stop = new AbortController();
      const run = startCliInProcess(['apply', '--auto-approve', '--concurrency', '2', '-f', manifest, '--state', state], { env: emulator.env, signal: stop.signal });
      const start = (await emulator.stats()).requests;
      await waitFor('ten requests', async () => (await emulator.stats()).requests - start >= 10, { timeoutMs: 30_000 });
      const journalMode = statSync(`${state}.journal`).mode & 0o777;
      stop.abort('SIGINT');
      await run.done;
      expect(journalMode.toString(8)).toBe('600');
      expect((await runCli(['apply', '--auto-approve', '-f', manifest, '--state', state], { env: emulator.env })).code).toBe(0);
    } finally {
      await emulator.configure({ latencyMs: 0 });
    }
    for (const file of [state, `${state}.backup`]) expect((statSync(file).mode & 0o777).toString(8), file).toBe('600');
  });

  it.each([
    ['AGENTSYNC_BASE_URL', 'http://example.com/v3'],
    ['AGENTSYNC_BASE_URL', 'http://10.0.0.7:4010/v3'],
    ['AGENTSYNC_BASE_URL', 'http://localhost.attacker.example/v3'],
    ['AGENTSYNC_BASE_URL', 'http://127.0.0.1.nip.io/v3'],
    ['manifest baseUrl', 'http://192.168.1.20/v3'],
  ])('refuses plain http to a non-loopback host (%s = %s)', async (where, url) => {
    const dir = ws.path(`http-${Math.random().toString(36).slice(2)}`);
    mkdirSync(dir);
    const manifest = join(dir, 'agents.yaml');
    const text = generateManifest({ count: 5, seed: 1, environment: 'local', baseUrl: where === 'manifest baseUrl' ? url : 'https://local.api-us.cometchat.io/v3' });
    writeFileSync(manifest, text);
    const env = where === 'AGENTSYNC_BASE_URL' ? { COMETCHAT_API_KEY: API_KEY, AGENTSYNC_BASE_URL: url } : { COMETCHAT_API_KEY: API_KEY };
    await emulator.clearRequests();
    const result = await runCli(['apply', '--auto-approve', '-f', manifest, '--state', join(dir, 'state.json')], { env, timeoutMs: 30_000 });
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/https/);
    expect(result.stderr).not.toMatch(STACK_TRACE);
    expect(reasonLines(result.stderr)).toHaveLength(1);
  });

  it.each(['we%2Fird', 'a/b', 'what?', 'hash#tag', '..', 'up..', 'café', '名前', 'a b', '%2e%2e'])('rejects the tool name %j at validate', async (name) => {
    const dir = ws.path(`name-${Buffer.from(name).toString('hex')}`);
    mkdirSync(dir);
    const manifest = join(dir, 'agents.yaml');
    writeFileSync(manifest, `version: 1\nenvironments:\n  local: { appId: local, region: us }\ntools:\n  ${JSON.stringify(name)}:\n    displayName: X\n    executionText: Y\n    doNotExecute: true\n`);
    const result = await runCli(['validate', '-f', manifest]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('tool name must match');
    expect(result.stderr).toMatch(new RegExp(`agents\\.yaml:5:3:`));
  });

  it('sends a name the pattern allows inside one encoded path segment', async () => {
    const dir = ws.path('encoded');
    mkdirSync(dir);
    const manifest = join(dir, 'agents.yaml');
    const names = ['$a-b_c', '$$', '_-$'];
    const tools = names.map((n) => `  ${JSON.stringify(n)}:\n    displayName: X\n    executionText: Y\n    doNotExecute: true\n`).join('');
    writeFileSync(manifest, `version: 1\nenvironments:\n  local: { appId: local, region: us }\ntools:\n${tools}`);
    // The seed's reading: creates are PUTs too, so every name travels in a path segment.
    await emulator.configure({ putCreates: true });
    await emulator.clearRequests();
    const result = await runCli(['apply', '--auto-approve', '-f', manifest, '--state', join(dir, 'state.json')], { env: emulator.env });
    expect(result.code, result.stderr).toBe(0);
    const puts = (await emulator.requests()).filter((r) => r.method === 'PUT');
    expect(puts.map((r) => r.path).sort()).toEqual(names.map((n) => `/v3/ai-agents/tools/${encodeURIComponent(n)}`).sort());
    for (const put of puts) expect(put.status).toBe(200);
    const stored = await emulator.get<{ name: string }>(`/ai-agents/tools/${encodeURIComponent('$a-b_c')}`);
    expect(stored.name).toBe('$a-b_c');
    await emulator.configure({ putCreates: false });
  });
});
