// The library functions that do what the CLI does beyond plan and apply: a saved plan applied,
// export and import, the state operations, kb status and wait. Each runs against the emulator over
// real HTTP with real files, in its own folder (`cwd`), and is checked against what the server and
// the state now hold. Also: two calls never share secrets.
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import * as api from '../../src/index.js';
import { buildPlanFile, serializePlanFile, type PlanFile } from '../../src/io/files/plan-file.js';
import { runCli } from '../support/cli.js';
import { startTestEmulator, API_KEY, type TestEmulator } from '../support/emulator.js';

let emu: TestEmulator;
let dir: string;
let env: Record<string, string>;
beforeAll(async () => {
  emu = await startTestEmulator({ kb: { kbProcessingMs: 0 } });
});
afterAll(() => emu.close());
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'agentsync-library-'));
  await emu.reset();
  env = { COMETCHAT_API_KEY: API_KEY, AGENTSYNC_BASE_URL: emu.url };
});
afterEach(() => rm(dir, { recursive: true, force: true }));

const MANIFEST = `version: 1
environments:
  local: { appId: local, region: us }
tools:
  weather: { displayName: Weather, executionText: Looking it up, description: Today's weather, parameters: {} }
agents:
  helper: { name: Helper, integrationType: llm, integrateWith: gpt-4o, actions: [weather] }
`;

async function project(text = MANIFEST): Promise<void> {
  await writeFile(join(dir, 'agents.yaml'), text);
}

const agentNames = async (): Promise<string[]> => (await emu.get<{ name: string }[]>('/ai-agents/agents')).map((a) => a.name).sort();

describe('a manifest in many files', () => {
  it('validates, plans and applies a folder of parts, found by default, or given as files', async () => {
    await mkdir(join(dir, 'agents'));
    const [head = '', rest = ''] = MANIFEST.split(/^(?=tools:)/m);
    await writeFile(join(dir, 'agents', 'environments.yaml'), head);
    await writeFile(join(dir, 'agents', 'resources.yaml'), rest);
    // No agents.yaml: the agents/ folder is the manifest, as for the CLI.
    expect(await api.validate({ cwd: dir, env })).toMatchObject({ valid: true, environments: ['local'] });
    const planned = await api.plan({ cwd: dir, env, file: ['agents/resources.yaml', 'agents/environments.yaml'] });
    expect(planned.hasChanges).toBe(true);
    const applied = await api.apply({ cwd: dir, env, file: 'agents' });
    expect(applied.result.ok).toBe(true);
    expect(applied.file).toBe('agents');
    expect(await agentNames()).toEqual(['Helper']);
    await writeFile(join(dir, 'agents', 'again.yaml'), 'tools:\n  weather: { displayName: W, executionText: x, doNotExecute: true }\n');
    const twice = await api.validate({ cwd: dir, env });
    expect(twice.valid).toBe(false);
    expect(twice.diagnostics[0]).toMatchObject({ file: 'agents/resources.yaml', message: expect.stringContaining('already defined in agents/again.yaml:2:3') });
  });
});

describe('applySavedPlan', () => {
  it("applies exactly the plan the CLI saved, from a folder that is not the process's", async () => {
    await project();
    expect((await runCli(['plan', '--out', 'plan.json'], { cwd: dir, env })).code).toBe(0);
    const outcome = await api.applySavedPlan({ planFile: 'plan.json', cwd: dir, env });
    expect(outcome.result.counts).toMatchObject({ created: 2 });
    expect(outcome.result.failed).toEqual([]);
    expect(await agentNames()).toContain('Helper');
    // The file is spent: the state moved on, so applying it again is refused as stale.
    await expect(api.applySavedPlan({ planFile: 'plan.json', cwd: dir, env })).rejects.toMatchObject({ code: 'plan_stale' });
  });

  it('refuses a file whose changes were edited, even with its digest recomputed, and changes nothing', async () => {
    await project();
    await api.apply({ cwd: dir, env });
    await project(MANIFEST.replace('name: Helper', 'name: Helper Two'));
    expect((await runCli(['plan', '--out', 'plan.json'], { cwd: dir, env })).code).toBe(0);
    const file = JSON.parse(await readFile(join(dir, 'plan.json'), 'utf8')) as PlanFile & { changes: { action: string; fields: unknown[] }[] };
    // What `show` would render as "No changes": every change turned into a no-op, and the file's
    // digest recomputed, as anyone can (it is an unkeyed sha256).
    const { savedPlan, ...planJson } = file;
    const { digest: _digest, kind: _kind, ...info } = savedPlan;
    const noChanges = { create: 0, update: 0, replace: 0, delete: 0, forget: 0, noop: file.changes.length };
    const forged = buildPlanFile({ ...planJson, summary: noChanges, changes: file.changes.map((c) => ({ ...c, action: 'no-op', fields: [] })) }, info);
    await writeFile(join(dir, 'plan.json'), serializePlanFile(forged));
    const shown = await runCli(['show', 'plan.json'], { cwd: dir });
    expect(shown.stderr).toBe('');
    expect(shown.stdout).toContain('No changes');
    await emu.clearRequests();
    await expect(api.applySavedPlan({ planFile: 'plan.json', cwd: dir, env })).rejects.toMatchObject({ code: 'plan_invalid', message: expect.stringContaining('agent.helper') });
    expect(await emu.apiWrites()).toEqual([]);
  });
  it('compares a hostile file as data: a change holding `valueOf` and `toString` keys is one refusal, not a crash', async () => {
    await project();
    expect((await runCli(['plan', '--out', 'plan.json'], { cwd: dir, env })).code).toBe(0);
    const file = JSON.parse(await readFile(join(dir, 'plan.json'), 'utf8')) as PlanFile & { changes: Record<string, unknown>[] };
    const { savedPlan, ...planJson } = file;
    const { digest: _digest, kind: _kind, ...info } = savedPlan;
    const hostile = file.changes.map((c) => ({ ...c, after: { valueOf: 'x', toString: 1 } }));
    await writeFile(join(dir, 'plan.json'), serializePlanFile(buildPlanFile({ ...planJson, changes: hostile }, info)));
    const applied = await runCli(['apply', 'plan.json'], { cwd: dir, env });
    expect(applied.code).toBe(1);
    expect(applied.stderr).toMatch(/^Error: saved plan plan\.json does not match what applying it would do \(the change to \S+ differs\)/);
    expect(applied.stderr).not.toContain('internal error');
    expect(await emu.apiWrites()).toEqual([]);
  });
});

