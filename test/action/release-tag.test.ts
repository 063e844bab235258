// scripts/release-tag.sh (docs/spec/distribution.md#github-action): a release tag carries the built
// dist/, so the GitHub Action taken from it runs with no `npm ci`. In a clone of this repository
// (its committed files; the dist/ this test run built is copied in, as --no-build expects), the tag
// is cut, then the action is checked out from the tag alone, as a runner does, and planned with an
// `npm` on PATH that fails.
import { spawn } from 'node:child_process';
import { chmod, cp, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

let dir: string;
let repo: string;
let version: string;

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

function run(argv: string[], cwd: string, env: NodeJS.ProcessEnv = {}): Promise<Run> {
  return new Promise((resolve, reject) => {
    const identity = { GIT_AUTHOR_NAME: 'release', GIT_AUTHOR_EMAIL: 'release@example.invalid', GIT_COMMITTER_NAME: 'release', GIT_COMMITTER_EMAIL: 'release@example.invalid' };
    const child = spawn(argv[0] as string, argv.slice(1), { cwd, env: { PATH: process.env.PATH, HOME: dir, ...identity, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

const git = async (args: string[], cwd = repo): Promise<string> => {
  const result = await run(['git', ...args], cwd);
  if (result.code !== 0) throw new Error(`git ${args.join(' ')}: ${result.stderr}`);
  return result.stdout.trim();
};

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'agentsync-release-'));
  repo = join(dir, 'repo');
  version = (JSON.parse(await readFile(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;
  await git(['clone', '-q', '--no-hardlinks', ROOT, repo], dir);
  // The working tree's committed files as they are now (a clone takes HEAD; a test run may be ahead of it).
  for (const file of ['scripts/release-tag.sh', 'scripts/action/run.sh', 'scripts/action/pr-comment.mjs', 'action.yml', 'package.json']) await cp(join(ROOT, file), join(repo, file));
  if ((await git(['status', '--porcelain'])) !== '') await git(['commit', '-qam', 'as in the working tree']);
  for (const shipped of ['dist/cli/main.cjs', 'dist/cli/agentsync.cjs', 'dist/cli/vendor', 'dist/index.js', 'dist/types']) {
    await mkdir(dirname(join(repo, shipped)), { recursive: true });
    await cp(join(ROOT, shipped), join(repo, shipped), { recursive: true });
  }
}, 60_000);
afterAll(() => rm(dir, { recursive: true, force: true }));

describe('scripts/release-tag.sh', () => {
  it('tags a commit on top of HEAD that carries dist/, leaving the branch and the working tree as they were', async () => {
    const head = await git(['rev-parse', 'HEAD']);
    const cut = await run(['bash', 'scripts/release-tag.sh', '--no-build'], repo);
    expect(cut.stderr).toBe('');
    expect(cut.code).toBe(0);
    expect(cut.stdout).toContain(`tagged v${version} and v${version.split('.')[0]}`);
    expect(await git(['rev-parse', 'HEAD'])).toBe(head);
    expect(await git(['rev-parse', `v${version}^{commit}^`])).toBe(head);
    expect(await git(['rev-parse', `v${version}^{commit}`])).toBe(await git(['rev-parse', `v${version.split('.')[0]}^{commit}`]));
    expect(await git(['status', '--porcelain'])).toBe('');
    const tagged = (await git(['ls-tree', '-r', '--name-only', `v${version}`])).split('\n');
    for (const file of ['dist/cli/main.cjs', 'dist/cli/agentsync.cjs', 'dist/cli/vendor/undici.cjs', 'dist/cli/vendor/pg.cjs', 'dist/index.js', 'dist/types/index.d.ts', 'action.yml'])
      expect(tagged).toContain(file);
    expect(tagged.filter((f) => f.startsWith('dist/') && (f.endsWith('.map') || (f.includes('/core/') && !f.startsWith('dist/types/'))))).toEqual([]);
    expect((await git(['ls-tree', '-r', '--name-only', 'HEAD'])).split('\n').filter((f) => f.startsWith('dist/'))).toEqual([]);

    // Once only.
    const again = await run(['bash', 'scripts/release-tag.sh', '--no-build'], repo);
    expect(again).toMatchObject({ code: 1, stderr: `release-tag: tag v${version} already exists\n` });
  });

  it('the action checked out from the tag plans with no npm at all', async () => {
    const action = join(dir, 'action');
    const workspace = join(dir, 'workspace');
    const fakeBin = join(dir, 'fake-bin');
    await Promise.all([mkdir(action), mkdir(workspace), mkdir(fakeBin)]);
    // What a runner does with `uses: OWNER/agentsync@vX.Y.Z`: the tag's tree, nothing installed.
    await git(['--work-tree', action, 'checkout', `v${version}`, '--', '.']);
    await git(['reset', '-q']);
    await writeFile(join(fakeBin, 'npm'), `#!/bin/sh\necho "npm was called: $*" >> "${join(dir, 'npm-calls')}"\nexit 1\n`);
    await writeFile(join(fakeBin, 'npx'), `#!/bin/sh\necho "npx was called: $*" >> "${join(dir, 'npm-calls')}"\nexit 1\n`);
    await Promise.all([chmod(join(fakeBin, 'npm'), 0o755), chmod(join(fakeBin, 'npx'), 0o755)]);
    await writeFile(
      join(workspace, 'agents.yaml'),
      'version: 1\nenvironments:\n  local: { appId: local, region: us }\ntools:\n  lookup: { displayName: Lookup, executionText: Looking, description: Looks up, parameters: {} }\nagents: {}\n',
    );
    const output = join(dir, 'output');
    const summary = join(dir, 'summary');
    const plan = await run(['bash', join(action, 'scripts', 'action', 'run.sh')], workspace, {
      PATH: `${fakeBin}:${dirname(process.execPath)}:/usr/bin:/bin`,
      GITHUB_ACTION_PATH: action,
      GITHUB_WORKSPACE: workspace,
      GITHUB_OUTPUT: output,
      GITHUB_STEP_SUMMARY: summary,
      RUNNER_TEMP: dir,
      INPUT_ARGS: '--offline',
    });
    expect(plan.stderr).toBe('');
    expect(await readFile(output, 'utf8')).toBe('exitcode=2\nhas-changes=true\n');
    expect(await readFile(summary, 'utf8')).toContain('Plan: 1 to create');
    expect(await readFile(join(dir, 'npm-calls'), 'utf8').catch(() => 'never called')).toBe('never called');
  });
});
