// What only a process shows. The built CLI (dist/cli/main.cjs) runs as a child against the
// in-process emulator over real HTTP, on real files, where the process itself is the subject:
// - a reader that hangs up (`| head`): the EPIPE that follows never crashes a command or cuts an
//   apply short (issue 20);
// - a manifest from a pipe, process substitution or the process's own stdin (issue 10, item 16);
// - two processes applying one state at once: one proceeds, the other names the holder's pid;
// - 10,000 discovered URLs in bounded memory: the process's peak RSS, from /usr/bin/time.
// The rest of the torture suites run the CLI in this process (test/support/cli.ts, runCli).
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateManifest } from '../../bench/generate.mjs';
import { assertBuilt, cliEnv, CLI, collect, runCli, startCli, type CliResult } from '../support/cli.js';
import { API_KEY, startTestEmulator, type TestEmulator } from '../support/emulator.js';
import { makeWorkspace, STACK_TRACE, type Workspace } from './helpers.js';
import { CARD_TOOL, HEADER, leftoverTemps, manifestProject, smallProjects, type SmallProject } from './hardening-helpers.js';

const TIME = '/usr/bin/time';

let emulator: TestEmulator;
let ws: Workspace;

beforeAll(async () => {
  assertBuilt();
  emulator = await startTestEmulator();
  ws = makeWorkspace('agentsync-processes-');
});

afterAll(async () => {
  await emulator?.close();
  ws?.remove();
});

const project = smallProjects(
  () => ws,
  () => emulator.env,
  'p',
);

/** No crash report of any kind on stderr. */
function expectNoCrash(result: CliResult): void {
  expect(result.stderr).not.toMatch(STACK_TRACE);
  expect(result.stderr).not.toMatch(/EPIPE|Unhandled 'error'|internal error/);
}

/**
 * Runs `agentsync ARGS | head -c 200` through a real pipe: once head has its bytes it exits, and
 * every later write of the CLI meets a closed pipe. The result is the CLI's own exit code and
 * stderr, and the bytes head passed on.
 */
function runIntoHead(args: string[], cwd: string): Promise<CliResult> {
  const script = '"$@" | head -c 200; exit "${PIPESTATUS[0]}"';
  const child = spawn('bash', ['-c', script, 'pipeline', process.execPath, CLI, ...args], { cwd, env: cliEnv(emulator.env), stdio: ['ignore', 'pipe', 'pipe'] });
  return collect(child, 90_000);
}

describe('a reader that hangs up (| head) never crashes a command or cuts an apply short', () => {
  let big: SmallProject;
  beforeAll(async () => {
    // 2,000 tools: every listing below is far larger than a pipe's 64 KiB buffer.
    big = project('v1', 2000);
    const applied = await big.cli(['apply', '--auto-approve', ...big.args]);
    expect(applied.code, applied.stderr).toBe(0);
  });

  const readers: [string, (p: SmallProject) => string[]][] = [
    ['plan --offline --json', (p) => ['plan', '--offline', '--json', ...p.args]],
    ['plan --out -', (p) => ['plan', '--offline', '--out', '-', ...p.args]],
    ['state list', (p) => ['state', 'list', ...p.args]],
    ['export', (p) => ['export', '-f', p.manifest, '-e', 'local']],
  ];
  for (const [name, argsOf] of readers) {
    it(`${name} exits quietly`, async () => {
      if (name.startsWith('plan')) big.write('v2 changes the agent', 2000);
      const result = await runIntoHead(argsOf(big), big.dir);
      expectNoCrash(result);
      expect([0, 2, 141], `${name}: ${result.stderr}`).toContain(result.code);
      expect(result.stdout.length).toBeGreaterThan(0);
      expect(leftoverTemps(big.dir)).toEqual([]);
    });
  }

  it('apply --auto-approve finishes and records every change, and leaves no temporary file', async () => {
    const p = project('v1', 40);
    expect((await p.cli(['apply', '--auto-approve', ...p.args])).code).toBe(0);
    p.write('v2 with a new instruction', 80);
    // Slow enough that most of the progress lines are written after the reader is gone.
    await emulator.configure({ latencyMs: 15 });
    let result: CliResult;
    try {
      result = await runIntoHead(['apply', '--auto-approve', '--concurrency', '2', ...p.args], p.dir);
    } finally {
      await emulator.configure({ latencyMs: 0 });
    }
    expectNoCrash(result);
    expect([0, 141], result.stderr).toContain(result.code);
    const state = JSON.parse(readFileSync(p.state, 'utf8')) as { resources: Record<string, unknown>; pending?: Record<string, unknown> };
    expect(Object.keys(state.resources)).toHaveLength(81);
    expect(state.pending ?? {}).toEqual({});
    expect(leftoverTemps(p.dir)).toEqual([]);
    expect(existsSync(`${p.state}.lock`)).toBe(false);
    expect(existsSync(`${p.state}.journal`) ? readFileSync(`${p.state}.journal`, 'utf8') : '').toBe('');
    const again = await p.cli(['plan', '--detailed-exitcode', ...p.args]);
    expect(again.code, again.stdout + again.stderr).toBe(0);
  });
});

