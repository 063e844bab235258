// examples/github-actions.yml is what users copy: it must keep the promises of
// docs/spec/distribution.md#github-action and use the action only as action.yml defines it.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';

interface Step {
  name?: string;
  if?: string;
  uses?: string;
  run?: string;
  with?: Record<string, string>;
  env?: Record<string, string>;
}
interface Job {
  if?: string;
  concurrency?: { group: string; 'cancel-in-progress': boolean };
  env?: Record<string, string>;
  steps: Step[];
}
interface Workflow {
  on: Record<string, unknown>;
  concurrency?: unknown;
  jobs: Record<string, Job>;
}

const text = readFileSync(new URL('../../examples/github-actions.yml', import.meta.url), 'utf8');
const workflow = parse(text) as Workflow;
const action = parse(readFileSync(new URL('../../action.yml', import.meta.url), 'utf8')) as { inputs: Record<string, unknown> };
const actionSteps = Object.values(workflow.jobs).flatMap((job) => job.steps.filter((s) => s.uses?.endsWith('/agentsync@v0')));

describe('the example workflow', () => {
  it('plans pull requests, applies main, and can be rerun by hand', () => {
    expect(Object.keys(workflow.on).sort()).toEqual(['pull_request', 'push', 'workflow_dispatch']);
    expect(workflow.jobs.plan?.if).toContain("github.event_name == 'pull_request'");
    expect(workflow.jobs.apply?.if).toContain("github.event_name == 'workflow_dispatch'");
    expect(workflow.jobs.apply?.if).toContain("github.ref == 'refs/heads/main'");
  });

  it('keeps the state in PostgreSQL and never pushes to git', () => {
    expect(text).not.toMatch(/git (push|commit)/);
    expect(workflow.jobs.apply?.env?.AGENTSYNC_STATE_URL).toBe('${{ secrets.AGENTSYNC_STATE_URL }}');
  });

  it('has a concurrency group on the apply job only, which queues and never cancels', () => {
    expect(workflow.concurrency).toBeUndefined();
    expect(workflow.jobs.apply?.concurrency).toEqual({ group: expect.any(String), 'cancel-in-progress': false });
    for (const [name, job] of Object.entries(workflow.jobs)) if (name !== 'apply') expect(job.concurrency).toBeUndefined();
  });

  it('plans a fork pull request offline, with no secret in reach', () => {
    const forkSteps = (workflow.jobs.plan?.steps ?? []).filter((s) => s.if === "env.FROM_FORK == 'true'");
    expect(forkSteps.length).toBeGreaterThan(0);
    expect(JSON.stringify(forkSteps)).not.toContain('secrets.');
    const forkPlan = forkSteps.find((s) => s.uses !== undefined);
    expect(forkPlan?.with?.args).toMatch(/^--offline --state /);
    // The same-repository plan reads the server and the shared state.
    const plan = workflow.jobs.plan?.steps.find((s) => s.if === "env.FROM_FORK == 'false'");
    expect(plan?.with?.args).toBeUndefined();
    expect(plan?.env).toMatchObject({ COMETCHAT_API_KEY: '${{ secrets.COMETCHAT_API_KEY }}', AGENTSYNC_STATE_URL: '${{ secrets.AGENTSYNC_STATE_URL }}' });
  });

  it('uses the composite action with inputs it declares', () => {
    expect(actionSteps.map((s) => s.with?.command)).toEqual(['plan', 'plan', 'apply']);
    for (const step of actionSteps) for (const input of Object.keys(step.with ?? {})) expect(Object.keys(action.inputs)).toContain(input);
  });

  it('has shell steps that bash can parse', () => {
    const scripts = Object.values(workflow.jobs).flatMap((job) => job.steps.flatMap((s) => (s.run ? [s.run] : [])));
    expect(scripts.length).toBeGreaterThan(2);
    for (const script of scripts) {
      const checked = spawnSync('bash', ['-n'], { input: script, encoding: 'utf8' });
      expect(checked.stderr).toBe('');
      expect(checked.status).toBe(0);
    }
  });
});

describe('the example workflow applies what was reviewed', () => {
  it('the pull request saves the plan file and uploads it; a push downloads it and applies exactly it', () => {
    const plan = workflow.jobs.plan?.steps.find((s) => s.if === "env.FROM_FORK == 'false'" && s.uses?.endsWith('/agentsync@v0') === true);
    const planFile = plan?.with?.['plan-file'];
    expect(planFile).toBe('agentsync-plan.json');
    const upload = workflow.jobs.plan?.steps.find((s) => s.uses === 'actions/upload-artifact@v4');
    expect(upload?.with).toMatchObject({ name: 'agentsync-plan', path: planFile });

    const steps = workflow.jobs.apply?.steps ?? [];
    const download = steps.find((s) => s.run?.includes('gh run download'));
    expect(download?.if).toBe("github.event_name == 'push'");
    expect(download?.run).toContain('--name agentsync-plan --dir "$RUNNER_TEMP/reviewed"');
    // No reviewed plan: the step fails; it never falls back to planning.
    expect(download?.run?.match(/exit 1/g)).toHaveLength(2);
    const apply = steps.find((s) => s.with?.command === 'apply');
    expect(apply?.with?.['plan-file']).toBe("${{ github.event_name == 'push' && format('{0}/reviewed/agentsync-plan.json', runner.temp) || '' }}");
    expect(steps.indexOf(download as Step)).toBeLessThan(steps.indexOf(apply as Step));
  });
});
