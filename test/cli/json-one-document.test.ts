// Issue 41 §4, done when: every command that takes `--json` prints exactly one JSON document on
// stdout, whether it succeeds or fails, and never prints JSON on stderr. The commands are found in
// the program's own definition, so a new command with `--json` is covered here at once: its
// failures are made from its definition, and a command without a success case fails the first test.
import { copyFile, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable, Writable } from 'node:stream';
import type { Command } from 'commander';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildProgram } from '../../src/cli/program.js';
import { runCli, type CliResult } from '../support/cli.js';
import { API_KEY, startTestEmulator, type TestEmulator } from '../support/emulator.js';
import { startSite, type TestSite } from '../support/site.js';

interface JsonCommand {
  /** `['state', 'rm']` */
  path: string[];
  command: Command;
}

/** Every command (subcommands included) whose definition has a `--json` option. */
function jsonCommands(): JsonCommand[] {
  const sink = (): Writable => new Writable({ write: (_chunk, _encoding, done) => done() });
  const program = buildProgram({ stdout: sink(), stderr: sink(), stdin: Readable.from([]), env: {}, cwd: process.cwd(), signal: new AbortController().signal });
  const found: JsonCommand[] = [];
  const walk = (parent: Command, path: string[]): void => {
    for (const command of parent.commands) {
      const here = [...path, command.name()];
      if (command.options.some((option) => option.long === '--json')) found.push({ path: here, command });
      walk(command, here);
    }
  };
  walk(program, []);
  return found;
}

const COMMANDS = jsonCommands();
const names = COMMANDS.map(({ path }) => path.join(' '));
const takes = (command: Command, flag: string): boolean => command.options.some((option) => option.long === flag);

/**
 * A succeeding run of each command, in a project that has been applied once (tool.t1, agent.helper,
 * website.docs) and holds a saved plan; diff is given a copy with two environments. The commands that change the state work on copies of it.
 */
const SUCCESS: Readonly<Record<string, readonly string[]>> = {
  validate: [],
  lint: [],
  plan: [],
  apply: ['--auto-approve'],
  diff: ['-f', 'two.yaml', '-e', 'local', '-e', 'other', '--live-only'],
  show: ['saved.plan'],
  import: ['--state', 'imported.json'],
  export: [],
  'state list': [],
  'state show': ['tool.t1'],
  'state rm': ['tool.t1', '--state', 'rm.json'],
  'state mv': ['tool.t1', 'tool.t9', '--state', 'mv.json'],
  'state migrate': ['--to', 'migrated.json'],
  send: ['--to', 'agent:helper', '--text', 'hello'],
  'kb status': [],
  'kb sync': ['website.docs'],
};

/** What a required argument or option is given in the failing runs, so that they fail for the reason each names. */
const FILLER: Readonly<Record<string, string>> = { address: 'tool.t1', from: 'tool.t1', to: 'tool.t9', planfile: 'saved.plan', '--to': 'elsewhere.json', '--text': 'hello' };

/** The command line of `command` with its required arguments and options filled in, then `extra`. */
function fullLine({ path, command }: JsonCommand, extra: readonly string[]): string[] {
  const line = [...path];
  for (const argument of command.registeredArguments) if (argument.required) line.push(FILLER[argument.name()] ?? 'x');
  for (const option of command.options) if (option.mandatory && option.long) line.push(option.long, FILLER[option.long] ?? 'x');
  return [...line, ...extra, '--json'];
}

