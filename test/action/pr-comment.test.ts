// The action's comment step (scripts/action/pr-comment.mjs) as a runner runs it, against a local
// stand-in for GitHub's REST API: one comment per manifest and environments, found again by its
// marker across pages and updated in place; failures are one line and exit 1; the token never shows.
import { spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startFakeGitHub, type FakeGitHub } from './fake-github.js';

const SCRIPT = fileURLToPath(new URL('../../scripts/action/pr-comment.mjs', import.meta.url));
const TOKEN = 'ghs_fakeToken0123456789abcdefXYZ';
const REPO = 'acme/agents';

let gh: FakeGitHub;
let dir: string;
beforeAll(async () => {
  gh = await startFakeGitHub();
});
afterAll(() => gh.close());
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'agentsync-comment-'));
  gh.requests.length = 0;
  gh.failWith(null);
});
afterEach(() => rm(dir, { recursive: true, force: true }));

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** A port nothing listens on: one the system just gave out and took back. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

let prNumber = 1;
const nextPr = () => ++prNumber;

async function event(number: number, options: { fork?: boolean; name?: string } = {}): Promise<Record<string, string>> {
  const payload = {
    number,
    pull_request: {
      number,
      head: { sha: 'abcdef0123456789', repo: { full_name: options.fork ? 'mallory/agents' : REPO } },
      base: { repo: { full_name: REPO } },
    },
  };
  const path = join(dir, 'event.json');
  await writeFile(path, JSON.stringify(payload));
  return { GITHUB_EVENT_PATH: path, GITHUB_EVENT_NAME: options.name ?? 'pull_request' };
}

