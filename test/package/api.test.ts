// The programmatic API as a user gets it: the built package entry (dist/index.js, what
// `import … from 'agentsync'` loads), planning and applying against the emulator over real HTTP.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type * as AgentsyncApi from '../../src/index.js';
import type { ApplyEvent } from '../../src/index.js';
import { runCli } from '../support/cli.js';
import { startTestEmulator, API_KEY, type TestEmulator } from '../support/emulator.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const ENTRY = join(ROOT, 'dist', 'index.js');
type Api = typeof AgentsyncApi;

let api: Api;
let emu: TestEmulator;
let dir: string;
let env: Record<string, string>;
beforeAll(async () => {
  api = (await import(ENTRY)) as Api;
  emu = await startTestEmulator();
});
afterAll(() => emu.close());
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'agentsync-api-'));
  await fetch(`${emu.origin}/__emulator/reset`, { method: 'POST' });
  await fetch(`${emu.origin}/__emulator/requests`, { method: 'DELETE' });
  env = { COMETCHAT_API_KEY: API_KEY, AGENTSYNC_BASE_URL: emu.url, WEATHER_TOKEN: 'tok-sekrit-42' };
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const MANIFEST = `version: 1
environments:
  local: { appId: local, region: us }
tools:
  weather:
    displayName: Weather
    executionText: Looking it up
    description: Today's weather
    parameters: {}
agents:
  helper: { name: Helper, integrationType: llm, integrateWith: gpt-4o, actions: [weather] }
  remote: { name: Remote, integrationType: llm, integrateWith: gpt-4o, instruction: "Sign with \${secret:WEATHER_TOKEN}" }
`;

async function manifest(text = MANIFEST): Promise<string> {
  const file = join(dir, 'agents.yaml');
  await writeFile(file, text);
  return file;
}

/** Runs `work` and returns what it wrote to stdout and stderr: a library must write nothing. */
async function silently<T>(work: () => Promise<T>): Promise<{ value?: T; error?: unknown; printed: string }> {
  const writes = { out: process.stdout.write, err: process.stderr.write };
  let printed = '';
  const capture = ((chunk: string | Uint8Array) => {
    printed += String(chunk);
    return true;
  }) as typeof process.stdout.write;
  process.stdout.write = capture;
  process.stderr.write = capture;
  try {
    return { value: await work(), printed };
  } catch (error) {
    return { error, printed };
  } finally {
    process.stdout.write = writes.out;
    process.stderr.write = writes.err;
  }
}

