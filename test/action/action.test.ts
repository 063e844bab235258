// action.yml run the way a GitHub runner runs a composite step: its `${{ inputs.* }}` filled in,
// GITHUB_OUTPUT / GITHUB_STEP_SUMMARY files in a temp dir, the built CLI against the emulator, and
// the comment sent to a local stand-in for GitHub's API.
import { spawn } from 'node:child_process';
import { chmod, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { startTestEmulator, API_KEY, type TestEmulator } from '../support/emulator.js';
import { startFakeGitHub, type FakeGitHub } from './fake-github.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const TOKEN = 'ghs_actionToken9876543210abcdef';
const REPO = 'acme/agents';

interface ActionYml {
  inputs: Record<string, { default?: string }>;
  outputs: Record<string, { value: string }>;
  runs: { using: string; steps: { id?: string; shell: string; run: string; env?: Record<string, string> }[] };
}
const action = parse(await readFile(join(ROOT, 'action.yml'), 'utf8')) as ActionYml;

let emu: TestEmulator;
let gh: FakeGitHub;
let dir: string;
beforeAll(async () => {
  [emu, gh] = await Promise.all([startTestEmulator(), startFakeGitHub()]);
});
afterAll(async () => {
  await Promise.all([emu.close(), gh.close()]);
});
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'agentsync-action-'));
  await mkdir(join(dir, 'workspace'));
  await mkdir(join(dir, 'runner-temp'));
  await fetch(`${emu.origin}/__emulator/reset`, { method: 'POST' });
  await fetch(`${emu.origin}/__emulator/requests`, { method: 'DELETE' });
  gh.requests.length = 0;
});
afterEach(() => rm(dir, { recursive: true, force: true }));

const workspace = () => join(dir, 'workspace');

function manifest(tools: string[]): string {
  const lines = ['version: 1', 'environments:', '  local: { appId: local, region: us }', 'tools:'];
  for (const name of tools) lines.push(`  ${name}: { displayName: ${name}, executionText: Working, description: "does ${name}", parameters: {} }`);
  lines.push('agents:', `  helper: { name: Helper, integrationType: llm, integrateWith: gpt-4o, actions: [${tools.join(', ')}] }`);
  return lines.join('\n') + '\n';
}

interface StepRun {
  code: number | null;
  stdout: string;
  stderr: string;
  outputs: Record<string, string>;
  summary: string;
}

let prNumber = 40;