async function comment(args: string[], env: Record<string, string>, plan = '### agentsync plan for environment `us`\n\nPlan: 1 to create\n'): Promise<Run> {
  await writeFile(join(dir, 'plan.md'), plan);
  const child = spawn(process.execPath, [SCRIPT, '--plan-file', join(dir, 'plan.md'), ...args], {
    env: { PATH: process.env.PATH, GITHUB_API_URL: gh.url, GITHUB_TOKEN: TOKEN, GITHUB_REPOSITORY: REPO, GITHUB_OUTPUT: join(dir, 'output'), ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  // Whatever happened, the token appears nowhere a log would keep.
  expect(stdout + stderr).not.toContain(TOKEN);
  return { code, stdout, stderr };
}

describe('the pull request comment step', () => {
  it('creates the comment on the first run and updates that same comment on the next', async () => {
    const pr = nextPr();
    const first = await comment(['--manifest', 'agents.yaml', '--environments', 'us'], await event(pr));
    expect(first.stderr).toBe('');
    expect(first.code).toBe(0);
    expect(first.stdout).toMatch(/^agentsync: created the plan comment https:\/\/github\.example\/acme\/agents\/pull\/\d+#issuecomment-\d+\n$/);
    const [created] = gh.comments(REPO, pr);
    expect(gh.comments(REPO, pr)).toHaveLength(1);
    expect(created?.body).toContain('<!-- agentsync-plan file="agents.yaml" environments="us" -->');
    expect(created?.body).toContain('Plan: 1 to create');
    expect(created?.body).toContain('at abcdef0');
    expect(gh.requests.map((r) => r.authorization)).toEqual([`Bearer ${TOKEN}`, `Bearer ${TOKEN}`]);

    const second = await comment(['--manifest', 'agents.yaml', '--environments', 'us'], await event(pr), '### agentsync plan for environment `us`\n\nNo changes.\n');
    expect(second.code).toBe(0);
    expect(second.stdout).toContain(`updated the plan comment ${created?.html_url}`);
    expect(gh.comments(REPO, pr)).toHaveLength(1);
    expect(gh.comments(REPO, pr)[0]?.body).toContain('No changes.');
    expect(gh.comments(REPO, pr)[0]?.body).not.toContain('Plan: 1 to create');
    expect(gh.requests.filter((r) => r.method === 'PATCH').map((r) => r.url)).toEqual([`/repos/${REPO}/issues/comments/${created?.id}`]);
  });

  it('keeps one comment per manifest and set of environments, whatever their order', async () => {
    const pr = nextPr();
    const env = await event(pr);
    await comment(['--manifest', 'agents.yaml', '--environments', 'us,eu'], env);
    await comment(['--manifest', 'agents.yaml', '--environments', 'eu us'], env);
    await comment(['--manifest', 'teams/support/agents.yaml', '--environments', 'us,eu'], env);
    await comment(['--manifest', 'agents.yaml', '--environments', 'us'], env);
    const bodies = gh.comments(REPO, pr).map((c) => c.body.split('\n')[0]);
    expect(bodies).toEqual([
      '<!-- agentsync-plan file="agents.yaml" environments="eu,us" -->',
      '<!-- agentsync-plan file="teams/support/agents.yaml" environments="eu,us" -->',
      '<!-- agentsync-plan file="agents.yaml" environments="us" -->',
    ]);
  });

  it('finds its comment on a later page of a long conversation', async () => {
    const pr = nextPr();
    gh.seed(
      REPO,
      pr,
      Array.from({ length: 230 }, (_, i) => `a review comment ${i}`),
    );
    gh.seed(REPO, pr, ['<!-- agentsync-plan file="agents.yaml" environments="" -->\nold plan']);
    gh.seed(
      REPO,
      pr,
      Array.from({ length: 20 }, (_, i) => `a later comment ${i}`),
    );
    const run = await comment(['--manifest', 'agents.yaml'], await event(pr));
    expect(run.stderr).toBe('');
    expect(run.stdout).toContain('updated the plan comment');
    expect(gh.comments(REPO, pr)).toHaveLength(251);
    expect(gh.comments(REPO, pr)[230]?.body).toContain('Plan: 1 to create');
    // Pages 1, 2 and 3 were read by following the Link header; nothing was created.
    expect(gh.requests.filter((r) => r.method === 'GET').map((r) => new URL(r.url, 'http://x').searchParams.get('page'))).toEqual([null, '2', '3']);
    expect(gh.requests.filter((r) => r.method === 'POST')).toEqual([]);
  });

  it('a marker cannot be closed early by the path: -- and quotes are encoded', async () => {
    const pr = nextPr();
    await comment(['--manifest', 'odd--dir/"x" -->.yaml'], await event(pr));
    const first = gh.comments(REPO, pr)[0]?.body.split('\n')[0] ?? '';
    expect(first).toBe('<!-- agentsync-plan file="odd%2D%2Ddir/%22x%22%20%2D%2D%3E.yaml" environments="" -->');
    expect(first.indexOf('-->')).toBe(first.length - 3);
  });

  it('a failed plan shows its error in the comment', async () => {
    const pr = nextPr();
    await writeFile(join(dir, 'stderr.txt'), 'Error: agents.yaml is not valid (1 error):\nagents.yaml:3:5: error: bad\n');
    const run = await comment(['--manifest', 'agents.yaml', '--exitcode', '1', '--error-file', join(dir, 'stderr.txt')], await event(pr), '');
    expect(run.code).toBe(0);
    const body = gh.comments(REPO, pr)[0]?.body ?? '';
    expect(body).toContain('### agentsync plan failed for `agents.yaml`');
    expect(body).toContain('agents.yaml:3:5: error: bad');
  });

  it('an API error is one clear line and exit 1', async () => {
    const pr = nextPr();
    gh.failWith(403);
    const run = await comment(['--manifest', 'agents.yaml'], await event(pr));
    expect(run.code).toBe(1);
    expect(run.stdout).toBe('');
    expect(run.stderr).toBe(`agentsync: could not list the pull request comments: GitHub answered 403 Resource not accessible by integration (GET /repos/${REPO}/issues/${pr}/comments)\n`);
  });

  it('an unreachable API is one clear line and exit 1', async () => {
    const pr = nextPr();
    const port = await closedPort();
    const run = await comment(['--manifest', 'agents.yaml'], { ...(await event(pr)), GITHUB_API_URL: `http://127.0.0.1:${port}` });
    expect(run.code).toBe(1);
    expect(run.stderr).toBe(`agentsync: could not list the pull request comments: no answer from 127.0.0.1:${port} (ECONNREFUSED)\n`);
  });

  it('a missing token says so, in one line, before any request', async () => {
    const run = await comment(['--manifest', 'agents.yaml'], { ...(await event(nextPr())), GITHUB_TOKEN: '' });
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/^agentsync: GITHUB_TOKEN is not set.*\n$/);
    expect(gh.requests).toEqual([]);
  });

  it('skips pull requests from forks, whose token cannot comment, and events that are not pull requests', async () => {
    const fork = await comment(['--manifest', 'agents.yaml'], await event(nextPr(), { fork: true }));
    expect(fork.code).toBe(0);
    expect(fork.stdout).toContain('comes from the fork mallory/agents');
    await writeFile(join(dir, 'push.json'), JSON.stringify({ ref: 'refs/heads/main' }));
    const push = await comment(['--manifest', 'agents.yaml'], { GITHUB_EVENT_PATH: join(dir, 'push.json'), GITHUB_EVENT_NAME: 'push' });
    expect(push.code).toBe(0);
    expect(push.stdout).toContain('not a pull request');
    expect(gh.requests).toEqual([]);
    // pull_request_target runs with a writable token, so a fork's pull request gets its comment there.
    const target = await comment(['--manifest', 'agents.yaml'], await event(nextPr(), { fork: true, name: 'pull_request_target' }));
    expect(target.stdout).toContain('created the plan comment');
  });

  it('refuses unknown options in one line', async () => {
    const run = await comment(['--manifest', 'agents.yaml', '--bogus'], await event(nextPr()));
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/^agentsync: Unknown option '--bogus'[^\n]*\n$/);
    expect(gh.requests).toEqual([]);
  });
});
