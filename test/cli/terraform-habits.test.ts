// Terraform habits through the built CLI: a single-dash long flag gets "did you mean --flag?", and
// --var / --var-file override the environment's vars for plan, apply and validate.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../support/cli.js';

const MANIFEST = `version: 1
environments:
  prod: { appId: acme, region: eu, vars: { model: gpt-4o-mini } }
  staging: { appId: acme-stg, region: eu, vars: { model: gpt-4o-mini } }
agents:
  support: { name: Support, integrationType: llm, integrateWith: "\${var.model}", instruction: Hi }
`;
const NEEDS_VAR = `version: 1
environments:
  prod: { appId: acme, region: eu }
agents:
  support: { name: Support, integrationType: llm, integrateWith: "\${var.model}" }
`;

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'agentsync-tf-'));
  writeFileSync(join(dir, 'agents.yaml'), MANIFEST);
  writeFileSync(join(dir, 'needs-var.yaml'), NEEDS_VAR);
  writeFileSync(join(dir, 'prod.vars.yaml'), 'model: from-file\n');
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const cli = (args: string[], env: NodeJS.ProcessEnv = {}) => runCli(args, { cwd: dir, env });
/** The model an offline plan would give agent.support. */
async function plannedModel(args: string[]): Promise<unknown> {
  const result = await cli(['plan', '-e', 'prod', '--offline', '--json', '--state', 'none.json', ...args]);
  expect(result.code, result.stderr).toBe(0);
  const plan = JSON.parse(result.stdout) as { changes: { address: string; after?: { integrateWith?: unknown } }[] };
  return plan.changes.find((c) => c.address === 'agent.support')?.after?.integrateWith;
}

describe.concurrent('single-dash long flags', () => {
  it.each([
    [['plan', '-auto-approve'], '-auto-approve', '--auto-approve'],
    [['apply', '-auto-approve'], '-auto-approve', '--auto-approve'],
    [['plan', '-target', 'agent.support'], '-target', '--target'],
    [['plan', '-target=agent.support'], '-target', '--target=agent.support'],
    [['plan', '-var', 'model=x'], '-var', '--var'],
    [['plan', '-out=plan.json'], '-out', '--out=plan.json'],
    [['plan', '-detailed-exitcode'], '-detailed-exitcode', '--detailed-exitcode'],
    [['validate', '-var-file', 'x.yaml'], '-var-file', '--var-file'],
  ])('%j gets one line with the flag meant, exit 1', async (args, flag, meant) => {
    const result = await cli(args);
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(`Error: ${flag} is not an option: agentsync's long options take two dashes; did you mean ${meant}?\n`);
    expect(result.stdout).toBe('');
  });

  it('short flags, values after --, and unknown single-dash words keep their usual meaning', async () => {
    const valid = await cli(['validate', '-f', 'agents.yaml', '-e', 'prod']);
    expect(valid.code, valid.stderr).toBe(0);
    // The value of a flag that takes one may look like a flag: `--var-file -out` names a file "-out".
    const value = await cli(['validate', '--var-file', '-out']);
    expect(value.stderr).toBe('Error: cannot read -out: no such file\n');
    const unknown = await cli(['plan', '-bogus-flag']);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).not.toContain('two dashes');
  });
});

describe.concurrent('--var and --var-file', () => {
  it('--var overrides the environment var; --var-file too; --var wins over the file; repeatable', async () => {
    expect(await plannedModel([])).toBe('gpt-4o-mini');
    expect(await plannedModel(['--var', 'model=gpt-5'])).toBe('gpt-5');
    expect(await plannedModel(['--var-file', 'prod.vars.yaml'])).toBe('from-file');
    expect(await plannedModel(['--var-file', 'prod.vars.yaml', '--var', 'model=cli'])).toBe('cli');
    expect(await plannedModel(['--var', 'model=one', '--var', 'model=two'])).toBe('two');
  });

  it('applies to every environment of a multi-environment plan', async () => {
    const result = await cli(['plan', '--all-environments', '--offline', '--json', '--var', 'model=gpt-5']);
    expect(result.code, result.stderr).toBe(0);
    const plans = (JSON.parse(result.stdout) as { environments: { changes: { address: string; after?: { integrateWith?: unknown } }[] }[] }).environments;
    expect(plans.map((p) => p.changes.find((c) => c.address === 'agent.support')?.after?.integrateWith)).toEqual(['gpt-5', 'gpt-5']);
  });

  it('validate: a var the manifest needs can come from --var', async () => {
    const without = await cli(['validate', '-f', 'needs-var.yaml']);
    expect(without.code).toBe(1);
    expect(without.stderr).toContain('model');
    const withVar = await cli(['validate', '-f', 'needs-var.yaml', '--var', 'model=gpt-4o']);
    expect(withVar.code, withVar.stderr).toBe(0);
  });

  it('a saved plan made with one --var is stale when applied with another', async () => {
    // Nothing listens there: the plan must be refused before any call.
    const env = { COMETCHAT_API_KEY: 'k', AGENTSYNC_BASE_URL: 'http://127.0.0.1:9/v3' };
    const saved = await cli(['plan', '-e', 'prod', '--offline', '--out', 'vars-plan.json', '--var', 'model=a', '--state', 'vars.state.json'], env);
    expect(saved.code, saved.stderr).toBe(0);
    const applied = await cli(['apply', 'vars-plan.json', '-e', 'prod', '--var', 'model=b', '--state', 'vars.state.json'], env);
    expect(applied.code).toBe(1);
    expect(applied.stderr).toBe(
      'Error: saved plan vars-plan.json is stale: var.model is not what the plan was made with; pass apply the same --var and --var-file as plan; run `agentsync plan --out vars-plan.json` again\n',
    );
    // Without any --var, the same var is named: the plan was made with one.
    const without = await cli(['apply', 'vars-plan.json', '-e', 'prod', '--state', 'vars.state.json'], env);
    expect(without.stderr).toContain('var.model is not what the plan was made with');
  });

  it('bad input: one line, exit 1', async () => {
    for (const [args, message] of [
      [['--var', 'model'], 'Error: --var needs NAME=VALUE (got "model")\n'],
      [['--var-file', 'missing.yaml'], 'Error: cannot read missing.yaml: no such file\n'],
      [['--var', '1x=y'], 'Error: --var "1x" is not a var name (letters, digits, _ and -, not starting with a digit)\n'],
    ] as const) {
      const result = await cli(['plan', '-e', 'prod', '--offline', '--state', 'none.json', ...args]);
      expect(result.code).toBe(1);
      expect(result.stderr).toBe(message);
    }
  });
});