describe('exportManifest and importResources', () => {
  it('export writes the server as a manifest that plans to no changes, and import adopts it into a fresh state', async () => {
    await project();
    await api.apply({ cwd: dir, env });
    const exported = await api.exportManifest({ cwd: dir, env, out: 'exported.yaml' });
    // The emulator's seed holds a tool of its own besides ours.
    expect(exported.counts).toMatchObject({ tool: 2, agent: 1 });
    expect(await readFile(join(dir, 'exported.yaml'), 'utf8')).toBe(exported.manifest);
    // A second folder with the exported manifest and no state: import adopts both, then nothing to do.
    const other = await mkdtemp(join(tmpdir(), 'agentsync-library-import-'));
    try {
      await writeFile(join(other, 'agents.yaml'), exported.manifest);
      const imported = await api.importResources({ cwd: other, env });
      expect(imported.imported.map((i) => i.address)).toEqual(expect.arrayContaining(['agent.helper', 'tool.weather']));
      expect(imported.imported).toHaveLength(3);
      expect(imported.notFound).toEqual([]);
      expect((await api.plan({ cwd: other, env })).hasChanges).toBe(false);
    } finally {
      await rm(other, { recursive: true, force: true });
    }
  });
});

describe('the state operations', () => {
  it('list, show, mv, rm and migrate, as the state commands do', async () => {
    await project();
    await api.apply({ cwd: dir, env });
    const listing = await api.listState({ cwd: dir, env });
    expect(listing.resources.map((r) => r.address)).toEqual(['agent.helper', 'tool.weather']);
    expect((await api.showState('tool.weather', { cwd: dir, env })).resource?.type).toBe('tool');
    expect(await api.moveState('agent.helper', 'agent.assistant', { cwd: dir, env })).toMatchObject({ from: 'agent.helper', to: 'agent.assistant' });
    expect(await api.forgetState('tool.weather', { cwd: dir, env })).toMatchObject({ address: 'tool.weather', type: 'tool' });
    expect((await api.listState({ cwd: dir, env })).resources.map((r) => r.address)).toEqual(['agent.assistant']);
    const migrated = await api.migrateState('copy.state.json', { cwd: dir, env });
    expect(migrated).toMatchObject({ resources: 1 });
    expect(JSON.parse(await readFile(join(dir, 'copy.state.json'), 'utf8'))).toMatchObject({ resources: { 'agent.assistant': { type: 'agent' } } });
    await expect(api.showState('tool.nope', { cwd: dir, env })).rejects.toMatchObject({ code: 'usage' });
  });
});

