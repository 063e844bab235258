// agentsync lint through the built CLI: exit codes, text and JSON, `lint:` settings, and the GitHub
// annotations of lint and validate, checked line by line.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../support/cli.js';

const ROOT = join(import.meta.dirname, '..', '..');
const KEY = 'sk-' + 'Zq8Lw3Rt6Yp1Nm4Kd7Hf2Jx5';

const FLAWED = `version: 1
environments:
  prod: { appId: acme, region: eu }
tools:
  lookup_order:
    displayName: Lookup order
    executionText: Looking
    description: Finds orders
    parameters:
      type: object
      properties:
        id: { type: string, description: Order number, e.g. A-1042 }
agents:
  support:
    name: Support
    integrationType: llm
    integrateWith: gpt-4o
    icon: http://cdn.example.com/x.png
    suggestions: ["use ${KEY}"]
  support_copy:
    name: Support
    integrationType: llm
    integrateWith: gpt-4o
    instruction: Help customers with their orders.
`;

let dir: string;
const write = (name: string, text: string): string => {
  writeFileSync(join(dir, name), text);
  return name;
};
const lint = (args: string[], env: NodeJS.ProcessEnv = {}) => runCli(['lint', ...args], { cwd: dir, env });

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'agentsync-lint-'));
  write('agents.yaml', FLAWED);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe.concurrent('agentsync lint', () => {
  it('prints every finding with its rule, severity and file:line:col, and exits 1 on an error', async () => {
    const result = await lint([]);
    expect(result.code).toBe(1);
    const lines = result.stdout.trimEnd().split('\n');
    expect(lines.map((line) => /^(agents\.yaml:\d+:\d+): (error|warning): .* \[([a-z-]+)\]/.exec(line)?.slice(1).join(' ') ?? line)).toEqual([
      'agents.yaml:5:3 warning unused-tool',
      'agents.yaml:8:18 warning short-tool-description',
      'agents.yaml:12:56 error comma-split-flow-map',
      'agents.yaml:14:3 warning missing-instruction',
      'agents.yaml:18:11 warning insecure-url',
      'agents.yaml:19:24 error secret-literal',
      'agents.yaml:21:11 error duplicate-agent-name',
      '3 errors, 4 warnings',
    ]);
    expect(result.stdout + result.stderr).not.toContain(KEY);
  });

  it('--format json (and --json) gives the findings as data', async () => {
    for (const flags of [['--format', 'json'], ['--json']]) {
      const result = await lint(flags);
      expect(result.code).toBe(1);
      const json = JSON.parse(result.stdout) as { valid: boolean; summary: { errors: number; warnings: number }; findings: Record<string, unknown>[] };
      expect(json.valid).toBe(false);
      expect(json.summary).toEqual({ errors: 3, warnings: 4 });
      expect(json.findings[2]).toEqual({
        rule: 'comma-split-flow-map',
        severity: 'error',
        file: 'agents.yaml',
        line: 12,
        column: 56,
        path: 'tools.lookup_order.parameters.properties.id["e.g. A-1042"]',
        message: expect.stringContaining('quote the whole text') as unknown,
      });
      expect(result.stdout).not.toContain(KEY);
    }
  });

  it('lint: in the manifest turns rules off and changes severities; only warnings left exits 0', async () => {
    const file = write('configured.yaml', `${FLAWED}lint:\n  comma-split-flow-map: warning\n  secret-literal: off\n  duplicate-agent-name: off\n  unused-tool: error\n`);
    const result = await lint(['-f', file, '--json']);
    const json = JSON.parse(result.stdout) as { findings: { rule: string; severity: string }[] };
    expect(json.findings.map((f) => `${f.rule} ${f.severity}`)).toEqual([
      'unused-tool error',
      'short-tool-description warning',
      'comma-split-flow-map warning',
      'missing-instruction warning',
      'insecure-url warning',
    ]);
    expect(result.code).toBe(1);
    const relaxed = write('relaxed.yaml', `${FLAWED}lint:\n  comma-split-flow-map: warning\n  secret-literal: off\n  duplicate-agent-name: warning\n`);
    const warningsOnly = await lint(['-f', relaxed]);
    expect(warningsOnly.code).toBe(0);
    expect(warningsOnly.stdout).toContain('0 errors, 6 warnings');
    // validate accepts the lint: section, and refuses an unknown rule in it.
    expect((await runCli(['validate', '-f', relaxed], { cwd: dir })).code).toBe(0);
    const typo = write('typo.yaml', `${FLAWED}lint:\n  unused-tools: off\n`);
    const badLint = await lint(['-f', typo]);
    expect(badLint.code).toBe(1);
    expect(badLint.stdout).toContain('typo.yaml:26:3: error: unknown lint rule "unused-tools"; did you mean "unused-tool"? [lint-config] (at lint.unused-tools)');
    // Said once, as lint's own settings problem, not again as validate's [invalid].
    expect(badLint.stdout.split('\n').filter((line) => line.includes('(at lint.unused-tools)'))).toHaveLength(1);
    expect((await runCli(['validate', '-f', typo], { cwd: dir })).code).toBe(1);
  });

  it('a clean manifest says so and exits 0; the examples have no errors', async () => {
    const clean = await lint(['-f', join(ROOT, 'examples', 'minimal.yaml')]);
    expect(clean.code).toBe(0);
    expect(clean.stdout).toMatch(/minimal\.yaml: no lint findings \(8 rules\)\.\n$/);
    for (const example of ['external-agent.yaml', 'knowledge-base.yaml', 'multi-region.yaml']) {
      const result = await lint(['-f', join(ROOT, 'examples', example), '--json']);
      expect(result.code, result.stdout).toBe(0);
    }
  });

  it('a manifest validate rejects fails lint too: its errors are findings of rule invalid, beside the rules', async () => {
    const invalid = write(
      'invalid.yaml',
      `version: 1
environments:
  prod: { appId: "\${APP_ID}", region: eu }
tools:
  lookup_order: { displayName: Lookup order, executionText: Looking, description: Finds an order by its number, parameters: { type: object } }
agents:
  support: { name: Support, integrationType: "\${secret:KIND}", integrateWith: gpt-4o, instruction: Help customers with their orders., actions: [lookup_order] }
`,
    );
    const env = { KIND: 'kind-secret-4444' };
    const text = await lint(['-f', invalid], env);
    expect(text.code).toBe(1);
    expect(text.stdout.trimEnd().split('\n')).toEqual([
      'invalid.yaml:3:19: error: environment variable APP_ID is not set (write ${APP_ID:-default} to give it a default) [invalid] (at environments.prod.appId)',
      'invalid.yaml:5:113: error: parameters.properties is required when parameters is not empty [invalid] (at tools.lookup_order.parameters.properties)',
      'invalid.yaml:7:46: error: must be one of llm, agent (got "(sensitive)") [invalid] (at agents.support.integrationType)',
      '3 errors, 0 warnings',
    ]);
    const json = await lint(['-f', invalid, '--json'], { ...env, APP_ID: 'acme' });
    expect(json.code).toBe(1);
    const report = JSON.parse(json.stdout) as { valid: boolean; summary: { errors: number }; findings: { rule: string; line: number }[] };
    expect(report).toMatchObject({ valid: false, summary: { errors: 2 } });
    expect(report.findings.map((f) => [f.rule, f.line])).toEqual([
      ['invalid', 5],
      ['invalid', 7],
    ]);
    for (const r of [text, json]) expect(r.stdout + r.stderr).not.toContain('kind-secret-4444');
    // The same manifest, valid once its variable is set and its fields are right, lints clean.
    const fixed = write('fixed.yaml', (await import('node:fs')).readFileSync(join(dir, invalid), 'utf8').replace('{ type: object }', '{}').replace('"${secret:KIND}"', 'llm'));
    expect((await lint(['-f', fixed], { APP_ID: 'acme' })).code).toBe(0);
  });

  it('bad input: a missing file, a YAML error, a bad --format; one line, exit 1, no stack', async () => {
    const missing = await lint(['-f', 'nope.yaml']);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/^Error: cannot read manifest nope\.yaml/);
    const broken = write('broken.yaml', 'version: 1\nenvironments: [\n');
    const parse = await lint(['-f', broken, '--json']);
    expect(parse.code).toBe(1);
    expect((JSON.parse(parse.stdout) as { findings: { rule: string }[] }).findings.every((f) => f.rule === 'parse')).toBe(true);
    const format = await lint(['--format', 'yaml']);
    expect(format.code).toBe(1);
    expect(format.stderr.trim().split('\n')).toHaveLength(1);
    for (const r of [missing, parse, format]) expect(r.stderr).not.toContain('    at ');
  });
});

