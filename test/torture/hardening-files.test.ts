// Hostile files around the state and the plan file (issue 10): symlinks planted at the names
// agentsync writes, odd `plan --out` targets, a journal from another state, a symlinked or
// directory `--state`, and lock debris. Each case runs the CLI in this process against real files
// and checks that nothing outside the intended file is written and that a refusal is one clear line.
import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, readlinkSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { hostname } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, startCliInProcess, type CliResult } from '../support/cli.js';
import { startTestEmulator, type TestEmulator } from '../support/emulator.js';
import { waitFor } from '../support/wait.js';
import { makeWorkspace, type Workspace } from './helpers.js';
import { expectOneLineRefusal, kindOf, leftoverTemps, smallManifest } from './hardening-helpers.js';

let emulator: TestEmulator;
let ws: Workspace;
let projects = 0;

beforeAll(async () => {
  emulator = await startTestEmulator();
  ws = makeWorkspace('agentsync-hardening-');
});

afterAll(async () => {
  await emulator?.close();
  ws?.remove();
});

interface Project {
  dir: string;
  manifest: string;
  state: string;
  /** `-f manifest --state state` */
  args: string[];
  /** Rewrites the manifest with another instruction (and tool count). */
  write(instruction: string, tools?: number): void;
  cli(args: string[], cwd?: string): Promise<CliResult>;
}

function project(instruction = 'v1', tools = 2): Project {
  const name = `p${++projects}`;
  const dir = ws.path(name);
  mkdirSync(dir);
  const manifest = join(dir, 'agents.yaml');
  const write = (text: string, count = tools): void => writeFileSync(manifest, smallManifest(name, text, count));
  write(instruction);
  const state = join(dir, 'state.json');
  return { dir, manifest, state, args: ['-f', manifest, '--state', state], write, cli: (args, cwd) => runCli(args, { env: emulator.env, cwd }) };
}

describe('atomic writes never follow a planted symlink (item 2)', () => {
  it('leaves the targets of symlinks at the old temporary names untouched and writes regular files', async () => {
    const p = project();
    expect((await p.cli(['apply', '--auto-approve', ...p.args])).code).toBe(0);
    const victims = ['victim-tmp', 'victim-backup-tmp'].map((name) => {
      const path = join(p.dir, name);
      writeFileSync(path, `precious ${name}\n`);
      return path;
    });
    symlinkSync(victims[0]!, `${p.state}.tmp`);
    symlinkSync(victims[1]!, `${p.state}.backup.tmp`);
    p.write('v2');
    const applied = await p.cli(['apply', '--auto-approve', ...p.args]);
    expect(applied.code, applied.stderr).toBe(0);
    for (const victim of victims) expect(readFileSync(victim, 'utf8')).toMatch(/^precious /);
    expect(kindOf(p.state)).toBe('file');
    expect(kindOf(`${p.state}.backup`)).toBe('file');
    expect(JSON.parse(readFileSync(p.state, 'utf8'))).toMatchObject({ serial: 2 });
    // Our own temporary files are gone; the planted links are not ours to remove.
    expect(leftoverTemps(p.dir).sort()).toEqual(['state.json.backup.tmp', 'state.json.tmp']);
  });

  it('refuses a symlink planted at the journal instead of appending through it', async () => {
    const p = project();
    expect((await p.cli(['apply', '--auto-approve', ...p.args])).code).toBe(0);
    // Empty, so that appending through the link would look like a fresh journal.
    const victim = join(p.dir, 'victim-journal');
    writeFileSync(victim, '');
    symlinkSync(victim, `${p.state}.journal`);
    const before = readFileSync(p.state, 'utf8');
    p.write('v2');
    const line = expectOneLineRefusal(await p.cli(['apply', '--auto-approve', ...p.args]));
    expect(line).toContain(`${p.state}.journal`);
    expect(line).toMatch(/symbolic link/);
    expect(readFileSync(victim, 'utf8')).toBe('');
    expect(readFileSync(p.state, 'utf8')).toBe(before);
  });
});