/** stdout is one JSON document, whole; stderr has no line that is JSON. */
function expectOneDocument(result: CliResult, what: string): void {
  expect(() => JSON.parse(result.stdout) as unknown, `${what}: stdout is one JSON document:\n${result.stdout}\nstderr:\n${result.stderr}`).not.toThrow();
  expect(result.stdout.trim(), what).toMatch(/^[{[][\s\S]*[}\]]$/);
  const jsonLines = result.stderr.split('\n').filter((line) => /^\s*[{[]/.test(line));
  expect(jsonLines, `${what}: stderr carries no JSON`).toEqual([]);
}

let emu: TestEmulator;
let site: TestSite;
let dir: string;
let env: NodeJS.ProcessEnv;
/** A port nothing listens on: the server is down. */
let downUrl: string;

async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise((resolve) => server.close(resolve));
  if (address === null || typeof address === 'string') throw new Error('no port');
  return address.port;
}

beforeAll(async () => {
  emu = await startTestEmulator();
  site = await startSite({ '/': { title: 'Docs' } });
  dir = await mkdtemp(join(tmpdir(), 'agentsync-json-doc-'));
  env = { COMETCHAT_API_KEY: API_KEY, AGENTSYNC_BASE_URL: emu.url };
  downUrl = `http://127.0.0.1:${await closedPort()}/v3`;
  const manifest = [
    'version: 1',
    'environments:',
    '  local: { appId: local, region: us }',
    'tools:',
    '  t1: { displayName: T1, executionText: Working, description: one, parameters: {} }',
    'agents:',
    '  helper: { name: Helper, integrationType: llm, integrateWith: gpt-4o, actions: [t1] }',
    'knowledgeBase:',
    '  websites:',
    '    docs:',
    `      url: ${site.origin}/`,
  ];
  await writeFile(join(dir, 'agents.yaml'), manifest.join('\n') + '\n');
  // diff compares two environments: the same app under two names.
  await writeFile(join(dir, 'two.yaml'), manifest.join('\n').replace('environments:\n', 'environments:\n  other: { appId: local, region: us }\n') + '\n');
  await writeFile(join(dir, 'broken.yaml'), 'version: 1\ntools: [\n');
  const applied = await runCli(['apply', '--auto-approve'], { cwd: dir, env });
  expect(applied.code, applied.stderr).toBe(0);
  const saved = await runCli(['plan', '--out', 'saved.plan'], { cwd: dir, env });
  expect(saved.code, saved.stderr).toBe(0);
  const state = join(dir, '.agentsync', 'local.state.json');
  for (const copy of ['rm.json', 'mv.json']) await copyFile(state, join(dir, copy));
});

afterAll(async () => {
  await emu.close();
  await site.close();
  await rm(dir, { recursive: true, force: true });
});

describe('every command that takes --json prints one JSON document', () => {
  it('finds the commands in the program, and each has a success case here', () => {
    expect(names).toContain('plan');
    expect(names).toContain('state rm');
    expect(names.filter((name) => SUCCESS[name] === undefined)).toEqual([]);
  });

  it.each(names)('%s, succeeding', async (name) => {
    const result = await runCli([...name.split(' '), ...(SUCCESS[name] ?? []), '--json'], { cwd: dir, env });
    expect(result.code, result.stderr).toBe(0);
    expectOneDocument(result, name);
  });

  it.each(names)('%s, failing on a broken manifest or a file that is not a plan', async (name) => {
    const command = COMMANDS.find(({ path }) => path.join(' ') === name);
    if (!command) throw new Error(name);
    // A command without a manifest (show) is handed the broken file in place of its plan.
    const line = takes(command.command, '--file') ? fullLine(command, ['--file', 'broken.yaml']) : fullLine(command, []).map((word) => (word === FILLER.planfile ? 'broken.yaml' : word));
    const result = await runCli(line, { cwd: dir, env });
    expect(result.code, `${line.join(' ')}\n${result.stderr}`).not.toBe(0);
    expectOneDocument(result, line.join(' '));
  });

  it.each(names.filter((name) => takes(COMMANDS.find(({ path }) => path.join(' ') === name)?.command ?? ({ options: [] } as unknown as Command), '--env')))(
    '%s, failing on an unknown environment',
    async (name) => {
      const command = COMMANDS.find(({ path }) => path.join(' ') === name);
      if (!command) throw new Error(name);
      const line = fullLine(command, ['--env', 'nowhere']);
      const result = await runCli(line, { cwd: dir, env });
      expect(result.code, `${line.join(' ')}\n${result.stderr}`).not.toBe(0);
      expectOneDocument(result, line.join(' '));
    },
  );

  it.each(names)('%s, with the server down', async (name) => {
    const command = COMMANDS.find(({ path }) => path.join(' ') === name);
    if (!command) throw new Error(name);
    const line = [...name.split(' '), ...(SUCCESS[name] ?? []), '--json', '--timeout', '2'].filter(
      (word, i, all) => takes(command.command, '--timeout') || (word !== '--timeout' && all[i - 1] !== '--timeout'),
    );
    const result = await runCli(line, { cwd: dir, env: { ...env, AGENTSYNC_BASE_URL: downUrl, AGENTSYNC_RETRIES: '0' } });
    // Commands that never call the server succeed; the others fail. Either way: one document.
    expectOneDocument(result, line.join(' '));
  });
});

describe('the CLI builds no JSON itself', () => {
  it('no file under src/cli calls JSON.stringify: every document is a view in src/render', async () => {
    const cliDir = join(import.meta.dirname, '..', '..', 'src', 'cli');
    const files = (await readdir(cliDir, { recursive: true })).filter((file) => file.endsWith('.ts'));
    expect(files.length).toBeGreaterThan(20);
    const inline: string[] = [];
    for (const file of files) {
      const lines = (await readFile(join(cliDir, file), 'utf8')).split('\n');
      lines.forEach((line, i) => {
        if (line.includes('JSON.stringify')) inline.push(`src/cli/${file}:${i + 1}`);
      });
    }
    expect(inline).toEqual([]);
  });
});
