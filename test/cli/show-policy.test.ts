// A saved plan after a real apply against the emulator: `agentsync show` renders it offline, and
// its JSON carries each change's whole before/after record in the shape examples/policy reads.
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestEmulator } from '../support/emulator.js';
import { runCli } from '../support/cli.js';
import { openLab, type Lab } from './lifecycle-fixture.js';

const SECRET = 'Bearer s3cr3t-' + 'policy-token-value';
const ROOT = join(import.meta.dirname, '..', '..');

const manifest = (model: string, description: string) => `version: 1
environments:
  local: { appId: local, region: us }
tools:
  lookup_order:
    displayName: Lookup order
    executionText: Looking up the order
    description: ${description}
    parameters: {}
agents:
  support:
    name: Support
    integrationType: agent
    integrateWith: ${model}
    instruction: Help with orders.
    actions: [lookup_order]
    integrationMeta:
      baseUrl: https://agent.example.com
      headers: { Authorization: "\${secret:TOKEN}" }
`;

interface ChangeJson {
  address: string;
  type: string;
  action: string;
  before?: Record<string, unknown>;
  after?: Record<string, unknown>;
}

let lab: Lab;
let emu: TestEmulator;
let planText: string;
beforeAll(async () => {
  lab = await openLab();
  emu = await lab.emulator();
  await writeFile(lab.path('agents.yaml'), manifest('gpt-4o-mini', 'Finds an order by its number and returns its status'));
  const applied = await lab.cli(emu, ['apply', '--auto-approve'], { TOKEN: SECRET });
  expect(applied.code, applied.stderr).toBe(0);
  await writeFile(lab.path('agents.yaml'), manifest('gpt-4o', 'Finds orders'));
  const planned = await lab.cli(emu, ['plan', '--out', 'plan.json'], { TOKEN: SECRET });
  expect(planned.code, planned.stderr).toBe(0);
  planText = await readFile(lab.path('plan.json'), 'utf8');
});
afterAll(() => lab.close());

/** `show` gets no API key, no base URL and no secret: it must need none of them. */
const show = (args: string[]) => runCli(['show', ...args], { cwd: lab.dir });

describe.concurrent('agentsync show PLANFILE', () => {
  it('renders the saved plan as text, offline, with where it applies and how to apply it', async () => {
    const result = await show(['plan.json']);
    expect(result.code, result.stderr).toBe(0);
    const lines = result.stdout.split('\n');
    expect(lines[0]).toMatch(/^Saved plan plan\.json \(made \d{4}-\d\d-\d\dT[\d:.]+Z by agentsync [\w.-]+\)\. Apply exactly it with: agentsync apply plan\.json$/);
    expect(result.stdout).toContain(`Target: environment "local" (app local, region us) at ${emu.url}`);
    expect(result.stdout).toContain('  ~ agent.support');
    expect(result.stdout).toContain('      ~ integrateWith: "gpt-4o-mini" → "gpt-4o"');
    expect(result.stdout).toContain('      ~ description: "Finds an order by its number and returns its status" → "Finds orders"');
    expect(lines.at(-2)).toBe('Plan: 0 to create, 2 to update, 0 to forget.');
    expect(result.stdout).not.toContain(SECRET);
  });

  it('renders markdown, and --json prints the plan without the saved-plan proof', async () => {
    const markdown = await show(['plan.json', '--format', 'markdown']);
    expect(markdown.code).toBe(0);
    expect(markdown.stdout).toMatch(/^### agentsync plan for environment `local`/);
    expect(markdown.stdout).toContain('<details><summary><code>~ agent.support</code>');
    for (const args of [['--json'], ['--format', 'json']]) {
      const json = await show(['plan.json', ...args]);
      expect(json.code).toBe(0);
      const parsed = JSON.parse(json.stdout) as Record<string, unknown>;
      const { savedPlan: _proof, ...plan } = JSON.parse(planText) as Record<string, unknown>;
      expect(parsed).toEqual(plan);
    }
  });

  it('refuses a missing, edited or foreign file in one line, exit 1', async () => {
    await writeFile(lab.path('edited.json'), planText.replace('"gpt-4o"', '"gpt-5"'));
    await writeFile(lab.path('rendered.md'), '### agentsync plan\n');
    for (const [file, message] of [
      ['missing.json', /^Error: cannot read plan file missing\.json: no such file\n$/],
      ['edited.json', /^Error: plan file edited\.json was modified after it was written/],
      ['rendered.md', /^Error: rendered\.md is not a plan file agentsync can apply/],
    ] as const) {
      const result = await show([file]);
      expect(result.code).toBe(1);
      expect(result.stderr).toMatch(message);
      expect(result.stderr.trim().split('\n')).toHaveLength(1);
    }
  });
});

describe('policy-ready JSON (examples/policy)', () => {
  const changes = (): ChangeJson[] => (JSON.parse(planText) as { changes: ChangeJson[] }).changes;

  it('each change carries its whole before and after record, secrets as (sensitive), never a digest', () => {
    const agent = changes().find((c) => c.address === 'agent.support');
    expect(agent).toMatchObject({ action: 'update', before: { integrateWith: 'gpt-4o-mini', name: 'Support' }, after: { integrateWith: 'gpt-4o', instruction: 'Help with orders.' } });
    expect(agent?.after?.integrationMeta).toEqual({ baseUrl: 'https://agent.example.com', headers: '(sensitive)' });
    expect(agent?.before?.integrationMeta).toEqual({ baseUrl: 'https://agent.example.com', headers: '(sensitive)' });
    const tool = changes().find((c) => c.address === 'tool.lookup_order');
    expect(tool).toMatchObject({ action: 'update', before: { description: 'Finds an order by its number and returns its status' }, after: { description: 'Finds orders', doNotExecute: false } });
    const records = JSON.stringify(changes());
    expect(records).not.toContain(SECRET);
    expect(records).not.toMatch(/scrypt:|hmac-sha256:/);
  });

  it('every field the policy reads exists in the plan it is written for', async () => {
    const rego = await readFile(join(ROOT, 'examples', 'policy', 'agentsync.rego'), 'utf8');
    const read = [...new Set([...rego.matchAll(/change\.((?:before|after)(?:\.[A-Za-z]+)+)/g)].map((m) => m[1] ?? ''))].sort();
    expect(read).toEqual(['after.description', 'after.doNotExecute', 'after.integrateWith', 'after.integrationMeta.baseUrl', 'after.integrationMeta.headers', 'before.integrateWith']);
    for (const path of read) {
      const found = changes().some((change) => path.split('.').reduce<unknown>((node, key) => (node as Record<string, unknown> | undefined)?.[key], change) !== undefined);
      expect(found, path).toBe(true);
    }
    for (const top of ['address', 'type', 'action']) expect(rego).toContain(`change.${top}`);
    expect(rego).toContain('some change in input.changes');
    // The policy's own verdicts on this plan, reading the same fields: a short description, a model change.
    const tool = changes().find((c) => c.type === 'tool');
    expect(String(tool?.after?.description).length).toBeLessThan(20);
    const agent = changes().find((c) => c.type === 'agent');
    expect(agent?.before?.integrateWith).not.toBe(agent?.after?.integrateWith);
  });
});