describe('plan --out targets (item 3)', () => {
  const servers: Server[] = [];
  afterAll(() => servers.forEach((s) => s.close()));

  async function makeTarget(kind: string, path: string): Promise<void> {
    if (kind === 'char device')
      execFileSync('mknod', [path, 'c', '1', '3']); // what /dev/null is
    else if (kind === 'fifo') execFileSync('mkfifo', [path]);
    else if (kind === 'directory') mkdirSync(path);
    else if (kind === 'symlink to /proc/self/fd/1') symlinkSync('/proc/self/fd/1', path);
    else if (kind === 'symlink to a file') {
      writeFileSync(`${path}-target`, 'precious\n');
      symlinkSync(`${path}-target`, path);
    } else if (kind === 'socket') {
      const server = createServer();
      servers.push(server);
      await new Promise<void>((resolve) => server.listen(path, resolve));
    }
  }

  it.each(['char device', 'fifo', 'socket', 'directory', 'symlink to /proc/self/fd/1', 'symlink to a file'])('refuses a %s in one line and leaves it as it was', async (kind) => {
    const p = project();
    const out = join(p.dir, 'out');
    await makeTarget(kind, out);
    const kindBefore = kindOf(out);
    const line = expectOneLineRefusal(await p.cli(['plan', '--out', out, ...p.args]));
    expect(line).toContain(out);
    expect(kindOf(out)).toBe(kindBefore);
    if (kind === 'symlink to a file') expect(readFileSync(`${out}-target`, 'utf8')).toBe('precious\n');
    if (kindBefore === 'symlink') expect(readlinkSync(out)).toBeTruthy();
    expect(leftoverTemps(p.dir)).toEqual([]);
  });

  it('names a missing folder in one line and leaves nothing behind', async () => {
    const p = project();
    const out = join(p.dir, 'missing', 'dir', 'plan.json');
    const line = expectOneLineRefusal(await p.cli(['plan', '--out', out, ...p.args]));
    expect(line).toContain(join(p.dir, 'missing', 'dir'));
    expect(line).toMatch(/does not exist/);
    expect(readdirSync(p.dir).sort()).toEqual(['agents.yaml']);
  });

  it.each(['-', '/dev/stdout'])('writes the plan file JSON to stdout for --out %s', async (out) => {
    const p = project();
    const planned = await p.cli(['plan', '--out', out, ...p.args], p.dir);
    expect(planned.code, planned.stderr).toBe(0);
    const planFile = JSON.parse(planned.stdout) as { savedPlan?: { kind?: string }; changes?: unknown[] };
    expect(planFile.savedPlan?.kind).toBe('agentsync-plan');
    expect(planFile.changes?.length).toBeGreaterThan(0);
    expect(planned.stderr).toContain('Plan:'); // the readable plan moves to stderr
    expect(readdirSync(p.dir).sort()).toEqual(['agents.yaml']);
    // What went to stdout is a plan file apply accepts.
    const saved = join(p.dir, 'saved.json');
    writeFileSync(saved, planned.stdout);
    const applied = await p.cli(['apply', '--auto-approve', ...p.args, saved]);
    expect(applied.code, applied.stderr).toBe(0);
  });
});

describe('apply PLANFILE that is not a regular file', () => {
  it('refuses a FIFO in one line instead of waiting forever for a writer', async () => {
    const p = project();
    const fifo = join(p.dir, 'plan.fifo');
    execFileSync('mkfifo', [fifo]);
    const result = await runCli(['apply', '--auto-approve', ...p.args, fifo], { env: emulator.env, timeoutMs: 20_000 });
    const line = expectOneLineRefusal(result);
    expect(line).toContain(fifo);
    expect(line).toMatch(/not a regular file/);
  });
});

describe('journal lineage (item 4)', () => {
  /**
   * Leaves `p` as an apply SIGKILLed part-way would: its state as it was and a journal of results
   * not yet folded into it. The apply of many tools runs slowly in this process; once three
   * results are journaled, the state and the journal are copied, the run is stopped, and the
   * copies put back.
   */
  async function interruptedApply(p: Project): Promise<void> {
    await emulator.configure({ latencyMs: 100 });
    try {
      const stop = new AbortController();
      const run = startCliInProcess(['apply', '--auto-approve', '--concurrency', '1', ...p.args], { env: emulator.env, signal: stop.signal });
      const journal = `${p.state}.journal`;
      await waitFor('three journal lines', () => existsSync(journal) && readFileSync(journal, 'utf8').split('\n').length >= 4, { timeoutMs: 30_000 });
      const left = { journal: readFileSync(journal), state: existsSync(p.state) ? readFileSync(p.state) : undefined };
      stop.abort('SIGINT');
      await run.done;
      writeFileSync(journal, left.journal);
      if (left.state === undefined) rmSync(p.state, { force: true });
      else writeFileSync(p.state, left.state);
    } finally {
      await emulator.configure({ latencyMs: 0 });
    }
    expect(readFileSync(`${p.state}.journal`, 'utf8').split('\n').length).toBeGreaterThanOrEqual(4);
  }

  it('refuses a journal from another state, naming both files, and folds nothing', async () => {
    const other = project('other', 30);
    await interruptedApply(other);
    const p = project('v1', 30);
    expect((await p.cli(['apply', '--auto-approve', ...p.args])).code).toBe(0);
    p.write('v2');
    copyFileSync(`${other.state}.journal`, `${p.state}.journal`);
    const stateBefore = readFileSync(p.state, 'utf8');
    const journalBefore = readFileSync(`${p.state}.journal`, 'utf8');
    await emulator.clearRequests();
    for (const command of [['plan'], ['state', 'list'], ['apply', '--auto-approve']]) {
      const line = expectOneLineRefusal(await p.cli([...command, ...p.args]));
      expect(line).toContain(`${p.state}.journal`);
      expect(line).toContain(p.state);
      expect(line).toMatch(/another state/);
    }
    expect(await emulator.requests()).toEqual([]);
    expect(readFileSync(p.state, 'utf8')).toBe(stateBefore);
    expect(readFileSync(`${p.state}.journal`, 'utf8')).toBe(journalBefore);
    // The journal's own state still takes it back.
    const resumed = await other.cli(['apply', '--auto-approve', ...other.args]);
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(resumed.stderr).toMatch(/recovered \d+ results/);
  });
});

