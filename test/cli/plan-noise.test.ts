// Issue 40 §3.6, done when: a plan lists what the manifest says, not what it left to the server.
// A block scalar's final newline is no empty `+ ` line, and a create lists an empty default only
// where the manifest wrote it; the JSON plan keeps every field, and `show` of a saved plan reads as
// the plan did.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runCli } from '../support/cli.js';

const MANIFEST = `version: 1
environments:
  local: { appId: local, region: us }
tools:
  quiet:
    displayName: Quiet
    executionText: Working
    doNotExecute: true
  loud:
    displayName: Loud
    executionText: Working
    doNotExecute: true
    description: ""
    parameters: {}
agents:
  helper:
    name: Helper
    integrationType: llm
    integrateWith: gpt-4o
    instruction: |
      Be kind.
      Be brief.
  bare:
    name: Bare
    integrationType: llm
    integrateWith: gpt-4o
    tools: []
`;

let dir: string;
const cli = (...args: string[]) => runCli([...args], { cwd: dir, env: {} });
/** The lines of one resource's block in a text plan. */
const block = (text: string, address: string): string[] => (text.split(`  + ${address}\n`)[1] ?? '').split('\n\n')[0]?.split('\n') ?? [];

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'agentsync-plan-noise-'));
  await writeFile(join(dir, 'agents.yaml'), MANIFEST);
});
afterEach(() => rm(dir, { recursive: true, force: true }));

describe('a create in the plan', () => {
  it('lists an empty default only where the manifest wrote it, and a block scalar without an empty last line', async () => {
    const planned = await cli('plan', '--offline', '--state', 'state.json', '--out', 'plan.json');
    expect(planned.code, planned.stderr).toBe(0);
    for (const text of [planned.stdout, (await cli('show', 'plan.json')).stdout]) {
      expect(block(text, 'tool.quiet')).toEqual(['      + displayName: "Quiet"', '      + doNotExecute: true', '      + executionText: "Working"', '      + name: "quiet"']);
      expect(block(text, 'tool.loud')).toEqual(expect.arrayContaining(['      + description: ""', '      + parameters: {}']));
      expect(block(text, 'agent.bare')).toContain('      + tools: []');
      expect(block(text, 'agent.bare')).not.toContain('      + actions: []');
      expect(block(text, 'agent.helper').slice(0, 3)).toEqual(['      + instruction:', '        + Be kind.', '        + Be brief.']);
      expect(text.split('\n').filter((line) => /^\s*\+\s*$/.test(line))).toEqual([]);
    }

    const json = await cli('plan', '--offline', '--state', 'state.json', '--json');
    const changes = (JSON.parse(json.stdout) as { changes: { address: string; fields: { path: string }[]; after: Record<string, unknown>; defaulted?: string[] }[] }).changes;
    const quiet = changes.find((c) => c.address === 'tool.quiet');
    // The JSON stays complete: the defaults are fields of the create, only marked.
    expect(quiet?.fields.map((f) => f.path)).toEqual(['description', 'displayName', 'doNotExecute', 'executionText', 'name', 'parameters']);
    expect(quiet?.after).toMatchObject({ description: '', parameters: {} });
    expect(quiet?.defaulted).toEqual(['description', 'parameters']);
    expect(changes.find((c) => c.address === 'tool.loud')?.defaulted).toBeUndefined();
    expect(changes.find((c) => c.address === 'agent.bare')?.defaulted).toEqual(['actions']);
  });
});