describe('kbStatus and waitForIndexing', () => {
  it('report a website by URL after an apply, and wait for its indexing to finish', async () => {
    await project(`${MANIFEST}knowledgeBase:
  websites:
    docs: { url: "${emu.origin}/__emulator/sites/docs/", maxPages: 5 }
`);
    await api.apply({ cwd: dir, env });
    const waited = await api.waitForIndexing({ cwd: dir, env, pollMs: 20, timeoutMs: 20_000 });
    expect(waited.timedOut).toBe(false);
    expect(waited.counts.remaining).toBe(0);
    expect(waited.counts.processed).toBeGreaterThan(0);
    const status = await api.kbStatus({ cwd: dir, env });
    expect(status).toHaveLength(1);
    expect(status[0]).toMatchObject({ address: 'website.docs', found: true });
    expect(status[0]!.counts.processed).toBe(waited.counts.processed);
    // When it was last crawled (its newest page) and synced (the knowledge-base list's lastSynced).
    const iso = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;
    expect(status[0]!.lastCrawledAt).toMatch(iso);
    expect(status[0]!.lastSyncedAt).toMatch(iso);
    const text = await runCli(['kb', 'status'], { cwd: dir, env });
    expect(text.stdout).toContain(`  last crawled ${status[0]!.lastCrawledAt}, last synced ${status[0]!.lastSyncedAt}`);
    const json = JSON.parse((await runCli(['kb', 'status', '--json'], { cwd: dir, env })).stdout) as { websites: { lastCrawledAt?: string; lastSyncedAt?: string }[] };
    expect(json.websites[0]).toMatchObject({ lastCrawledAt: status[0]!.lastCrawledAt, lastSyncedAt: status[0]!.lastSyncedAt });
    await emu.clearRequests();
    const none = await api.kbSync({ cwd: dir, env, failed: true });
    expect(none).toEqual([expect.objectContaining({ address: 'website.docs', mode: 'urls', urls: 0, calls: 0 })]);
    const all = await api.kbSync({ cwd: dir, env, addresses: ['website.docs'] });
    expect(all).toEqual([expect.objectContaining({ urls: waited.counts.processed, calls: 1 })]);
    expect((await emu.apiRequests('PATCH')).map((entry) => entry.path)).toEqual([expect.stringMatching(/\/discovered-urls\/sync$/)]);
    // The server loses the website: kbSync throws a UserError naming which failed and which synced.
    const websiteId = (JSON.parse(await readFile(join(dir, '.agentsync', 'local.state.json'), 'utf8')) as { resources: Record<string, { remoteId: string }> }).resources['website.docs']?.remoteId;
    expect((await emu.call('DELETE', `/ai-agents/agent-builder/knowledge-base/website/${websiteId}`)).status).toBe(200);
    const lost = await api.kbSync({ cwd: dir, env }).then(
      () => undefined,
      (err: unknown) => err,
    );
    expect(api.isUserError(lost)).toBe(true);
    expect(lost).toMatchObject({ code: 'api_error', details: { failed: ['website.docs'], synced: [] } });
  });
});

describe('lint', () => {
  it('gives the rules’ findings and the errors validate reports, as `agentsync lint` does', async () => {
    await project(MANIFEST.replace("description: Today's weather", 'description: Weather').replace('actions: [weather]', 'actions: [weather, forecast]'));
    const result = await api.lint({ cwd: dir, env });
    expect(result.passed).toBe(false);
    expect(result.findings.map(({ rule, severity, line, column }) => ({ rule, severity, line, column }))).toEqual([
      { rule: 'short-tool-description', severity: 'warning', line: 5, column: 79 },
      { rule: 'missing-instruction', severity: 'warning', line: 7, column: 3 },
      { rule: 'invalid', severity: 'error', line: 7, column: 91 },
    ]);
    const cli = await runCli(['lint', '--json'], { cwd: dir, env });
    expect((JSON.parse(cli.stdout) as { findings: unknown[] }).findings).toEqual(
      result.findings.map(({ rule, severity, file, line, column, path, message }) => ({ rule, severity, file, line, column, path, message })),
    );
    await project();
    expect(await api.lint({ cwd: dir, env })).toMatchObject({ passed: true });
  });
});

describe('many calls at once', () => {
  it('twelve applies at once, each holding its own state lock, make Node print no warning', async () => {
    const warnings: Error[] = [];
    const onWarning = (warning: Error): void => void warnings.push(warning);
    process.on('warning', onWarning);
    try {
      const folders = await Promise.all(
        Array.from({ length: 12 }, async (_, i) => {
          const folder = join(dir, `project${i}`);
          await mkdir(folder);
          await writeFile(
            join(folder, 'agents.yaml'),
            `version: 1\nenvironments:\n  local: { appId: local, region: us }\ntools:\n  tool_${i}: { displayName: T${i}, executionText: x, doNotExecute: true }\n`,
          );
          return folder;
        }),
      );
      const outcomes = await Promise.all(folders.map((folder) => api.apply({ cwd: folder, env })));
      expect(outcomes.map((o) => o.result.counts.created)).toEqual(Array.from({ length: 12 }, () => 1));
      // Node emits a warning on a later tick: let it arrive before looking.
      await new Promise((resolve) => setImmediate(resolve));
      expect(warnings.map((w) => `${w.name}: ${w.message}`)).toEqual([]);
    } finally {
      process.off('warning', onWarning);
    }
  });
});

