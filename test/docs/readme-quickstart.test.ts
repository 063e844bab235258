// The README's quickstart, walked as a newcomer walks it: every command in the `sh` blocks of its
// "## Quickstart" section is run in order, as written, starting from a clean copy of the repository
// (its tracked and new files; no node_modules, no dist) in an empty folder. The walk must build
// dist/ exactly once (scripts/build.mjs says "Building dist/" each time it builds) and end with a
// first apply against the emulator. Commands that ask a question run on a pseudo-terminal
// (util-linux `script`) and get "yes"; `npx --no-install agentsync emulator` runs in the background,
// as in its own terminal, until the walk ends.
import { execFileSync, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { waitFor } from '../support/wait.js';

const ROOT = join(import.meta.dirname, '..', '..');
const README = readFileSync(join(ROOT, 'README.md'), 'utf8');

/** The quickstart's commands, block by block, comments and blank lines dropped. */
export function quickstartCommands(readme: string): string[][] {
  const start = readme.indexOf('\n## Quickstart\n');
  if (start < 0) throw new Error('README has no "## Quickstart" section');
  const next = readme.indexOf('\n## ', start + 1);
  const section = readme.slice(start, next < 0 ? undefined : next);
  return [...section.matchAll(/```sh\n([\s\S]*?)```/g)].map((block) =>
    block[1]!
      .split('\n')
      .map((line) => line.replace(/\s+#.*$/, '').trim())
      .filter((line) => line !== ''),
  );
}

const PROMPT = "Only 'yes' will be accepted:";

function portIsFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

/** A copy of the repository as a fresh clone of this working tree would be. */
function cleanCopy(into: string): void {
  const files = execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], { cwd: ROOT, encoding: 'utf8' })
    .split('\0')
    .filter((f) => f !== '');
  for (const file of files) {
    if (!existsSync(join(ROOT, file))) continue; // deleted in the working tree
    mkdirSync(dirname(join(into, file)), { recursive: true });
    cpSync(join(ROOT, file), join(into, file));
  }
}

const background: ChildProcess[] = [];
/** npx starts the emulator as a child of its own: stop the whole process group. */
function stopBackground(): void {
  for (const child of background.splice(0)) {
    try {
      if (child.pid !== undefined) process.kill(-child.pid, 'SIGTERM');
    } catch {
      // already gone
    }
  }
}
afterAll(stopBackground);

/** The Quickstart's test line, which CI runs for real on a clean clone (`.ci/run`), not this walk. */
const TEST_COMMAND = 'npm ci && npm test';

describe('README quickstart', () => {
  it('lists the commands this test walks: one path from a clone to a first apply', () => {
    const commands = quickstartCommands(README).flat();
    const at = (command: string): number => commands.indexOf(command);
    expect(commands[0]).toBe('npm ci && npm run demo');
    expect(at(TEST_COMMAND)).toBeGreaterThan(at('npm ci && npm run demo'));
    const pack = commands.findIndex((c) => c.startsWith('npm pack'));
    expect(pack).toBeGreaterThan(at(TEST_COMMAND));
    expect(at('npx --no-install agentsync init')).toBeGreaterThan(pack);
    expect(at('npx --no-install agentsync emulator')).toBeGreaterThan(at('npx --no-install agentsync init'));
    expect(commands.findIndex((c) => c.includes('npx --no-install agentsync apply -e local'))).toBeGreaterThan(at('npx --no-install agentsync emulator'));
    // The building commands appear once each: the walk builds once, in npm ci.
    for (const command of ['npm ci && npm run demo', TEST_COMMAND]) expect(commands.filter((c) => c === command)).toHaveLength(1);
    expect(commands.filter((c) => c.startsWith('npm pack'))).toHaveLength(1);
    // No command names the clone's folder: a clone may be called anything.
    expect(commands.filter((c) => /\.\.\/agentsync\b/.test(c))).toEqual([]);
  });

  it('states what its set-up costs in seconds, not placeholders', () => {
    const start = README.indexOf('\n## Quickstart\n');
    const section = README.slice(start, README.indexOf('\n## ', start + 1));
    expect(section).not.toMatch(/MEASURE|TODO|TBD|\?\? s/);
    expect(section).toMatch(/`npm ci` installs the dependencies and builds `dist\/` once: about \d+ s/);
    expect(section).toMatch(/about \d+ s after the install/);
  });

  it('shows as its test command the one CI runs on a clean clone: npm ci, then npm test', () => {
    const ci = readFileSync(join(ROOT, '.ci', 'run'), 'utf8');
    const install = ci.search(/^npm ci\b/m);
    const test = ci.search(/^npm test\b/m);
    expect(install).toBeGreaterThan(-1);
    expect(test).toBeGreaterThan(install);
  });

  const walkable = spawnSync('script', ['--version']).status === 0;
  it.runIf(walkable)(
    'works from a clean clone and an empty folder, command by command',
    async () => {
      // The walk needs the emulator's default port; wait for another run to release it.
      await waitFor('port 4010 to be free (the quickstart emulator needs it)', () => portIsFree(4010), { timeoutMs: 60_000, intervalMs: 500 });
      const parent = mkdtempSync(join(tmpdir(), 'agentsync-readme-'));
      // Not called agentsync: nothing in the walk may depend on the clone's folder name.
      const clone = join(parent, 'my-clone');
      const env: NodeJS.ProcessEnv = {
        PATH: process.env.PATH,
        HOME: process.env.HOME,
        TERM: 'dumb',
        npm_config_prefer_offline: 'true',
        npm_config_audit: 'false',
        npm_config_fund: 'false',
        npm_config_update_notifier: 'false',
      };
      let cwd = clone;
      const transcript: string[] = [];
      try {
        cleanCopy(clone);
        // CI runs the test line itself, on a clean clone (the test above checks it is the same);
        // `a && b` is walked as a then b, so that the check after `npm ci` sees npm ci alone.
        const lines = quickstartCommands(README)
          .flat()
          .filter((line) => line !== TEST_COMMAND);
        for (const command of lines.flatMap((line) => line.split(' && '))) {
          transcript.push(`$ ${command}`);
          if (command === 'npx --no-install agentsync emulator') {
            transcript.push(await startInBackground(command, cwd, env));
            continue;
          }
          const result = await run(command, cwd, env);
          transcript.push(result.output);
          expect(result.code, `${command} failed:\n${transcript.join('\n')}`).toBe(0);
          // CONTRACT §1: npm ci builds dist/ (package.json's prepare), so the command works right after it.
          if (command === 'npm ci') {
            expect(existsSync(join(clone, 'dist', 'cli', 'main.cjs')), 'npm ci did not build dist/').toBe(true);
            const help = await run('npx --no-install agentsync --help', cwd, env);
            expect(help.code, help.output).toBe(0);
            expect(help.output).toContain('Usage: agentsync');
          }
          cwd = result.cwd;
        }
        const text = transcript.join('\n');
        // Built once (by npm ci); the demo and npm pack's prepack found it up to date.
        expect(text.match(/Building dist\//g) ?? [], text).toHaveLength(1);
        expect(text).toContain('dist/ is up to date');
        expect(existsSync(join(clone, 'dist', 'cli', 'main.cjs'))).toBe(true);
        expect(text).toContain('No changes. Environment "local" matches the manifest.');
        expect(text).toMatch(/Apply complete: 2 created, 0 updated, 0 forgotten\./);
        expect(cwd).toBe(join(parent, 'my-agents'));
        expect(readFileSync(join(cwd, 'agents.yaml'), 'utf8')).toContain('# yaml-language-server: $schema=./agentsync.schema.json');
        // The project's lock points inside it (vendor/), so its own clean clone installs with npm ci.
        expect(readFileSync(join(cwd, 'package-lock.json'), 'utf8')).toMatch(/"resolved": "file:vendor\/agentsync-[^"]+\.tgz"/);
      } finally {
        stopBackground();
        rmSync(parent, { recursive: true, force: true });
      }
    },
    600_000,
  );
});

/**
 * One command, as typed into bash in `cwd`, on a pseudo-terminal (so a question can be answered);
 * it reports the folder the command left the shell in, for the next one.
 */
function run(command: string, cwd: string, env: NodeJS.ProcessEnv): Promise<{ code: number | null; output: string; cwd: string }> {
  const marker = '__QUICKSTART_CWD__';
  const step = join(mkdtempSync(join(tmpdir(), 'agentsync-step-')), 'step.sh');
  writeFileSync(step, `set -e\n${command}\nprintf '\\n${marker}%s\\n' "$PWD"\n`);
  const child = spawn('script', ['-qfec', `bash ${step}`, '/dev/null'], { cwd, env, stdio: ['pipe', 'pipe', 'pipe'] });
  let output = '';
  let answered = false;
  child.stdout.on('data', (chunk: Buffer) => {
    output += chunk.toString();
    if (!answered && output.includes(PROMPT)) {
      answered = true;
      child.stdin.write('yes\r');
    }
  });
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code) => {
      rmSync(dirname(step), { recursive: true, force: true });
      const found = new RegExp(`${marker}(.+?)\\r?\\n`).exec(output);
      resolve({ code, output: output.replace(new RegExp(`\\r?\\n?${marker}.*`, 's'), ''), cwd: found?.[1] ?? cwd });
    });
  });
}

/** A long-running command in "a second terminal": started, and awaited until it says it is ready. */
function startInBackground(command: string, cwd: string, env: NodeJS.ProcessEnv): Promise<string> {
  const child = spawn('bash', ['-c', `exec ${command}`], { cwd, env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  background.push(child);
  let output = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${command} did not get ready: ${output}`)), 60_000);
    const onData = (chunk: Buffer): void => {
      output += chunk.toString();
      if (/ready at http:\/\/127\.0\.0\.1:4010\/v3 .*API key: local-dev-key/.test(output)) {
        clearTimeout(timer);
        resolve(output.trim());
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.on('close', (code) => reject(new Error(`${command} exited (${code}): ${output}`)));
  });
}
