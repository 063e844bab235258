// examples/drift-nightly.yml's steps run for real: `npx --no-install agentsync` is the built CLI against the
// emulator, `gh` is a stand-in that records its calls. One issue is opened, then updated, then
// closed when the app matches the manifest again; an error fails the job.
import { spawn } from 'node:child_process';
import { chmod, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { runCli } from '../support/cli.js';
import { startTestEmulator, API_KEY, type TestEmulator } from '../support/emulator.js';

const ROOT = join(import.meta.dirname, '..', '..');
interface Step {
  name?: string;
  id?: string;
  if?: string;
  run?: string;
  env?: Record<string, string>;
}
const workflow = parse(await readFile(join(ROOT, 'examples', 'drift-nightly.yml'), 'utf8')) as { on: Record<string, unknown>; jobs: { drift: { steps: Step[] } } };
const steps = workflow.jobs.drift.steps.filter((s) => s.run !== undefined && s.run !== 'npm ci');
const MANIFEST = 'version: 1\nenvironments:\n  prod: { appId: local, region: us }\ntools:\n  lookup: { displayName: L, executionText: l, description: Looks an order up by number, parameters: {} }\n';

let emu: TestEmulator;
let dir: string;
beforeAll(async () => {
  emu = await startTestEmulator();
  dir = await mkdtemp(join(tmpdir(), 'agentsync-drift-'));
  await writeFile(join(dir, 'agents.yaml'), MANIFEST);
  await writeFile(join(dir, 'npx'), `#!/bin/sh\n[ "$1" = --no-install ] && shift; [ "$1" = agentsync ] && shift\nexec "${process.execPath}" "${join(ROOT, 'dist', 'cli', 'main.cjs')}" "$@"\n`);
  // gh: every call on its own line; `issue list` answers with $OPEN_ISSUE (empty: none open).
  await writeFile(join(dir, 'gh'), '#!/bin/sh\necho "$*" >>"$GH_LOG"\ncase "$1 $2" in "issue list") echo "${OPEN_ISSUE:-}";; esac\n');
  await chmod(join(dir, 'npx'), 0o755);
  await chmod(join(dir, 'gh'), 0o755);
});
afterAll(async () => {
  await emu.close();
  await rm(dir, { recursive: true, force: true });
});

/** Runs the job's steps in order, as a runner would; stops at the first that fails. */
async function runJob(env: Record<string, string>): Promise<{ failedStep?: string; gh: string[]; body: string }> {
  const output = join(dir, 'output');
  const log = join(dir, 'gh.log');
  await writeFile(output, '');
  await writeFile(log, '');
  await rm(join(dir, 'body.md'), { force: true });
  // Each step's outputs are its own, as on a runner: steps.<id>.outputs.<name>.
  const outputs: Record<string, Record<string, string>> = {};
  for (const step of steps) {
    const stepEnv = Object.fromEntries(
      Object.entries(step.env ?? {}).map(([k, v]) => [
        k,
        v.replace(/\$\{\{ steps\.(\w+)\.outputs\.(\w+) \}\}/g, (_all, id: string, name: string) => outputs[id]?.[name] ?? '').replace(/\$\{\{.*?\}\}/g, 'x'),
      ]),
    );
    await writeFile(output, '');
    const code = await bash(step.run ?? '', {
      PATH: `${dir}:${process.env.PATH ?? ''}`,
      GITHUB_OUTPUT: output,
      GITHUB_STEP_SUMMARY: join(dir, 'summary'),
      GITHUB_REPOSITORY: 'acme/agents',
      GH_LOG: log,
      AGENTSYNC_BASE_URL: emu.url,
      NO_COLOR: '1',
      ...env,
      ...stepEnv,
    });
    const own: Record<string, string> = {};
    for (const line of (await readFile(output, 'utf8')).split('\n')) if (line.includes('=')) own[line.slice(0, line.indexOf('='))] = line.slice(line.indexOf('=') + 1);
    if (step.id !== undefined) outputs[step.id] = own;
    if (code !== 0) return { failedStep: step.name ?? '', gh: await lines(log), body: '' };
  }
  return { gh: await lines(log), body: await readFile(join(dir, 'body.md'), 'utf8').catch(() => '') };
}

const lines = async (file: string) => (await readFile(file, 'utf8')).split('\n').filter(Boolean);

function bash(script: string, env: NodeJS.ProcessEnv): Promise<number | null> {
  return new Promise((resolve, reject) => {
    const child = spawn('bash', ['--noprofile', '--norc', '-eo', 'pipefail', '-c', script], { cwd: dir, env, stdio: 'ignore' });
    child.on('error', reject);
    child.on('close', resolve);
  });
}

describe('examples/drift-nightly.yml', () => {
  it('runs nightly and by hand', () => {
    expect(Object.keys(workflow.on).sort()).toEqual(['schedule', 'workflow_dispatch']);
    expect(steps.map((s) => s.name)).toEqual(['Plan', 'Re-sync the knowledge base', 'Open, update or close the drift issue']);
    expect(steps[1]?.if).toBe("${{ vars.AGENTSYNC_KB_SYNC == 'true' }}");
    expect(steps[1]?.run).toContain('kb sync -e prod --failed --wait');
    expect(steps[0]?.run).toContain('plan -e prod --detailed-exitcode');
  });

  it('opens one issue on drift, updates it the next night, closes it when the app matches', async () => {
    const key = { COMETCHAT_API_KEY: API_KEY };
    const opened = await runJob(key);
    expect(opened.failedStep).toBeUndefined();
    expect(opened.gh.map((l) => l.split(' --')[0])).toEqual(['issue list', 'label create agentsync-drift', 'issue create']);
    expect(opened.gh[2]).toContain('--label agentsync-drift --body-file body.md');
    expect(opened.body).toContain('Plan: 1 to create');

    const updated = await runJob({ ...key, OPEN_ISSUE: '7' });
    expect(updated.gh.map((l) => l.split(' --')[0])).toEqual(['issue list', 'issue edit 7']);

    const apply = await runCli(['apply', '-e', 'prod', '--auto-approve'], { cwd: dir, env: { AGENTSYNC_BASE_URL: emu.url, ...key } });
    expect(apply.code).toBe(0);
    const closed = await runJob({ ...key, OPEN_ISSUE: '7' });
    expect(closed.gh.map((l) => l.split(' --')[0])).toEqual(['issue list', 'issue close 7']);
    const quiet = await runJob(key);
    expect(quiet.gh).toEqual([expect.stringMatching(/^issue list /)]);
  });

  it('an error (no API key) fails the job at the plan, and touches no issue', async () => {
    const failed = await runJob({});
    expect(failed.failedStep).toBe('Plan');
    expect(failed.gh).toEqual([]);
  });
});