describe('a symlinked --state writes through to its target (item 5)', () => {
  it('keeps the link, updates the target, and puts backup, journal and lock beside the target', async () => {
    const p = project();
    expect((await p.cli(['apply', '--auto-approve', ...p.args])).code).toBe(0);
    const link = join(p.dir, 'link.json');
    symlinkSync(p.state, link);
    p.write('v2');
    const applied = await p.cli(['apply', '--auto-approve', '-f', p.manifest, '--state', link]);
    expect(applied.code, applied.stderr).toBe(0);
    expect(kindOf(link)).toBe('symlink');
    expect(JSON.parse(readFileSync(p.state, 'utf8'))).toMatchObject({ serial: 2 });
    expect(kindOf(`${p.state}.backup`)).toBe('file');
    expect(
      readdirSync(p.dir)
        .filter((n) => n.startsWith('link.json'))
        .sort(),
    ).toEqual(['link.json']);

    // A lock beside the target, held by a live process (this one), stops a run through the link.
    writeFileSync(`${p.state}.lock`, JSON.stringify({ pid: process.pid, host: hostname(), since: new Date().toISOString(), token: 'held-by-the-test' }) + '\n');
    p.write('v3');
    const line = expectOneLineRefusal(await p.cli(['apply', '--auto-approve', '-f', p.manifest, '--state', link]));
    expect(line).toMatch(/locked by pid/);
  });

  it('refuses a --state symlink whose target does not exist', async () => {
    const p = project();
    const link = join(p.dir, 'dangling.json');
    symlinkSync(join(p.dir, 'nowhere', 'state.json'), link);
    const line = expectOneLineRefusal(await p.cli(['apply', '--auto-approve', '-f', p.manifest, '--state', link]));
    expect(line).toContain(link);
    expect(line).toMatch(/symbolic link/);
    expect(existsSync(join(p.dir, 'nowhere'))).toBe(false);
  });
});

describe('lock debris (item 17)', () => {
  it.each([
    ['an empty lock', ''],
    ['a torn lock', '{"pid":12'],
  ])('takes over %s with a warning', async (_name, content) => {
    const p = project();
    expect((await p.cli(['apply', '--auto-approve', ...p.args])).code).toBe(0);
    writeFileSync(`${p.state}.lock`, content);
    p.write('v2');
    const applied = await p.cli(['apply', '--auto-approve', ...p.args]);
    expect(applied.code, applied.stderr).toBe(0);
    expect(applied.stderr).toMatch(/Warning: .*lock/);
    expect(existsSync(`${p.state}.lock`)).toBe(false);
  });
});

describe('--state <directory> (item 21)', () => {
  it('says that the path is a directory, and names no backup that does not exist', async () => {
    const p = project();
    const dir = join(p.dir, 'statedir');
    mkdirSync(dir);
    for (const command of [['plan'], ['apply', '--auto-approve'], ['state', 'list']]) {
      const line = expectOneLineRefusal(await p.cli([...command, '-f', p.manifest, '--state', dir]));
      expect(line).toContain(dir);
      expect(line).toMatch(/is a directory/);
      expect(line).not.toContain('.backup');
    }
    expect(readdirSync(dirname(dir)).sort()).toEqual(['agents.yaml', 'statedir']);
  });
});
