// A full disk and a read-only folder, for real (issue 10, items 17 and 18): the state lives on a
// small tmpfs mounted for the test (we run as root; root ignores permission bits, so only a real
// ENOSPC or EROFS will do). Every failure must be one line naming the file or folder, keep the
// state intact and the journal's results, and leave no lock or temporary file that would block or
// litter the next run. When the machine forbids mounting, the tests say why and skip.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertBuilt, runCli, type CliResult } from '../support/cli.js';
import { startTestEmulator, type TestEmulator } from '../support/emulator.js';
import { makeWorkspace, serverAgents, type Workspace } from './helpers.js';
import { expectOneLineRefusal, leftoverTemps, smallManifest } from './hardening-helpers.js';

let emulator: TestEmulator;
let ws: Workspace;
const mounts: string[] = [];

beforeAll(async () => {
  assertBuilt();
  emulator = await startTestEmulator();
  ws = makeWorkspace('agentsync-disk-');
});

afterAll(async () => {
  for (const dir of mounts) {
    try {
      execFileSync('umount', ['-l', dir], { stdio: 'pipe' });
    } catch (err) {
      console.log(`could not unmount ${dir}: ${(err as Error).message}`);
    }
  }
  await emulator?.close();
  ws?.remove();
});

/** Mounts a tmpfs of `kib` KiB at a new folder; returns the folder, or why it could not. */
function mountTmpfs(name: string, kib: number): { dir: string } | { reason: string } {
  const dir = ws.path(name);
  mkdirSync(dir);
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${kib}k,mode=0755`, 'tmpfs', dir], { stdio: 'pipe' });
  } catch (err) {
    const stderr = (err as { stderr?: Buffer }).stderr?.toString().trim();
    return { reason: `cannot mount a tmpfs at ${dir} (${stderr || (err as Error).message}); this test needs root and mount rights` };
  }
  mounts.push(dir);
  return { dir };
}

function cli(args: string[], cwd?: string): Promise<CliResult> {
  return runCli(args, { env: emulator.env, cwd });
}

/** Fills the file system at `dir` with 4 KiB files until a write fails; returns them. */
function fillUp(dir: string): string[] {
  mkdirSync(join(dir, 'filler'));
  const files: string[] = [];
  const page = Buffer.alloc(4096, 1);
  for (let i = 0; ; i++) {
    const file = join(dir, 'filler', String(i));
    try {
      writeFileSync(file, page);
      files.push(file);
    } catch (err) {
      if ((err as { code?: string }).code !== 'ENOSPC') throw err;
      rmSync(file, { force: true });
      return files;
    }
  }
}

describe('a full disk (item 17)', () => {
  it('fails each apply in one line at every point it can run out of space, and the next run finishes', async (ctx) => {
    const mounted = mountTmpfs('full', 256);
    if ('reason' in mounted) {
      console.log(`skipped: ${mounted.reason}`);
      ctx.skip();
      return;
    }
    const { dir } = mounted;
    const manifest = ws.path('full-agents.yaml');
    const state = join(dir, 'state.json');
    const args = ['-f', manifest, '--state', state];
    writeFileSync(manifest, smallManifest('full', 'v1', 8));
    expect((await cli(['apply', '--auto-approve', ...args])).code).toBe(0);
    const lineage = (JSON.parse(readFileSync(state, 'utf8')) as { lineage: string }).lineage;
    writeFileSync(manifest, smallManifest('full', 'v2 with a new instruction', 16));

    const filler = fillUp(dir);
    const failures: string[] = [];
    let finished: CliResult | null = null;
    // Free one page at a time: the run fails first at the lock, then at the journal, then at the
    // state's temporary file, until there is room for everything.
    for (let attempt = 0; attempt < 40 && finished === null; attempt++) {
      const run = await cli(['apply', '--auto-approve', ...args]);
      if (run.code === 0) {
        finished = run;
        break;
      }
      const line = expectOneLineRefusal(run);
      expect(line).toMatch(/no space left on device/);
      expect(line).toContain(dir);
      failures.push(line.replaceAll(dir, '<mount>'));
      expect(existsSync(`${state}.lock`), `a lock left behind after: ${line}`).toBe(false);
      expect(leftoverTemps(dir), `temporary files left behind after: ${line}`).toEqual([]);
      const onDisk = JSON.parse(readFileSync(state, 'utf8')) as { lineage: string };
      expect(onDisk.lineage).toBe(lineage);
      const freed = filler.pop();
      if (freed) rmSync(freed);
    }
    console.log(`full disk: ${failures.length} failed applies before one finished:\n  ${[...new Set(failures)].join('\n  ')}`);
    expect(finished, 'an apply finishes once there is room').not.toBeNull();
    expect(failures.length).toBeGreaterThan(0);
    expect((await cli(['plan', '--detailed-exitcode', ...args])).code).toBe(0);
    const helpers = (await serverAgents(emulator)).filter((a) => a.name === 'Helper full');
    expect(helpers).toHaveLength(1);
  });
});

describe('a read-only state folder (item 18)', () => {
  it('names the read-only folder in one line for every command that writes, and still plans', async (ctx) => {
    const mounted = mountTmpfs('readonly', 1024);
    if ('reason' in mounted) {
      console.log(`skipped: ${mounted.reason}`);
      ctx.skip();
      return;
    }
    const { dir } = mounted;
    const manifest = ws.path('ro-agents.yaml');
    const state = join(dir, 'state.json');
    const args = ['-f', manifest, '--state', state];
    writeFileSync(manifest, smallManifest('ro', 'v1'));
    expect((await cli(['apply', '--auto-approve', ...args])).code).toBe(0);
    mkdirSync(join(dir, 'project'));
    try {
      execFileSync('mount', ['-o', 'remount,ro', dir], { stdio: 'pipe' });
    } catch (err) {
      console.log(`skipped: cannot remount ${dir} read-only (${(err as Error).message})`);
      ctx.skip();
      return;
    }
    const before = readFileSync(state, 'utf8');
    writeFileSync(manifest, smallManifest('ro', 'v2'));

    const writers: [string, string[], string?][] = [
      ['apply', ['apply', '--auto-approve', ...args]],
      ['state rm', ['state', 'rm', 'tool.ro_t1', ...args]],
      ['plan --out', ['plan', '--out', join(dir, 'plan.json'), ...args]],
      ['init', ['init', join(dir, 'project')]],
    ];
    for (const [name, command] of writers) {
      const line = expectOneLineRefusal(await cli(command));
      expect(line, name).toMatch(/read-only/);
      expect(line, name).toContain(dir);
    }
    expect(readFileSync(state, 'utf8')).toBe(before);
    const planned = await cli(['plan', '--detailed-exitcode', ...args]);
    expect(planned.code, planned.stderr).toBe(2);
  });
});