const projectWith = (manifest: string): ReturnType<typeof manifestProject> => manifestProject(ws, manifest);

describe("a manifest from a pipe, process substitution or the process's own stdin (issue 10, item 16)", () => {
  const manifest = `${HEADER}${CARD_TOOL}`;

  /** Runs the CLI through bash, for pipes and process substitution. */
  function viaShell(script: string, cwd: string): Promise<CliResult> {
    const child = spawn('bash', ['-c', script], { cwd, env: { ...cliEnv(), AGENTSYNC_CLI: CLI, NODE: process.execPath }, stdio: ['ignore', 'pipe', 'pipe'] });
    return collect(child, 60_000);
  }

  it.each([
    ['-f <(cat agents.yaml)', '"$NODE" "$AGENTSYNC_CLI" validate -f <(cat agents.yaml)'],
    ['-f /dev/stdin', 'cat agents.yaml | "$NODE" "$AGENTSYNC_CLI" validate -f /dev/stdin'],
    ['-f -', 'cat agents.yaml | "$NODE" "$AGENTSYNC_CLI" validate -f -'],
  ])('validates %s', async (_name, script) => {
    const p = projectWith(manifest);
    const result = await viaShell(script, p.dir);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain('is valid');
  });

  it('names <stdin> in diagnostics for -f -', async () => {
    const p = projectWith(`${HEADER}tools:\n  t:\n    displayname: x\n`);
    const result = await viaShell('cat agents.yaml | "$NODE" "$AGENTSYNC_CLI" validate -f -', p.dir);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^<stdin>:6:5: error: unknown key "displayname"/m);
  });

  it('plans from a pipe with the default state path in the current folder', async () => {
    const p = projectWith(manifest);
    const result = await viaShell('cat agents.yaml | "$NODE" "$AGENTSYNC_CLI" plan --offline -f -', p.dir);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain('Plan: 1 to create');
  });

  it('keeps the 10 MB limit while streaming', async () => {
    const p = projectWith(manifest);
    const result = await viaShell('{ cat agents.yaml; head -c 11000000 /dev/zero | tr "\\0" "#"; } | "$NODE" "$AGENTSYNC_CLI" validate -f -', p.dir);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^<stdin>:1:1: error: .*at most 10 MB/m);
  });
});

describe('two processes applying one state at once', () => {
  it('lets exactly one of two concurrent applies on one state proceed; the other names the lock holder', async () => {
    const dir = ws.path('lock');
    mkdirSync(dir);
    const manifest = join(dir, 'agents.yaml');
    const state = join(dir, 'state.json');
    writeFileSync(manifest, generateManifest({ count: 40, seed: 9, agentShare: 0, websites: 0 }));
    await emulator.reset(); // a fresh state against a server that already holds these names would be a conflict
    await emulator.configure({ latencyMs: 50 });
    try {
      const args = ['apply', '--auto-approve', '--concurrency', '2', '-f', manifest, '--state', state];
      const first = startCli(args, { env: emulator.env });
      const second = startCli(args, { env: emulator.env });
      const [a, b] = await Promise.all([first.done, second.done]);
      const results = [
        { pid: first.child.pid, other: second.child.pid, result: a },
        { pid: second.child.pid, other: first.child.pid, result: b },
      ];
      expect(results.map((r) => r.result.code).sort()).toEqual([0, 1]);
      const loser = results.find((r) => r.result.code === 1);
      expect(loser?.result.stderr).toMatch(/lock/i);
      expect(loser?.result.stderr).toContain(`pid ${loser?.other}`);
      expect(loser?.result.stderr).not.toMatch(STACK_TRACE);
    } finally {
      await emulator.configure({ latencyMs: 0 });
    }
  });
});

