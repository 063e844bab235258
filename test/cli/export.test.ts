// `agentsync export` through the built CLI against the emulator, in both reference modes: the round
// trip export → import → plan is "No changes" for the demo data set and for a generated app of
// 1,000 resources; the file validates, is deterministic, and never holds a secret value.
import { readFile, rm, writeFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { headerSecret } from '../../bench/generate-app.mjs';
import { DEMO_MANIFEST, DEMO_SECRET, MODES, openLab, writesOf, type Lab } from './lifecycle-fixture.js';

/** A time set on purpose: the export must not depend on it (no timestamp in the file). */
const EPOCH = { SOURCE_DATE_EPOCH: '1735689600', TZ: 'Asia/Tokyo' };

/** A manifest that only names the environment: all export needs from it. */
const envOnly = (appId = 'local'): string => `version: 1\nenvironments:\n  local: { appId: ${appId}, region: us }\n`;

describe.each(MODES)('agentsync export ($name)', (mode) => {
  let lab: Lab;
  beforeAll(async () => {
    lab = await openLab();
  });
  afterAll(() => lab.close());

  it('round-trips the demo data set: export, import, plan shows no changes; the file validates and holds no secret', async () => {
    const emu = await lab.emulator({ putCreates: mode.putCreates });
    const secretEnv = { RETURNS_TOKEN: DEMO_SECRET };
    const applied = await lab.cli(emu, ['apply', '--auto-approve', '-f', DEMO_MANIFEST, '--state', lab.path(`demo-${mode.putCreates}.json`)], secretEnv);
    expect(applied.code, applied.stderr).toBe(0);
    await writeFile(lab.path('env.yaml'), envOnly());

    const exported = await lab.cli(emu, ['export', '-f', 'env.yaml', '--out', `demo-${mode.putCreates}.yaml`], EPOCH);
    expect(exported.code, exported.stderr).toBe(0);
    expect(exported.stdout).toBe(`Exported 6 tools and 3 agents to demo-${mode.putCreates}.yaml.\n`);
    expect(exported.stderr).toContain('AGENT_RETURNS_DESK_HEADERS_AUTHORIZATION');
    const text = await readFile(lab.path(`demo-${mode.putCreates}.yaml`), 'utf8');
    // No agentsync.schema.json beside the export, so no editor comment points at one.
    expect(text.split('\n').slice(0, 1)).toEqual(['# Exported by agentsync 0.1.0 from app "local" (region us, environment "local").']);
    expect(text).not.toContain('s3cr3t');
    // With the schema beside it (agentsync init writes one), the editor comment points at it.
    await writeFile(lab.path('agentsync.schema.json'), '{}');
    const besideSchema = await lab.cli(emu, ['export', '-f', 'env.yaml'], EPOCH);
    expect(besideSchema.stdout.split('\n')[0]).toBe('# yaml-language-server: $schema=./agentsync.schema.json');
    await rm(lab.path('agentsync.schema.json'));
    expect(text).toContain('Authorization: ${secret:AGENT_RETURNS_DESK_HEADERS_AUTHORIZATION}');
    expect(text).toContain('#   AGENT_RETURNS_DESK_HEADERS_AUTHORIZATION  agent.returns_desk integrationMeta.headers.Authorization');
    // Agents keep their tools and actions; the seed's unmanaged search_web is a tool like any other.
    // Keys in the reference's order (CreateAgentDTO): name, …, integrateWith, integrationType, …, actions, tools.
    expect(text).toContain(
      '  acme_local_support:\n    name: Acme (local) support\n    integrateWith: gpt-4o-mini\n    integrationType: llm\n    actions: [create_ticket, get_order_status, search_faq]\n    tools: [show_product_card]',
    );
    expect(text).toContain('  search_web:\n');

    // Deterministic: a second export (to stdout) gives the same bytes.
    const again = await lab.cli(emu, ['export', '-f', 'env.yaml'], EPOCH);
    expect(again.code).toBe(0);
    expect(again.stdout).toBe(text);

    const exportEnv = { AGENT_RETURNS_DESK_HEADERS_AUTHORIZATION: DEMO_SECRET };
    const file = `demo-${mode.putCreates}.yaml`;
    const valid = await lab.cli(undefined, ['validate', '-f', file], exportEnv);
    expect(valid).toMatchObject({ code: 0, stderr: '' });
    await emu.requests().then(() => fetch(`${emu.origin}/__emulator/requests`, { method: 'DELETE' }));
    const imported = await lab.cli(emu, ['import', '-f', file], exportEnv);
    expect(imported.code, imported.stderr).toBe(0);
    expect(imported.stdout.trimEnd().split('\n').at(-1)).toBe('Imported 9 resources.');
    const plan = await lab.cli(emu, ['plan', '-f', file, '--detailed-exitcode'], exportEnv);
    expect(plan.code, plan.stdout).toBe(0);
    expect(plan.stdout.trimEnd().split('\n').at(-1)).toBe('No changes. Environment "local" matches the manifest.');
    expect(plan.stdout).not.toContain('Changed outside agentsync');
    // Export, import and plan only read.
    expect(await writesOf(emu)).toEqual([]);
    const state = await readFile(lab.path('.agentsync/local.state.json'), 'utf8');
    expect(state).not.toContain('s3cr3t');
  });

  it('round-trips a generated app of 1,000 resources', async () => {
    const emu = await lab.emulator({ putCreates: mode.putCreates, app: 1000 });
    await writeFile(lab.path('big-env.yaml'), envOnly());
    const exported = await lab.cli(emu, ['export', '-f', 'big-env.yaml', '--out', 'big.yaml', '--force']);
    expect(exported.code, exported.stderr).toBe(0);
    expect(exported.stdout).toBe('Exported 900 tools and 100 agents to big.yaml.\n');
    const text = await readFile(lab.path('big.yaml'), 'utf8');
    // Every tenth agent holds a secret header; each becomes a variable named after the agent's slug.
    const secrets: Record<string, string> = {};
    for (let i = 10; i <= 100; i += 10) secrets[`AGENT_ASSISTANT_${String(i).padStart(5, '0')}_HEADERS_AUTHORIZATION`] = headerSecret(i);
    for (const [name, value] of Object.entries(secrets)) {
      expect(text).toContain(`\${secret:${name}}`);
      expect(text).not.toContain(value);
    }
    const state = ['--state', lab.path(`big-${mode.putCreates}.json`)];
    const valid = await lab.cli(undefined, ['validate', '-f', 'big.yaml'], secrets);
    expect(valid).toMatchObject({ code: 0, stderr: '' });
    const imported = await lab.cli(emu, ['import', '-f', 'big.yaml', ...state], secrets);
    expect(imported.code, imported.stderr).toBe(0);
    expect(imported.stdout.trimEnd().split('\n').at(-1)).toBe('Imported 1000 resources.');
    const plan = await lab.cli(emu, ['plan', '-f', 'big.yaml', '--json', ...state], secrets);
    expect(plan.code, plan.stderr).toBe(0);
    expect((JSON.parse(plan.stdout) as { summary: unknown }).summary).toEqual({ create: 0, update: 0, replace: 0, delete: 0, forget: 0, noop: 1000 });
  });

  it('lets agents that share a name be imported by uid, as its closing comment says', async () => {
    const emu = await lab.emulator({ putCreates: mode.putCreates });
    const body = { name: 'Twin', integrationType: 'llm', integrateWith: 'gpt-4o', isActive: true, tools: [], actions: [] };
    for (let i = 0; i < 2; i++) {
      const res = await fetch(`${emu.url}/ai-agents/agents`, { method: 'POST', headers: { apikey: 'test-key-5f1c9a7e2b', 'content-type': 'application/json' }, body: JSON.stringify(body) });
      expect(res.ok).toBe(true);
    }
    await writeFile(lab.path('twin-env.yaml'), envOnly());
    const exported = await lab.cli(emu, ['export', '-f', 'twin-env.yaml', '--out', 'twins.yaml', '--force']);
    expect(exported.code, exported.stderr).toBe(0);
    const text = await readFile(lab.path('twins.yaml'), 'utf8');
    const commands = [...text.matchAll(/^# {3}agentsync import (agent\.\S+) (\S+)$/gm)].map((m): [string, string] => [m[1] ?? '', m[2] ?? '']);
    expect(commands.map(([address]) => address)).toEqual(['agent.twin', 'agent.twin_2']);
    const state = ['--state', lab.path(`twins-${mode.putCreates}.json`)];
    for (const [address, uid] of commands) expect((await lab.cli(emu, ['import', '-f', 'twins.yaml', address, uid, ...state])).code).toBe(0);
    expect((await lab.cli(emu, ['import', '-f', 'twins.yaml', ...state])).code).toBe(0);
    const plan = await lab.cli(emu, ['plan', '-f', 'twins.yaml', '--detailed-exitcode', ...state]);
    expect(plan.code, plan.stdout).toBe(0);
  });
});

describe('agentsync export --out', () => {
  let lab: Lab;
  beforeAll(async () => {
    lab = await openLab();
  });
  afterAll(() => lab.close());

  it('refuses to overwrite without --force, before reading the server; --force replaces the file', async () => {
    const emu = await lab.emulator();
    await writeFile(lab.path('agents.yaml'), envOnly());
    await writeFile(lab.path('taken.yaml'), 'keep me\n');
    await fetch(`${emu.origin}/__emulator/requests`, { method: 'DELETE' });
    const refused = await lab.cli(emu, ['export', '--out', 'taken.yaml']);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toBe('Error: taken.yaml already exists; export does not overwrite it (pass --force to replace it)\n');
    expect(await readFile(lab.path('taken.yaml'), 'utf8')).toBe('keep me\n');
    expect(await emu.apiRequests()).toEqual([]);
    const forced = await lab.cli(emu, ['export', '--out', 'taken.yaml', '--force']);
    expect(forced.code, forced.stderr).toBe(0);
    expect(await readFile(lab.path('taken.yaml'), 'utf8')).toContain('search_web:');
  });

  it('--json says what was exported and which secrets it needs; the YAML is under `manifest` without --out', async () => {
    const emu = await lab.emulator();
    await writeFile(lab.path('agents.yaml'), envOnly());
    const result = await lab.cli(emu, ['export', '--json']);
    expect(result.code, result.stderr).toBe(0);
    const json = JSON.parse(result.stdout) as { out: null; counts: object; secrets: string[]; manifest: string };
    expect(json).toMatchObject({ out: null, counts: { tool: 1, agent: 0 }, secrets: [] });
    expect(json.manifest).not.toMatch(/\d{4}-\d\d-\d\dT/);
    expect(json.manifest).toContain('  search_web:\n');
  });

  it('needs the API key, said in one line', async () => {
    const emu = await lab.emulator();
    await writeFile(lab.path('agents.yaml'), envOnly());
    const noKey = await lab.cli(emu, ['export'], { COMETCHAT_API_KEY: '' });
    expect(noKey.code).toBe(1);
    expect(noKey.stderr).toMatch(/^Error: the API key is missing: set COMETCHAT_API_KEY/);
  });

  it("writes the environment's non-default base URL and key variable, not the AGENTSYNC_BASE_URL override", async () => {
    const emu = await lab.emulator();
    await writeFile(lab.path('custom.yaml'), 'version: 1\nenvironments:\n  eu:\n    appId: acme-eu\n    region: eu\n    baseUrl: https://eu.example.com/v3\n    apiKeyEnv: EU_KEY\n');
    const exported = await lab.cli(emu, ['export', '-f', 'custom.yaml', '-e', 'eu'], { EU_KEY: 'test-key-5f1c9a7e2b' });
    expect(exported.code, exported.stderr).toBe(0);
    expect(exported.stdout).toContain('environments:\n  eu:\n    apiKeyEnv: EU_KEY\n    appId: acme-eu\n    baseUrl: https://eu.example.com/v3\n    region: eu\n');
    expect(exported.stdout).not.toContain(emu.url);
  });
});