describe.concurrent('GitHub annotations (GITHUB_ACTIONS=true)', () => {
  it('lint prints one ::error/::warning line per finding after the report, escaped', async () => {
    const result = await lint([], { GITHUB_ACTIONS: 'true' });
    expect(result.code).toBe(1);
    const annotations = result.stdout.split('\n').filter((line) => line.startsWith('::'));
    expect(annotations).toHaveLength(7);
    expect(annotations[0]).toBe(
      '::warning file=agents.yaml,line=5,col=3,title=agentsync lint (unused-tool)::tool "lookup_order" is not used by any agent (no agent lists it in tools or actions) (at tools.lookup_order)',
    );
    expect(annotations.map((line) => /^::(error|warning) file=agents\.yaml,line=(\d+),col=(\d+),title=agentsync lint \(([a-z-]+)\)::\S/.exec(line)?.slice(1).join(' '))).toEqual([
      'warning 5 3 unused-tool',
      'warning 8 18 short-tool-description',
      'error 12 56 comma-split-flow-map',
      'warning 14 3 missing-instruction',
      'warning 18 11 insecure-url',
      'error 19 24 secret-literal',
      'error 21 11 duplicate-agent-name',
    ]);
    expect(result.stdout).not.toContain(KEY);
  });

  it('with --json the annotations go to stderr and stdout stays JSON; without GITHUB_ACTIONS there are none', async () => {
    const json = await lint(['--json'], { GITHUB_ACTIONS: 'true' });
    expect(() => JSON.parse(json.stdout) as unknown).not.toThrow();
    expect(json.stderr.split('\n').filter((line) => line.startsWith('::'))).toHaveLength(7);
    const plain = await lint([], { GITHUB_ACTIONS: 'false' });
    expect(plain.stdout + plain.stderr).not.toContain('::');
  });

  it('validate prints its diagnostics as annotations too, with the file name escaped', async () => {
    const file = write('bad, name.yaml', 'version: 2\nenvironments:\n  prod: { appId: acme, region: mars }\n');
    const result = await runCli(['validate', '-f', file], { cwd: dir, env: { GITHUB_ACTIONS: 'true' } });
    expect(result.code).toBe(1);
    const annotations = result.stdout.split('\n').filter((line) => line.startsWith('::'));
    expect(annotations.map((line) => line.replace(/::[^:]*$/, '').replace(/(title=agentsync validate)::.*/, '$1'))).toEqual([
      '::error file=bad%2C name.yaml,line=1,col=10,title=agentsync validate',
      '::error file=bad%2C name.yaml,line=3,col=32,title=agentsync validate',
    ]);
    expect(annotations[0]).toMatch(/::version must be 1 \(got 2\) \(at version\)$/);
    const valid = await runCli(['validate', '-f', join(ROOT, 'examples', 'minimal.yaml')], { cwd: dir, env: { GITHUB_ACTIONS: 'true' } });
    expect(valid.code).toBe(0);
    expect(valid.stdout).not.toContain('::');
  });
});