describe('the package entry (dist/index.js)', () => {
  it('validates: every diagnostic with its place, without throwing', async () => {
    const file = await manifest(MANIFEST.replace('region: us', 'region: mars').replace('integrateWith: gpt-4o', 'integrateWith: gpt-4o, temprature: 1'));
    const result = await api.validate({ file, env });
    expect(result.valid).toBe(false);
    expect(result.diagnostics.filter((d) => d.severity === 'error').map((d) => [d.line, d.path])).toEqual([
      [3, 'environments.local.region'],
      [11, 'agents.helper.temprature'],
    ]);
    const good = await api.validate({ file: await manifest(), env });
    expect(good).toMatchObject({ valid: true, environments: ['local'] });
  });

  it('lints: the rules and the errors validate reports, each finding with its rule', async () => {
    const file = await manifest(MANIFEST.replace('region: us', 'region: mars'));
    const result = await api.lint({ file, env });
    expect(result.passed).toBe(false);
    expect(result.findings.filter((f) => f.severity === 'error').map((f) => [f.rule, f.line, f.path])).toEqual([['invalid', 3, 'environments.local.region']]);
    expect(await api.lint({ file: await manifest(), env })).toMatchObject({ passed: true });
  });

  it('load throws a ManifestError that carries the diagnostics; an unreadable file is a UserError', async () => {
    const file = await manifest(MANIFEST.replace('region: us', 'region: mars'));
    const failure = await api.load({ file, env }).catch((err: unknown) => err);
    expect(failure).toBeInstanceOf(api.ManifestError);
    expect(failure).toBeInstanceOf(api.UserError);
    expect((failure as InstanceType<Api['ManifestError']>).code).toBe('manifest_invalid');
    expect((failure as InstanceType<Api['ManifestError']>).diagnostics[0]).toMatchObject({ line: 3, severity: 'error' });
    const missing = await api.load({ file: join(dir, 'nope.yaml'), env }).catch((err: unknown) => err);
    expect(api.isUserError(missing)).toBe(true);
    expect((missing as InstanceType<Api['UserError']>).code).toBe('manifest_unreadable');
  });

  it('loads the desired resources, with the secret resolved for sending', async () => {
    const { desired, warnings } = await api.load({ file: await manifest(), env });
    expect(warnings).toEqual([]);
    expect(desired.environment).toMatchObject({ name: 'local', appId: 'local', baseUrl: emu.url });
    expect(desired.resources.map((r) => r.address)).toEqual(['tool.weather', 'agent.helper', 'agent.remote']);
  });

  it('plans offline with no key and no call; with a refresh it reads the server', async () => {
    const file = await manifest();
    const offline = await api.plan({ file, env: { WEATHER_TOKEN: 'tok-sekrit-42' }, refresh: false });
    expect(offline.hasChanges).toBe(true);
    expect(offline.plan.refreshed).toBe(false);
    expect(offline.plan.summary).toEqual({ create: 3, update: 0, replace: 0, delete: 0, forget: 0, noop: 0 });
    expect(await emu.apiRequests()).toEqual([]);
    // The secret is never in the plan, nor in any rendering of it.
    for (const format of ['text', 'json', 'markdown'] as const) expect(api.renderPlan(offline.plan, format)).not.toContain('tok-sekrit-42');
    expect(JSON.stringify(offline.plan)).not.toContain('tok-sekrit-42');
    expect(api.planToJson(offline.plan).formatVersion).toBe(1);

    const refreshed = await api.plan({ file, env });
    expect(refreshed.plan.refreshed).toBe(true);
    expect((await emu.apiRequests('GET')).length).toBeGreaterThan(0);
    expect(await emu.apiWrites()).toEqual([]);

    const noKey = await api.plan({ file, env: { AGENTSYNC_BASE_URL: emu.url, WEATHER_TOKEN: 'tok-sekrit-42' } }).catch((err: unknown) => err);
    expect(noKey).toMatchObject({ name: 'UserError', code: 'config_invalid' });
    expect(String((noKey as Error).message)).toContain('COMETCHAT_API_KEY');
  });

  it('diffs two environments as `diff --json` prints them, printing nothing itself', async () => {
    const eu = await startTestEmulator({ apiKey: 'key-eu-pkg-5b20' });
    try {
      const twoRegions = `version: 1
environments:
  us: { appId: local, region: us, baseUrl: "${emu.url}", vars: { tone: brief } }
  eu: { appId: local, region: eu, baseUrl: "${eu.url}", apiKeyEnv: KEY_EU, vars: { tone: formal } }
agents:
  helper: { name: Helper, integrationType: llm, integrateWith: gpt-4o, instruction: "Be \${var.tone}." }
`;
      await manifest(twoRegions);
      const keys = { COMETCHAT_API_KEY: API_KEY, KEY_EU: 'key-eu-pkg-5b20' };
      expect((await runCli(['apply', '-e', 'us,eu', '--auto-approve'], { cwd: dir, env: keys })).code).toBe(0);
      const result = await silently(() => api.diff({ cwd: dir, env: keys, environments: ['us', 'eu'] }));
      expect(result.printed).toBe('');
      expect(result.value).toMatchObject({ formatVersion: 1, summary: { differ: 0, intended: 1 } });
      const cli = await runCli(['diff', '-e', 'us', '-e', 'eu', '--json'], { cwd: dir, env: keys });
      expect(JSON.parse(cli.stdout)).toEqual(result.value);
    } finally {
      await eu.close();
    }
  });

  it('applies, records the state, reports progress and prints nothing; the next plan has no changes', async () => {
    const file = await manifest();
    const events: ApplyEvent[] = [];
    const run = await silently(() => api.apply({ file, env, onEvent: (e) => events.push(e) }));
    expect(run.error).toBeUndefined();
    expect(run.printed).toBe('');
    expect(run.value?.result).toMatchObject({ ok: true, counts: { created: 3, updated: 0, forgotten: 0 } });
    expect(
      events
        .filter((e) => e.kind === 'done')
        .map((e) => e.address)
        .sort(),
    ).toEqual(['agent.helper', 'agent.remote', 'tool.weather']);
    // The secret was sent as it is: the server has it.
    expect(JSON.stringify(await emu.get('/ai-agents/agents'))).toContain('tok-sekrit-42');
    const state = await readFile(join(dir, '.agentsync', 'local.state.json'), 'utf8');
    expect(state).toContain('agent.helper');
    expect(state).not.toContain('tok-sekrit-42');
    expect(state).not.toContain(API_KEY);

    // Offline, the next plan compares with the state the apply recorded.
    const again = await silently(() => api.plan({ file, env, refresh: false }));
    expect(again.printed).toBe('');
    expect(again.value && api.renderPlan(again.value.plan, 'text')).toContain('No changes.');
    expect(again.value?.hasChanges).toBe(false);
  });

  it("an apply through the library leaves the CLI's next plan at No changes, drift it adopted included", async () => {
    const file = await manifest();
    await api.apply({ file, env });
    // Someone edits an agent on the server, and the manifest then asks for exactly that edit.
    const state = JSON.parse(await readFile(join(dir, '.agentsync', 'local.state.json'), 'utf8')) as { resources: Record<string, { remoteId: string }> };
    const uid = state.resources['agent.helper']!.remoteId;
    const edited = await fetch(`${emu.url}/ai-agents/agents/${encodeURIComponent(uid)}`, {
      method: 'PATCH',
      headers: { apikey: API_KEY, 'content-type': 'application/json' },
      body: JSON.stringify({ instruction: 'Answer in one line.' }),
    });
    expect(edited.status).toBe(200);
    await manifest(MANIFEST.replace('actions: [weather] }', 'actions: [weather], instruction: "Answer in one line." }'));
    const adopted = await api.apply({ file, env });
    expect(adopted.hasChanges).toBe(false);
    // The CLI, as a child process, reads the same server and state.
    const cli = await runCli(['plan', '--file', file, '--no-color'], { cwd: dir, env });
    expect(cli.stderr).toBe('');
    expect(cli.code).toBe(0);
    expect(cli.stdout).toContain('No changes.');
    expect(cli.stdout).not.toMatch(/drift|outside agentsync|changed on the server/i);
  });

  it('an apply with nothing to do sends nothing and says so', async () => {
    const file = await manifest(MANIFEST.replace(/^ {2}remote:.*\n/m, ''));
    expect((await api.apply({ file, env })).result.counts.created).toBe(2);
    await fetch(`${emu.origin}/__emulator/requests`, { method: 'DELETE' });
    const noop = await api.apply({ file, env });
    expect(noop.hasChanges).toBe(false);
    expect(noop.result).toMatchObject({ ok: true, total: 0, done: [], notify: { status: 'skipped', reason: 'nothing-changed' } });
    expect(await emu.apiWrites()).toEqual([]);
  });

  it('confirm sees the plan under the lock and can refuse before any call', async () => {
    const file = await manifest();
    let seen = 0;
    const refused = await api.apply({ file, env, confirm: (plan) => ((seen = plan.summary.create), false) }).catch((err: unknown) => err);
    expect(seen).toBe(3);
    expect(refused).toMatchObject({ code: 'refused' });
    expect(await emu.apiWrites()).toEqual([]);
  });

  it('a failed apply throws ApplyFailedError with what was done, and the state keeps it', async () => {
    const file = await manifest(MANIFEST + '  bad: { name: Bad, integrationType: llm, integrateWith: gpt-4o, actions: [not_on_server] }\nexternal: { tools: [not_on_server] }\n');
    const failure = await api.apply({ file, env, concurrency: 1 }).catch((err: unknown) => err);
    expect(failure).toBeInstanceOf(api.ApplyFailedError);
    const { code, result, message } = failure as InstanceType<Api['ApplyFailedError']>;
    expect(code).toBe('apply_failed');
    expect(message).toMatch(/^apply failed: 1 failed/);
    expect(result.ok).toBe(false);
    expect(result.failed.map((f) => [f.address, f.failure.status])).toEqual([['agent.bad', 400]]);
    expect(result.done.map((d) => d.address)).toContain('tool.weather');
    expect(await readFile(join(dir, '.agentsync', 'local.state.json'), 'utf8')).toContain('tool.weather');
  });

  it('a held lock is a UserError state_locked', async () => {
    const file = await manifest();
    let release: () => void = () => undefined;
    const holding = api.apply({
      file,
      env,
      confirm: () => new Promise<boolean>((resolve) => (release = () => resolve(false))),
    });
    // Wait until the first apply holds the lock (it is asking).
    for (let i = 0; i < 200 && (await readFile(join(dir, '.agentsync', 'local.state.json.lock'), 'utf8').catch(() => null)) === null; i++) await new Promise((r) => setTimeout(r, 25));
    const second = await api.apply({ file, env }).catch((err: unknown) => err);
    release();
    await holding.catch(() => undefined);
    expect(second).toMatchObject({ code: 'state_locked' });
  });

  it('savePlan writes a plan file, printing nothing, that applySavedPlan carries out with the same vars', async () => {
    const file = await manifest(
      MANIFEST.replace("description: Today's weather", 'description: "${var.mood} weather"').replace(
        'local: { appId: local, region: us }',
        'local: { appId: local, region: us, vars: { mood: Fine } }',
      ),
    );
    const saved = await silently(() => api.savePlan({ file, env, vars: { mood: 'Sunny' }, out: 'plan.json', cwd: dir }));
    expect(saved.error).toBeUndefined();
    expect(saved.printed).toBe('');
    expect(saved.value).toMatchObject({ planFile: 'plan.json', hasChanges: true });
    expect(await readFile(join(dir, 'plan.json'), 'utf8')).not.toContain('tok-sekrit-42');
    await expect(api.applySavedPlan({ file, env, planFile: 'plan.json', cwd: dir })).rejects.toMatchObject({ name: 'UserError', code: 'plan_stale' });
    const applied = await silently(() => api.applySavedPlan({ file, env, planFile: 'plan.json', cwd: dir, vars: { mood: 'Sunny' } }));
    expect(applied.printed).toBe('');
    expect(applied.value?.result.counts.created).toBe(3);
    expect(JSON.stringify(await emu.get('/ai-agents/tools'))).toContain('Sunny weather');
  });

  it('plan and apply take prune and target; a mass deletion with prune needs allowMassDelete', async () => {
    const file = await manifest();
    const targeted = await api.apply({ file, env, target: 'agent.helper' });
    expect(targeted.result.done.map((d) => d.address).sort()).toEqual(['agent.helper', 'tool.weather']);
    expect((await api.apply({ file, env })).result.counts.created).toBe(1);
    await manifest('version: 1\nenvironments:\n  local: { appId: local, region: us }\n');
    expect((await api.plan({ file, env, prune: true })).plan.summary).toMatchObject({ delete: 3, forget: 0 });
    await fetch(`${emu.origin}/__emulator/requests`, { method: 'DELETE' });
    await expect(api.apply({ file, env, prune: true })).rejects.toMatchObject({ name: 'UserError', code: 'refused' });
    expect(await emu.apiWrites()).toEqual([]);
    expect((await api.apply({ file, env, prune: true, allowMassDelete: true })).result.counts.deleted).toBe(3);
    expect(JSON.stringify(await emu.get('/ai-agents/agents'))).not.toContain('Helper');
  });

  it('exports its version, and loading it does not load the CLI or commander', () => {
    const pkg = JSON.parse(spawnSync(process.execPath, ['-p', `JSON.stringify(require(${JSON.stringify(join(ROOT, 'package.json'))}))`], { encoding: 'utf8' }).stdout) as { version: string };
    expect(api.version).toBe(pkg.version);
    const loaded = (entry: string) => {
      const script = `import { createRequire } from 'node:module'; await import(${JSON.stringify(entry)}); console.log(Object.keys(createRequire(import.meta.url).cache).filter((k) => k.includes('/node_modules/commander/')).length);`;
      const child = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' });
      expect(child.stderr).toBe('');
      return Number(child.stdout.trim());
    };
    expect(loaded(ENTRY)).toBe(0);
    // dist/index.js is one bundle: commander is not among the sources esbuild put in it (each is named in a comment).
    const bundle = readFileSync(ENTRY, 'utf8');
    expect(bundle).toContain('// node_modules/zod/');
    expect(bundle).not.toContain('// node_modules/commander/');
    expect(bundle).not.toContain('// src/cli/commands/');
    // The check can see commander when it is there: the CLI's program loads it.
    expect(loaded(join(ROOT, 'dist', 'cli', 'program.js'))).toBeGreaterThan(0);
  });
});
