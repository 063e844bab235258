// examples/region-diff-nightly.yml is what users copy for a nightly diff of two regions: it must use
// the action only as action.yml defines it, on a schedule, with the permission its comment needs.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';

interface Step {
  id?: string;
  if?: string;
  uses?: string;
  run?: string;
  with?: Record<string, string>;
}
interface Workflow {
  on: Record<string, unknown>;
  permissions: Record<string, string>;
  jobs: Record<string, { env?: Record<string, string>; steps: Step[] }>;
}

const workflow = parse(readFileSync(new URL('../../examples/region-diff-nightly.yml', import.meta.url), 'utf8')) as Workflow;
const action = parse(readFileSync(new URL('../../action.yml', import.meta.url), 'utf8')) as { inputs: Record<string, unknown>; outputs: Record<string, unknown> };
const steps = Object.values(workflow.jobs).flatMap((job) => job.steps);

describe('the nightly region diff example', () => {
  it('runs on a schedule, and may write issues but nothing else', () => {
    expect(Object.keys(workflow.on).sort()).toEqual(['schedule', 'workflow_dispatch']);
    expect(workflow.permissions).toEqual({ contents: 'read', issues: 'write' });
  });

  it('diffs two environments with the action, into the issue it names', () => {
    const diff = steps.find((s) => s.uses?.endsWith('/agentsync@v0'));
    expect(diff?.with).toMatchObject({ command: 'diff', environments: 'us, eu', 'issue-number': '${{ vars.AGENTSYNC_DIFF_ISSUE }}' });
    for (const input of Object.keys(diff?.with ?? {})) expect(Object.keys(action.inputs)).toContain(input);
    // Each environment's key, as its apiKeyEnv names it.
    expect(workflow.jobs.diff?.env).toMatchObject({ KEY_US: expect.stringContaining('secrets.'), KEY_EU: expect.stringContaining('secrets.') });
  });

  it('fails only on a finding, using outputs the action declares, in a step bash can parse', () => {
    const fail = steps.find((s) => s.if?.includes('has-changes'));
    expect(fail?.if).toBe(`\${{ steps.${steps.find((s) => s.uses?.endsWith('/agentsync@v0'))?.id}.outputs.has-changes == 'true' }}`);
    for (const output of [...(fail?.run ?? '').matchAll(/outputs\.([\w-]+)/g)].map((m) => m[1] ?? '')) expect(Object.keys(action.outputs)).toContain(output);
    const checked = spawnSync('bash', ['-n'], { input: fail?.run ?? '', encoding: 'utf8' });
    expect(checked.status).toBe(0);
  });
});