/** Runs the composite action's steps with these inputs, as a runner would. */
async function runAction(inputs: Record<string, string>, runner: { event?: 'pull_request' | 'push' | 'schedule'; pr?: number; env?: Record<string, string> } = {}): Promise<StepRun> {
  const event = runner.event ?? 'pull_request';
  const eventPath = join(dir, 'event.json');
  const pr = runner.pr ?? ++prNumber;
  await writeFile(
    eventPath,
    JSON.stringify(
      event === 'pull_request' ? { number: pr, pull_request: { number: pr, head: { sha: 'feedface00', repo: { full_name: REPO } }, base: { repo: { full_name: REPO } } } } : { ref: 'refs/heads/main' },
    ),
  );
  const outputFile = join(dir, `output-${Date.now()}-${Math.random()}`);
  const summaryFile = join(dir, `summary-${Date.now()}-${Math.random()}`);
  await writeFile(outputFile, '');
  await writeFile(summaryFile, '');
  const stepOutputs: Record<string, Record<string, string>> = {};

  // The few expressions action.yml may use; anything else fails the test, so it cannot slip in untested.
  const evaluate = (expression: string): string => {
    const expr = expression.trim();
    const input = /^inputs\.([\w-]+)$/.exec(expr);
    if (input) {
      const name = input[1] as string;
      if (!(name in action.inputs)) throw new Error(`action.yml uses the undeclared input ${name}`);
      return inputs[name] ?? substitute(action.inputs[name]?.default ?? '');
    }
    if (expr === 'github.token') return TOKEN;
    const output = /^steps\.([\w-]+)\.outputs\.([\w-]+)$/.exec(expr);
    if (output) return stepOutputs[output[1] as string]?.[output[2] as string] ?? '';
    throw new Error(`the test runner does not know the expression ${expr}`);
  };
  const substitute = (text: string): string => text.replace(/\$\{\{(.*?)\}\}/g, (_, expr: string) => evaluate(expr));

  let last: { code: number | null; stdout: string; stderr: string } = { code: 0, stdout: '', stderr: '' };
  for (const step of action.runs.steps) {
    expect(step.shell).toBe('bash');
    const env: NodeJS.ProcessEnv = {
      PATH: process.env.PATH,
      CI: 'true',
      GITHUB_ACTION_PATH: ROOT,
      GITHUB_WORKSPACE: workspace(),
      GITHUB_OUTPUT: outputFile,
      GITHUB_STEP_SUMMARY: summaryFile,
      RUNNER_TEMP: join(dir, 'runner-temp'),
      GITHUB_EVENT_NAME: event,
      GITHUB_EVENT_PATH: eventPath,
      GITHUB_API_URL: gh.url,
      GITHUB_REPOSITORY: REPO,
      AGENTSYNC_BASE_URL: emu.url,
      ...runner.env,
      ...Object.fromEntries(Object.entries(step.env ?? {}).map(([k, v]) => [k, substitute(String(v))])),
    };
    last = await run(['bash', '--noprofile', '--norc', '-eo', 'pipefail', '-c', substitute(step.run)], workspace(), env);
    const written = await readFile(outputFile, 'utf8');
    stepOutputs[step.id ?? ''] = Object.fromEntries(
      written
        .split('\n')
        .filter(Boolean)
        .map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)]),
    );
    if (last.code !== 0) break;
  }
  const outputs = Object.fromEntries(Object.entries(action.outputs).map(([name, o]) => [name, substitute(o.value)]));
  const result = { ...last, outputs, summary: await readFile(summaryFile, 'utf8') };
  // Nothing a log, a summary or an output keeps may hold the token or the API key.
  for (const text of [result.stdout, result.stderr, result.summary, JSON.stringify(outputs)]) {
    expect(text).not.toContain(TOKEN);
    expect(text).not.toContain(API_KEY);
  }
  return result;
}