describe('10,000 discovered URLs', () => {
  let emu: TestEmulator;
  let kbWs: Workspace;
  const env = (extra: Record<string, string> = {}): Record<string, string> => ({ COMETCHAT_API_KEY: API_KEY, AGENTSYNC_BASE_URL: emu.url, AGENTSYNC_KB_POLL_MS: '100', ...extra });
  beforeAll(async () => {
    emu = await startTestEmulator({ kb: { kbProcessingMs: 200 } });
    kbWs = makeWorkspace('agentsync-kb-rss-');
  });
  afterAll(async () => {
    await emu.close();
    kbWs.remove();
  });

  it('10,000 discovered URLs: paged, refreshed, waited for and listed, in bounded memory', async () => {
    const seeded = await fetch(`${emu.origin}/__emulator/kb/websites`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ count: 10_000, url: 'https://big.example.com' }),
    });
    const { parentUniqueId } = (await seeded.json()) as { parentUniqueId: string };
    writeFileSync(
      kbWs.path('agents.yaml'),
      `version: 1\nenvironments:\n  local: { appId: local, region: us }\nknowledgeBase:\n  websites:\n    big: { parentUniqueId: ${parentUniqueId}, exclude: [] }\n`,
    );
    const applied = await measured(['apply', '--auto-approve', '--wait'], kbWs.dir, env({ AGENTSYNC_KB_POLL_MS: '300' }));
    expect(applied.result.code, applied.result.stderr).toBe(0);
    expect(applied.result.stdout).toContain('Indexing complete: 10000 processed, 0 failed');
    const plan = await measured(['plan'], kbWs.dir, env());
    expect(plan.result.stdout).toContain('No changes.');
    const status = await measured(['kb', 'status', '--urls'], kbWs.dir, env());
    expect(status.result.stdout).toContain('website.big: 10000 URLs (0 discovered, 0 processing, 10000 processed, 0 failed, 0 skipped)');
    expect(status.result.stdout.split('\n').filter((line) => line.includes('https://big.example.com/page/'))).toHaveLength(10_000);
    const pages = (await emu.requests()).filter((r) => r.method === 'GET' && r.path.includes('/discovered-urls'));
    expect(pages.length).toBeGreaterThanOrEqual(300); // 100 pages for each of the three reads
    for (const run of [applied, plan, status]) if (run.maxRssKb !== undefined) expect(run.maxRssKb).toBeLessThan(300_000);
    console.log(`10,000 URLs peak RSS (KB): apply --wait ${applied.maxRssKb}, plan ${plan.maxRssKb}, kb status --urls ${status.maxRssKb}`);
  });
});

/** The CLI under /usr/bin/time, for its peak RSS; without it, the run alone. */
async function measured(args: string[], cwd: string, extra: Record<string, string>): Promise<{ result: CliResult; maxRssKb: number | undefined }> {
  const full = [CLI, ...args, '--state', 'state.json'];
  if (!existsSync(TIME)) return { result: await runCli([...args, '--state', 'state.json'], { cwd, env: extra }), maxRssKb: undefined };
  const child = spawn(TIME, ['-f', 'MAXRSS_KB=%M', process.execPath, ...full], { cwd, env: cliEnv(extra), stdio: ['ignore', 'pipe', 'pipe'] });
  const result = await collect(child, 120_000);
  const match = /MAXRSS_KB=(\d+)/.exec(result.stderr);
  result.stderr = result.stderr.replace(/MAXRSS_KB=\d+\n?/, '');
  return { result, maxRssKb: match ? Number(match[1]) : undefined };
}