describe('secrets belong to one call', () => {
  it("two runMain calls in one process, at the same time, with different secrets, never print each other's", async () => {
    const manifest = `version: 1
environments:
  local: { appId: local, region: us }
agents:
  helper: { name: Helper, integrationType: llm, integrateWith: gpt-4o, instruction: "\${secret:TOKEN}" }
`;
    const a = await mkdtemp(join(tmpdir(), 'agentsync-secret-a-'));
    const b = await mkdtemp(join(tmpdir(), 'agentsync-secret-b-'));
    try {
      await writeFile(join(a, 'agents.yaml'), manifest);
      await writeFile(join(b, 'agents.yaml'), manifest);
      // Each run's base URL holds its secret in the path, which the emulator's 404 echoes back.
      const run = (folder: string, secret: string) => runCli(['plan', '--json'], { cwd: folder, env: { COMETCHAT_API_KEY: API_KEY, TOKEN: secret, AGENTSYNC_BASE_URL: `${emu.origin}/${secret}/v3` } });
      const [ra, rb] = await Promise.all([run(a, 'alpha-secret-1111'), run(b, 'bravo-secret-2222')]);
      for (const [result, own] of [
        [ra, 'alpha-secret-1111'],
        [rb, 'bravo-secret-2222'],
      ] as const) {
        expect(result.code).toBe(1);
        expect(result.stderr).toContain('/(sensitive)/v3');
        expect(result.stdout + result.stderr).not.toContain(own);
      }
      expect(ra.stdout + ra.stderr).not.toContain('bravo-secret-2222');
      expect(rb.stdout + rb.stderr).not.toContain('alpha-secret-1111');
    } finally {
      await rm(a, { recursive: true, force: true });
      await rm(b, { recursive: true, force: true });
    }
  });

  it('an error the library throws is scrubbed with the secrets that call resolved', async () => {
    await project(`version: 1
environments:
  local: { appId: local, region: us }
agents:
  helper: { name: Helper, integrationType: llm, integrateWith: gpt-4o, instruction: "\${secret:TOKEN}" }
`);
    // The base URL holds the secret in its path, which the emulator's 404 echoes back.
    const failing = { ...env, TOKEN: 'charlie-secret-3333', AGENTSYNC_BASE_URL: `${emu.origin}/charlie-secret-3333/v3` };
    const error = await api.plan({ cwd: dir, env: failing }).then(
      () => undefined,
      (err: unknown) => err,
    );
    expect(error).toBeInstanceOf(Error);
    expect(String((error as Error).message)).toContain('/(sensitive)/v3');
    expect(String((error as Error).message)).not.toContain('charlie-secret-3333');
  });
});

describe('the guards of issue 40', () => {
  it('refuses a manifest location that is ambiguous, as the CLI does', async () => {
    const { mkdir } = await import('node:fs/promises');
    await project();
    await mkdir(join(dir, 'agents'));
    await expect(api.validate({ cwd: dir, env })).rejects.toMatchObject({ code: 'usage', message: expect.stringContaining('both agents.yaml and an agents/ folder are here') });
    expect(await api.validate({ cwd: dir, env, file: 'agents.yaml' })).toMatchObject({ valid: true });
  });

  it('apply refuses a mass deletion without allowMassDelete, and plan reports it', async () => {
    const tools = ['a', 'b', 'c'].map((name) => `  ${name}: { displayName: ${name}, executionText: Working, description: "does ${name} for a customer", parameters: {} }`);
    await project(`version: 1\nenvironments:\n  local: { appId: local, region: us }\ntools:\n${tools.join('\n')}\n`);
    expect((await api.apply({ cwd: dir, env })).result.counts.created).toBe(3);
    await project('version: 1\nenvironments:\n  local: { appId: local, region: us }\n');
    expect((await api.plan({ cwd: dir, env })).massRemoval).toEqual({ removed: 3, deleted: 0, managed: 3 });
    // A plan the CLI saved with --prune, applied by the library (its own prune is test/app/library-parity.test.ts).
    expect((await runCli(['plan', '--prune', '--out', 'plan.json'], { cwd: dir, env })).code).toBe(0);
    await emu.clearRequests();
    const refused = api.applySavedPlan({ planFile: 'plan.json', cwd: dir, env, confirm: () => true });
    await expect(refused).rejects.toBeInstanceOf(api.UserError);
    await expect(refused).rejects.toMatchObject({ code: 'refused', message: expect.stringContaining('pass allowMassDelete: true if the deletions are meant') });
    expect(await emu.apiWrites()).toEqual([]);
    const allowed = await api.applySavedPlan({ planFile: 'plan.json', cwd: dir, env, allowMassDelete: true });
    expect(allowed.result.counts.deleted).toBe(3);
  });
});