function run(argv: string[], cwd: string, env: NodeJS.ProcessEnv): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(argv[0] as string, argv.slice(1), { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

const withKey = { env: { COMETCHAT_API_KEY: API_KEY } };

describe('action.yml', () => {
  it('is a composite action whose inputs and outputs are all wired', () => {
    expect(action.runs.using).toBe('composite');
    expect(Object.keys(action.inputs)).toEqual(expect.arrayContaining(['command', 'environments', 'file', 'working-directory']));
    expect(Object.keys(action.outputs)).toEqual(expect.arrayContaining(['has-changes', 'exitcode']));
    const env = Object.values(action.runs.steps[0]?.env ?? {}).join('\n');
    for (const name of Object.keys(action.inputs)) expect(env).toContain(`\${{ inputs.${name} }}`);
  });

  it('plans on a pull request: markdown to the job summary, one comment, the outputs', async () => {
    await writeFile(join(workspace(), 'agents.yaml'), manifest(['lookup', 'notify']));
    const pr = ++prNumber;
    const plan = await runAction({ environments: 'local' }, { ...withKey, pr });
    expect(plan.stderr).toBe('');
    expect(plan.code).toBe(0);
    expect(plan.outputs).toEqual({ 'has-changes': 'true', exitcode: '2', 'comment-url': expect.stringMatching(/^https:\/\/github\.example\/acme\/agents\/pull\/\d+#issuecomment-\d+$/) });
    expect(plan.summary).toContain('### agentsync plan for environment `local`');
    expect(plan.summary).toContain('Plan: 3 to create, 0 to update, 0 to forget.');
    expect(plan.stdout).toContain(`agentsync: created the plan comment ${plan.outputs['comment-url']}`);
    const [comment] = gh.comments(REPO, pr);
    expect(gh.comments(REPO, pr)).toHaveLength(1);
    expect(comment?.body).toContain('<!-- agentsync-plan file="agents.yaml" environments="local" -->');
    expect(comment?.body).toContain('Plan: 3 to create');
    // The plan read the server (a refresh), and wrote nothing to it.
    expect((await emu.apiRequests()).length).toBeGreaterThan(0);
    expect(await emu.apiWrites()).toEqual([]);
  });

  it('applies on a push, then the pull request comment shows no changes, updated in place', async () => {
    await writeFile(join(workspace(), 'agents.yaml'), manifest(['lookup']));
    const pr = ++prNumber;
    const before = await runAction({}, { ...withKey, pr });
    expect(before.outputs.exitcode).toBe('2');

    const apply = await runAction({ command: 'apply' }, { ...withKey, event: 'push' });
    expect(apply.code).toBe(0);
    expect(apply.outputs).toMatchObject({ exitcode: '0', 'has-changes': 'true' });
    expect(apply.stdout).toContain('Apply complete: 2 created, 0 updated, 0 forgotten.');
    expect(apply.summary).toContain('### agentsync apply for `agents.yaml`');
    expect(apply.summary).toContain('Apply complete: 2 created');
    expect(await readFile(join(workspace(), '.agentsync', 'local.state.json'), 'utf8')).toContain('tool.lookup');

    const after = await runAction({}, { ...withKey, pr });
    expect(after.code).toBe(0);
    expect(after.outputs).toMatchObject({ exitcode: '0', 'has-changes': 'false' });
    expect(gh.comments(REPO, pr)).toHaveLength(1);
    expect(gh.comments(REPO, pr)[0]?.body).toContain('No changes.');
    expect(after.stdout).toContain('updated the plan comment');

    const again = await runAction({ command: 'apply' }, { ...withKey, event: 'push' });
    expect(again.outputs).toMatchObject({ exitcode: '0', 'has-changes': 'false' });
  });

  it('a failed plan fails the step, after the summary and the comment say why', async () => {
    await writeFile(join(workspace(), 'agents.yaml'), manifest(['lookup']).replace('region: us', 'region: mars'));
    const pr = ++prNumber;
    const plan = await runAction({}, { ...withKey, pr });
    expect(plan.code).toBe(1);
    expect(plan.outputs).toMatchObject({ exitcode: '1', 'has-changes': 'false' });
    expect(plan.stderr).toContain('agents.yaml:3:');
    expect(plan.summary).toContain('### agentsync plan failed for `agents.yaml`');
    expect(plan.summary).toContain('agents.yaml:3:');
    expect(gh.comments(REPO, pr)[0]?.body).toContain('agents.yaml:3:');
  });

  it('runs in a working directory with extra args: an offline plan needs no key and no server', async () => {
    await mkdir(join(workspace(), 'infra'));
    await writeFile(join(workspace(), 'infra', 'cometchat.yaml'), manifest(['lookup']));
    const pr = ++prNumber;
    const plan = await runAction({ 'working-directory': 'infra', file: 'cometchat.yaml', environments: 'local', args: '--offline' }, { pr });
    expect(plan.stderr).toBe('');
    expect(plan.outputs).toMatchObject({ exitcode: '2', 'has-changes': 'true' });
    expect(await emu.apiRequests()).toEqual([]);
    expect(gh.comments(REPO, pr)[0]?.body).toContain('<!-- agentsync-plan file="infra/cometchat.yaml" environments="local" -->');
  });

  it('with no file input, plans an agents/ folder of parts when there is no agents.yaml', async () => {
    await mkdir(join(workspace(), 'team', 'agents'), { recursive: true });
    const [head, tools] = manifest(['lookup']).split(/^(?=tools:)/m);
    await writeFile(join(workspace(), 'team', 'agents', 'environments.yaml'), head ?? '');
    await writeFile(join(workspace(), 'team', 'agents', 'tools.yaml'), tools ?? '');
    const pr = ++prNumber;
    const plan = await runAction({ 'working-directory': 'team', environments: 'local', args: '--offline' }, { pr });
    expect(plan.stderr).toBe('');
    expect(plan.outputs).toMatchObject({ exitcode: '2', 'has-changes': 'true' });
    expect(gh.comments(REPO, pr)[0]?.body).toContain('<!-- agentsync-plan file="team/agents" environments="local" -->');
  });

  it('with no file input, refuses both an agents.yaml and an agents/ folder in one line (issue 40)', async () => {
    await mkdir(join(workspace(), 'agents'));
    await writeFile(join(workspace(), 'agents', 'tools.yaml'), 'tools: {}\n');
    await writeFile(join(workspace(), 'agents.yaml'), manifest(['lookup']));
    const plan = await runAction({ args: '--offline' });
    expect(plan.code).toBe(1);
    expect(plan.stderr).toBe(
      '::error title=agentsync::both agents.yaml and an agents/ folder are in working-directory ., and either could be the manifest; set the file input to agents.yaml or agents to say which\n',
    );
    expect(plan.outputs).toMatchObject({ exitcode: '1', 'has-changes': 'false' });
  });

  it('an apply that would delete most of what it manages fails, unless allow-mass-delete is true', async () => {
    await writeFile(join(workspace(), 'agents.yaml'), manifest(['lookup', 'notify', 'track', 'escalate']));
    expect((await runAction({ command: 'apply' }, { ...withKey, event: 'push' })).code).toBe(0);
    await writeFile(join(workspace(), 'agents.yaml'), manifest(['lookup']));
    await emu.clearRequests();
    const refused = await runAction({ command: 'apply', args: '--prune' }, { ...withKey, event: 'push' });
    expect(refused.code).toBe(1);
    expect(refused.outputs.exitcode).toBe('1');
    expect(refused.stderr).toContain('Error: apply would delete 3 of the 5 resources agentsync manages in environment "local" from the server; nothing was changed.');
    expect(refused.summary).toContain('Warning: this plan deletes 3 of the 5 resources');
    expect(await emu.apiWrites()).toEqual([]);
    const bad = await runAction({ command: 'apply', 'allow-mass-delete': 'yes' });
    expect(bad.stderr).toBe('::error title=agentsync::allow-mass-delete must be true or false (got "yes")\n');
    const allowed = await runAction({ command: 'apply', args: '--prune', 'allow-mass-delete': 'true' }, { ...withKey, event: 'push' });
    expect(allowed.code, allowed.stderr).toBe(0);
    expect(allowed.stdout).toContain('Apply complete: 0 created, 1 updated, 3 deleted, 0 forgotten.');
  });

  it("prefers the project's own agentsync, and comment: false writes no comment", async () => {
    await writeFile(join(workspace(), 'agents.yaml'), manifest(['lookup']));
    await mkdir(join(workspace(), 'node_modules', '.bin'), { recursive: true });
    const own = join(workspace(), 'node_modules', '.bin', 'agentsync');
    await writeFile(own, `#!/bin/sh\necho "the project's agentsync" >&2\nexec "${process.execPath}" "${join(ROOT, 'dist', 'cli', 'main.cjs')}" "$@"\n`);
    await chmod(own, 0o755);
    const plan = await runAction({ comment: 'false', args: '--offline' });
    expect(plan.stderr).toBe("the project's agentsync\n");
    expect(plan.outputs.exitcode).toBe('2');
    expect(gh.requests).toEqual([]);
  });

  it('diffs two environments nightly: one issue comment, created then updated in place, and differences are not a failure', async () => {
    // Both environments reach the one emulator (AGENTSYNC_BASE_URL); us applied its own description,
    // so eu's server holds a tool whose description is not eu's: drift in eu.
    const lines = ['version: 1', 'environments:', '  us: { appId: local, region: us, vars: { about: "us lookups" } }', '  eu: { appId: local, region: eu, vars: { about: "eu lookups" } }', 'tools:'];
    lines.push('  lookup: { displayName: Lookup, executionText: Working, description: "${var.about}", parameters: {} }');
    await writeFile(join(workspace(), 'agents.yaml'), lines.join('\n') + '\n');
    const applied = await runAction({ command: 'apply', environments: 'us' }, { ...withKey, event: 'push' });
    expect(applied.outputs.exitcode).toBe('0');
    await fetch(`${emu.origin}/__emulator/requests`, { method: 'DELETE' });
    const issue = 7001;
    const first = await runAction({ command: 'diff', environments: 'us, eu', 'issue-number': String(issue) }, { ...withKey, event: 'schedule' });
    expect(first.stderr).toBe('');
    expect(first.code).toBe(0);
    expect(first.outputs).toMatchObject({ exitcode: '2', 'has-changes': 'true', 'comment-url': expect.stringContaining(`#issuecomment-`) });
    expect(first.summary).toContain('### agentsync diff: `us` and `eu`');
    expect(first.stdout).toContain('agentsync: created the diff comment');
    const [comment] = gh.comments(REPO, issue);
    expect(comment?.body).toContain('<!-- agentsync-diff file="agents.yaml" environments="eu,us" -->');
    expect(comment?.body).toContain('| `tool.lookup` | drift in eu |');
    expect(comment?.body).toContain('agentsync plan -e eu');
    // A diff only reads.
    expect(await emu.apiWrites()).toEqual([]);
    const second = await runAction({ command: 'diff', environments: 'us,eu', 'issue-number': String(issue) }, { ...withKey, event: 'schedule' });
    expect(second.outputs.exitcode).toBe('2');
    expect(second.stdout).toContain('agentsync: updated the diff comment');
    expect(gh.comments(REPO, issue)).toHaveLength(1);
    // Without an issue, a scheduled diff writes no comment; a bad issue number is refused.
    gh.requests.length = 0;
    const quiet = await runAction({ command: 'diff', environments: 'us,eu' }, { ...withKey, event: 'schedule' });
    expect(quiet.outputs.exitcode).toBe('2');
    expect(gh.requests).toEqual([]);
    const bad = await runAction({ command: 'diff', environments: 'us,eu', 'issue-number': '12a' }, { ...withKey, event: 'schedule' });
    expect(bad.stderr).toBe('::error title=agentsync::issue-number must be an issue number (got "12a")\n');
  });

  it('refuses a bad input in one line, with exitcode 1', async () => {
    const bad = await runAction({ command: 'destroy' });
    expect(bad.code).toBe(1);
    expect(bad.stderr).toBe('::error title=agentsync::command must be plan, apply or diff (got "destroy")\n');
    expect(bad.outputs).toMatchObject({ exitcode: '1', 'has-changes': 'false' });
  });

  it('run.sh needs no INPUT_ variable: a runner that sets none gets the defaults', async () => {
    const bare = await run(['bash', join(ROOT, 'scripts', 'action', 'run.sh')], workspace(), {
      PATH: process.env.PATH,
      GITHUB_OUTPUT: join(dir, 'bare-output'),
      GITHUB_STEP_SUMMARY: join(dir, 'bare-summary'),
    });
    // No agents.yaml here: agentsync's own one-line error, and the outputs still written.
    expect(bare.code).toBe(1);
    expect(bare.stderr).toMatch(/^Error: .*agents\.yaml.*\n$/);
    expect(await readFile(join(dir, 'bare-output'), 'utf8')).toBe('exitcode=1\nhas-changes=false\n');
    expect(await readFile(join(dir, 'bare-summary'), 'utf8')).toContain('### agentsync plan failed for `agents.yaml`');
  });

  it('fails the step when the comment cannot be written, keeping the plan outputs', async () => {
    await writeFile(join(workspace(), 'agents.yaml'), manifest(['lookup']));
    gh.failWith(403);
    try {
      const plan = await runAction({ args: '--offline' });
      expect(plan.code).toBe(1);
      expect(plan.outputs).toMatchObject({ exitcode: '2', 'has-changes': 'true' });
      expect(plan.stderr).toMatch(/^agentsync: could not list the pull request comments: GitHub answered 403 /);
      expect(plan.summary).toContain('Plan: 2 to create');
    } finally {
      gh.failWith(null);
    }
  });
});

describe('action.yml: apply what was reviewed (plan-file)', () => {
  it('the PR plan saves the plan file and comments its markdown; the merge applies exactly it; a second apply of it is stale', async () => {
    await writeFile(join(workspace(), 'agents.yaml'), manifest(['lookup']));
    const pr = ++prNumber;
    const plan = await runAction({ 'plan-file': 'reviewed.json' }, { ...withKey, pr });
    expect(plan.stderr).toBe('');
    expect(plan.code).toBe(0);
    expect(plan.outputs).toMatchObject({ exitcode: '2', 'has-changes': 'true' });
    const saved = JSON.parse(await readFile(join(workspace(), 'reviewed.json'), 'utf8')) as { savedPlan?: { kind?: string } };
    expect(saved.savedPlan?.kind).toBe('agentsync-plan');
    expect(plan.summary).toContain('### agentsync plan for environment `local`');
    expect(gh.comments(REPO, pr)[0]?.body).toContain('Plan: 2 to create');
    expect(await emu.apiWrites()).toEqual([]);

    const apply = await runAction({ command: 'apply', 'plan-file': 'reviewed.json' }, { ...withKey, event: 'push' });
    expect(apply.code, apply.stderr).toBe(0);
    expect(apply.outputs).toMatchObject({ exitcode: '0', 'has-changes': 'true' });
    expect(apply.stdout).toContain('Apply complete: 2 created, 0 updated, 0 forgotten.');

    // The state moved on: the same plan is stale, and the apply refuses it instead of planning again.
    const writes = (await emu.apiWrites()).length;
    const stale = await runAction({ command: 'apply', 'plan-file': 'reviewed.json' }, { ...withKey, event: 'push' });
    expect(stale.code).toBe(1);
    expect(stale.outputs).toMatchObject({ exitcode: '1' });
    expect(stale.stderr).toMatch(/^Error: saved plan reviewed\.json is stale: a state was created after it was made/m);
    expect((await emu.apiWrites()).length).toBe(writes);
  });

  it('an apply whose plan file is missing fails in one line and never plans', async () => {
    await writeFile(join(workspace(), 'agents.yaml'), manifest(['lookup']));
    const apply = await runAction({ command: 'apply', 'plan-file': 'nowhere.json' }, { ...withKey, event: 'push' });
    expect(apply.code).toBe(1);
    expect(apply.stderr).toBe(
      '::error title=agentsync::plan-file nowhere.json does not exist: apply takes only the plan that was reviewed and never plans again; make one with command: plan and plan-file on the pull request\n',
    );
    expect(apply.outputs).toMatchObject({ exitcode: '1', 'has-changes': 'false' });
    expect(await emu.apiRequests()).toEqual([]);
  });

  it('plan-file needs exactly one environment', async () => {
    await writeFile(join(workspace(), 'agents.yaml'), manifest(['lookup']));
    const plan = await runAction({ 'plan-file': 'p.json', 'all-environments': 'true' }, withKey);
    expect(plan.code).toBe(1);
    expect(plan.stderr).toBe('::error title=agentsync::plan-file needs exactly one environment (got "all environments")\n');
  });
});

describe('action.yml: untrusted output cannot issue workflow commands', () => {
  // The manifest comes from the pull request, and the server's answers from outside: what agentsync
  // prints runs inside `::stop-commands::<random token>` … `::<token>::`, so even a line that slipped
  // past the escaping would be shown, not obeyed.
  const hostile = (last: string) =>
    manifest(['lookup']).replace('helper: { name: Helper,', `helper: { instruction: ${JSON.stringify(['Hi', '::add-mask::x', '  ::error::pwned', last].join('\n'))}, name: Helper,`);

  /** The token of the one stop-commands region, checking that nothing outside it is a command. */
  function stopRegion(stdout: string): string {
    const lines = stdout.split('\n');
    const start = lines.findIndex((line) => /^::stop-commands::[0-9a-f]{32}$/.test(line));
    expect(start, stdout).toBeGreaterThanOrEqual(0);
    const token = (lines[start] ?? '').slice('::stop-commands::'.length);
    const end = lines.indexOf(`::${token}::`);
    expect(end, stdout).toBeGreaterThan(start);
    const outside = [...lines.slice(0, start), ...lines.slice(end + 1)];
    expect(outside.filter((line) => /^\s*::/.test(line))).toEqual([]);
    return token;
  }

  it('wraps a plan and an apply, each with a fresh token', async () => {
    await writeFile(join(workspace(), 'agents.yaml'), hostile('one'));
    const plan = await runAction({ environments: 'local' }, withKey);
    expect(plan.code).toBe(0);
    expect(plan.stdout).toContain('Plan: 2 to create');
    const planToken = stopRegion(plan.stdout);
    const apply = await runAction({ command: 'apply' }, { ...withKey, event: 'push' });
    expect(apply.code).toBe(0);
    expect(apply.stdout).toContain('Apply complete');
    expect(stopRegion(apply.stdout)).not.toBe(planToken);
    await writeFile(join(workspace(), 'agents.yaml'), hostile('two'));
    const update = await runAction({ environments: 'local' }, withKey);
    expect(update.outputs.exitcode).toBe('2');
    stopRegion(update.stdout);
    expect(update.stdout).toContain('\\u003a:error::pwned');
  });
});
