// agentsync graph through the built CLI, and the graph in the markdown plan.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../support/cli.js';

const ROOT = join(import.meta.dirname, '..', '..');
const MANIFEST = `version: 1
environments:
  prod: { appId: acme, region: eu }
tools:
  lookup_order: { displayName: L, executionText: l, description: Finds an order by number, parameters: {} }
agents:
  support:
    name: Support
    integrationType: agent
    integrateWith: langgraph
    actions: [lookup_order]
    integrationMeta: { baseUrl: https://a.example.com, headers: { Authorization: "\${secret:UNSET_TOKEN}" } }
`;

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'agentsync-graph-'));
  writeFileSync(join(dir, 'agents.yaml'), MANIFEST);
  writeFileSync(join(dir, 'broken.yaml'), 'version: 1\nenvironments: { prod: { appId: acme, region: mars } }\n');
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const cli = (args: string[]) => runCli(args, { cwd: dir });

describe.concurrent('agentsync graph', () => {
  it('prints Mermaid by default, without needing the secrets the manifest reads', async () => {
    const result = await cli(['graph']);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toBe('flowchart LR\n  n0[["tool.lookup_order"]]\n  n1["agent.support<br/>Support"]\n  n1 -->|action| n0\n');
  });

  it('prints DOT with --format dot', async () => {
    const result = await cli(['graph', '--format', 'dot']);
    expect(result.code).toBe(0);
    expect(result.stdout.split('\n')).toContain('  "agent.support" -> "tool.lookup_order" [label="action"];');
  });

  it('a manifest with several environments needs -e; with it, graphs that environment', async () => {
    const example = join(ROOT, 'examples', 'multi-region.yaml');
    const without = await cli(['graph', '-f', example]);
    expect(without.code).toBe(1);
    expect(without.stderr).toMatch(/^Error: .*multi-region\.yaml defines several environments; choose one with -e: /);
    const withEnv = await cli(['graph', '-f', example, '-e', 'eu']);
    expect(withEnv.code, withEnv.stderr).toBe(0);
    expect(withEnv.stdout).toMatch(/^flowchart LR\n/);
  });

  it('bad input: an invalid manifest or format is refused with exit 1 and no stack', async () => {
    const invalid = await cli(['graph', '-f', 'broken.yaml']);
    expect(invalid.code).toBe(1);
    expect(invalid.stderr).toMatch(/^Error: broken\.yaml is not valid \(1 error\):/);
    const format = await cli(['graph', '--format', 'svg']);
    expect(format.code).toBe(1);
    expect(format.stderr.trim().split('\n')).toHaveLength(1);
    for (const r of [invalid, format]) expect(r.stderr).not.toContain('    at ');
  });

  it('the markdown plan holds a collapsed Mermaid graph of what changes', async () => {
    const result = await runCli(['plan', '--offline', '--format', 'markdown', '--state', 'none.json'], { cwd: dir, env: { UNSET_TOKEN: 'x' } });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain(
      '<details><summary>Graph of the changed resources</summary>\n\n```mermaid\nflowchart LR\n  n0[["+ tool.lookup_order"]]\n  n1["+ agent.support<br/>Support"]\n  n1 -->|action| n0\n',
    );
  });
});
