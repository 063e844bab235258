// `agentsync plan` through the built CLI, against a state made by a real apply to the emulator.
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestEmulator, API_KEY, type TestEmulator } from '../support/emulator.js';
import { runCli } from '../support/cli.js';

const MANIFEST = `version: 1
environments:
  local: { appId: local, region: us }
tools:
  get_weather:
    displayName: Get weather
    executionText: Checking the weather
    description: Current weather for a city
    parameters:
      type: object
      properties:
        city: { type: string, description: City name }
        units: { type: string, description: Units, enum: [metric, imperial] }
      required: [city, units]
  lookup:
    displayName: Lookup
    executionText: Looking up
    description: Finds things
    parameters: {}
agents:
  support:
    name: Support
    integrationType: llm
    integrateWith: gpt-4o
    actions: [get_weather, lookup]
    instruction: |
      Be kind.
      Be brief.
`;

/** The same manifest, reformatted: flow style, reordered keys and sets, defaults written out. */
const REFORMATTED = `version: 1
environments: { local: { region: us, appId: local } }
agents:
  support: { actions: [lookup, get_weather], isActive: true, tools: [], integrateWith: gpt-4o, integrationType: llm, name: Support, instruction: "Be kind.\\nBe brief.\\n" }
tools:
  lookup: { parameters: {}, description: Finds things, executionText: Looking up, displayName: Lookup, doNotExecute: false }
  get_weather:
    parameters:
      required: [units, city]
      properties:
        units: { enum: [metric, imperial], description: Units, type: string }
        city: { description: City name, type: string }
      type: object
    description: Current weather for a city
    executionText: Checking the weather
    displayName: Get weather
`;

let emu: TestEmulator;
let dir: string;
let env: NodeJS.ProcessEnv;
const plan = (...args: string[]) => runCli(['plan', ...args], { cwd: dir, env });

beforeAll(async () => {
  emu = await startTestEmulator();
  dir = await mkdtemp(join(tmpdir(), 'agentsync-plan-'));
  env = { COMETCHAT_API_KEY: API_KEY, AGENTSYNC_BASE_URL: emu.url };
  await writeFile(join(dir, 'agents.yaml'), MANIFEST);
  const applied = await runCli(['apply', '--auto-approve'], { cwd: dir, env });
  expect(applied.code).toBe(0);
});
afterAll(async () => {
  await emu.close();
  await rm(dir, { recursive: true, force: true });
});

