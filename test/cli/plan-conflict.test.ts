// A plan that apply would refuse (creates whose identity the server already has) fails: exit 1,
// even with --detailed-exitcode, so a pull request's check turns red. The plan is still shown.
import { rm, writeFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestEmulator } from '../support/emulator.js';
import { openLab, type Lab } from './lifecycle-fixture.js';

const MANIFEST = `version: 1
environments:
  local: { appId: local, region: us }
  other: { appId: local, region: us }
tools:
  lookup: { displayName: L, executionText: l, description: Looks an order up by number, parameters: {} }
`;

let lab: Lab;
let emu: TestEmulator;
beforeAll(async () => {
  lab = await openLab();
  emu = await lab.emulator();
  await writeFile(lab.path('agents.yaml'), MANIFEST);
  const applied = await lab.cli(emu, ['apply', '-e', 'local', '--auto-approve']);
  expect(applied.code, applied.stderr).toBe(0);
  // The state is lost: the server has the tool, nothing tracks it.
  await rm(lab.path('.agentsync'), { recursive: true, force: true });
});
afterAll(() => lab.close());

const LINE =
  'Error: apply would refuse this plan: a resource to create already exists on the server but not in the state: tool.lookup (local_lookup). Adopt it with `agentsync import tool.lookup`, then plan again.\n';

describe.concurrent('plan with a conflict', () => {
  it('shows the plan, then exits 1 with one line saying why, with or without --detailed-exitcode', async () => {
    for (const flags of [[], ['--detailed-exitcode']]) {
      const result = await lab.cli(emu, ['plan', '-e', 'local', ...flags]);
      expect(result.code).toBe(1);
      expect(result.stdout).toContain('+ tool.lookup');
      expect(result.stderr).toBe(LINE);
    }
  });

  it('--json keeps stdout one JSON plan; the reason is on stderr', async () => {
    const result = await lab.cli(emu, ['plan', '-e', 'local', '--json', '--detailed-exitcode']);
    expect(result.code).toBe(1);
    const plan = JSON.parse(result.stdout) as { changes: { address: string; conflict?: unknown }[] };
    expect(plan.changes.find((c) => c.address === 'tool.lookup')?.conflict).toEqual({ remoteId: 'local_lookup' });
    expect(result.stderr).toBe(LINE);
  });

  it('several environments: one conflicting environment fails the run', async () => {
    const result = await lab.cli(emu, ['plan', '--all-environments', '--detailed-exitcode']);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(
      'Error: apply would refuse this plan: 2 resources to create already exist on the server but not in the state: tool.lookup (local_lookup), tool.lookup (local_lookup).',
    );
  });
});