describe('agentsync plan', () => {
  it('shows no changes right after an apply, and exits 0 with --detailed-exitcode', async () => {
    const result = await plan('--detailed-exitcode');
    expect(result.code).toBe(0);
    expect(result.stdout.trimEnd().split('\n').at(-1)).toBe('No changes. Environment "local" matches the manifest.');
  });

  it('shows no changes for a reformatted manifest with reordered keys, sets and explicit defaults', async () => {
    await writeFile(join(dir, 'agents.yaml'), REFORMATTED);
    const result = await plan('--detailed-exitcode');
    await writeFile(join(dir, 'agents.yaml'), MANIFEST);
    expect(result.stdout).toContain('No changes.');
    expect(result.code).toBe(0);
  });

  it('shows exactly the one edited field, in text and JSON, and exits 2 with --detailed-exitcode', async () => {
    await writeFile(join(dir, 'agents.yaml'), MANIFEST.replace('Current weather for a city', 'Weather now, for a city'));
    const text = await plan('--detailed-exitcode');
    expect(text.code).toBe(2);
    expect(text.stdout).toContain('~ tool.get_weather');
    expect(text.stdout).toContain('"Current weather for a city"');
    expect(text.stdout).toContain('"Weather now, for a city"');
    expect(text.stdout).not.toMatch(/tool\.lookup|agent\.support/);
    expect(text.stdout.trimEnd().split('\n').at(-1)).toBe('Plan: 0 to create, 1 to update, 0 to forget.');

    const json = await plan('--json');
    expect(json.code).toBe(0);
    const parsed = JSON.parse(json.stdout) as { formatVersion: number; changes: { address: string; action: string; fields: unknown[] }[]; summary: unknown };
    expect(parsed.formatVersion).toBe(1);
    expect(parsed.summary).toEqual({ create: 0, update: 1, replace: 0, delete: 0, forget: 0, noop: 2 });
    const changed = parsed.changes.filter((c) => c.action !== 'no-op');
    expect(changed).toEqual([
      expect.objectContaining({ address: 'tool.get_weather', action: 'update', fields: [{ path: 'description', before: 'Current weather for a city', after: 'Weather now, for a city' }] }),
    ]);
    await writeFile(join(dir, 'agents.yaml'), MANIFEST);
  });

  it('shows an instruction edit as a line diff, and a removed resource as forget', async () => {
    const edited = MANIFEST.replace('      Be brief.\n', '      Be very brief.\n')
      .replace(/ {2}lookup:\n( {4}.*\n){4}/, '')
      .replace('[get_weather, lookup]', '[get_weather]');
    await writeFile(join(dir, 'agents.yaml'), edited);
    const result = await plan();
    await writeFile(join(dir, 'agents.yaml'), MANIFEST);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/- +Be brief\./);
    expect(result.stdout).toMatch(/\+ +Be very brief\./);
    expect(result.stdout).toContain('- tool.lookup');
    expect(result.stdout).toContain('Plan: 0 to create, 1 to update, 1 to forget.');
  });

  it('writes markdown for pull requests', async () => {
    await writeFile(join(dir, 'agents.yaml'), MANIFEST.replace('name: Support', 'name: Helpdesk'));
    const result = await plan('--format', 'markdown');
    await writeFile(join(dir, 'agents.yaml'), MANIFEST);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/update in-place \| 1 \|/);
    expect(result.stdout).toContain('<details>');
    expect(result.stdout).toContain('agent.support');
  });

  it('saves a plan with --out that is the JSON plan plus its basis', async () => {
    const out = join(dir, 'saved.plan.json');
    const result = await plan('--out', out);
    expect(result.code).toBe(0);
    type Saved = { formatVersion: number; environment: string; changes: unknown[]; summary: unknown; savedPlan: { kind: string; basis: { lineage: string; serial: number }; manifestDigest: string } };
    const saved = JSON.parse(await readFile(out, 'utf8')) as Saved;
    // The file is the contract's JSON plan, plus one key of its own.
    const asJson = JSON.parse((await plan('--json')).stdout) as Record<string, unknown>;
    const { savedPlan, ...rest } = saved;
    expect(rest).toEqual(asJson);
    expect(saved.formatVersion).toBe(1);
    expect(savedPlan.kind).toBe('agentsync-plan');
    expect(savedPlan.basis.lineage).toMatch(/^[0-9a-f-]{36}$/);
    expect(savedPlan.manifestDigest).toMatch(/^sha256:[0-9a-f]{64}$/);
  });

  it('rejects an unknown --format with one line and exit 1', async () => {
    const result = await plan('--format', 'yaml');
    expect(result.code).toBe(1);
    expect(result.stderr).toBe('Error: --format must be one of text, json, markdown (got "yaml")\n');
  });

  it('with --offline, needs no API key and opens no connection', async () => {
    await fetch(`${emu.origin}/__emulator/requests`, { method: 'DELETE' });
    const result = await runCli(['plan', '--offline'], { cwd: dir, env: { AGENTSYNC_BASE_URL: emu.url } });
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('No changes.');
    expect(await emu.requests()).toEqual([]);
  });

  it('without --offline, reads the server with two list calls and says how to skip that when the key is missing', async () => {
    await fetch(`${emu.origin}/__emulator/requests`, { method: 'DELETE' });
    const noKey = await runCli(['plan'], { cwd: dir, env: { AGENTSYNC_BASE_URL: emu.url } });
    expect(noKey.code).toBe(1);
    expect(noKey.stderr).toMatch(/^Error: the API key is missing: set COMETCHAT_API_KEY .*--offline/);
    expect(await emu.requests()).toEqual([]);
    const result = await plan();
    expect(result.code).toBe(0);
    expect((await emu.apiRequests()).map((r) => `${r.method} ${r.path}`).sort()).toEqual(['GET /v3/ai-agents/agents', 'GET /v3/ai-agents/tools']);
  });

  it('reports an invalid manifest with file:line:col and changes nothing', async () => {
    const before = await readFile(join(dir, '.agentsync', 'local.state.json'));
    await writeFile(join(dir, 'agents.yaml'), MANIFEST.replace('    displayName: Lookup\n', '    displayname: Lookup\n'));
    const result = await plan();
    await writeFile(join(dir, 'agents.yaml'), MANIFEST);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/agents\.yaml:16:5: error: unknown key "displayname"; did you mean "displayName"\?/);
    expect(result.stderr).not.toMatch(/\n\s+at /);
    expect(await readFile(join(dir, '.agentsync', 'local.state.json'))).toEqual(before);
  });
});
