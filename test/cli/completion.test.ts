// `agentsync completion bash|zsh|fish`, through the built CLI: each script is loaded into its real
// shell and asked to complete, and what it offers must match the program's own commands and flags.
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../support/cli.js';

const ROOT = join(import.meta.dirname, '..', '..');
const has = (shell: string): boolean => spawnSync(shell, ['-c', 'exit 0']).status === 0;

let dir: string;
const scripts: Record<string, string> = {};
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'agentsync-completion-'));
  for (const shell of ['bash', 'zsh', 'fish']) {
    const result = await runCli(['completion', shell], { cwd: ROOT });
    expect(result.code).toBe(0);
    scripts[shell] = join(dir, `completion.${shell}`);
    writeFileSync(scripts[shell]!, result.stdout);
  }
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The top-level commands, as `agentsync --help` lists them. */
async function helpCommands(...path: string[]): Promise<string[]> {
  const help = (await runCli([...path, '--help'], { cwd: ROOT })).stdout;
  const section = help.split('Commands:\n')[1] ?? '';
  return section
    .split('\n')
    .map((line) => /^ {2}(\S+)/.exec(line)?.[1])
    .filter((name): name is string => name !== undefined && name !== 'help');
}

/** The long flags `agentsync <command> --help` lists. */
async function helpFlags(...path: string[]): Promise<string[]> {
  const help = (await runCli([...path, '--help'], { cwd: ROOT })).stdout;
  return [...help.matchAll(/(?:^|\s)(--[a-z-]+)/gm)].map((m) => m[1]!).filter((flag, i, all) => all.indexOf(flag) === i);
}

function bash(words: string[]): string[] {
  const quoted = words.map((w) => `'${w}'`).join(' ');
  const script = `source '${scripts.bash}'; COMP_WORDS=(${quoted}); COMP_CWORD=${words.length - 1}; _agentsync_completion; printf '%s\\n' "\${COMPREPLY[@]}"`;
  return execFileSync('bash', ['-c', script], { encoding: 'utf8' })
    .split('\n')
    .filter((l) => l !== '');
}

describe('bash', () => {
  it('completes exactly the commands that --help lists', async () => {
    expect(bash(['agentsync', '']).sort()).toEqual((await helpCommands()).sort());
    expect(bash(['agentsync', 'state', '']).sort()).toEqual((await helpCommands('state')).sort());
  });

  it.each([['plan'], ['apply'], ['validate'], ['fmt'], ['state', 'rm'], ['emulator']])('completes the flags of %s that --help lists', async (...path) => {
    const offered = bash(['agentsync', ...path, '--']).sort();
    expect(offered).toEqual((await helpFlags(...path)).sort());
  });

  it('completes flag values and arguments, skipping flag values when it finds the command', () => {
    expect(bash(['agentsync', 'plan', '--format', ''])).toEqual(['text', 'json', 'markdown']);
    expect(bash(['agentsync', 'plan', '-f', 'plan', '--format', 'm'])).toEqual(['markdown']);
    expect(bash(['agentsync', 'plan', '-e', 'state', '--form'])).toEqual(['--format']);
    expect(bash(['agentsync', 'completion', ''])).toEqual(['bash', 'zsh', 'fish']);
    expect(bash(['agentsync', 'apply', '--auto'])).toEqual(['--auto-approve']);
    expect(bash(['agentsync', 'pl'])).toEqual(['plan']);
  });
});

describe.runIf(has('zsh'))('zsh', () => {
  /** Runs the completion function with zsh's completion builtins replaced by ones that print what they were given. */
  function zsh(words: string[]): string {
    const script = [
      `source '${scripts.zsh}'`,
      `_describe() { local arr=\${@[-1]}; print -rl -- "\${(@P)arr}"; }`,
      'compadd() { shift; print -rl -- "$@"; }',
      '_files() { print -r -- "(files)"; }',
      `words=(${words.map((w) => `'${w}'`).join(' ')}); CURRENT=${words.length}`,
      '_agentsync',
    ].join('\n');
    return execFileSync('zsh', ['-f', '-c', script], { encoding: 'utf8' });
  }

  it('passes zsh -n', () => {
    expect(spawnSync('zsh', ['-n', scripts.zsh!]).status).toBe(0);
  });

  it('offers commands with their descriptions, flags, and flag values', async () => {
    const commands = zsh(['agentsync', ''])
      .split('\n')
      .filter((l) => l !== '')
      .map((l) => l.split(':')[0]);
    expect(commands.sort()).toEqual((await helpCommands()).sort());
    expect(zsh(['agentsync', 'plan', '--format', ''])).toBe('text\njson\nmarkdown\n');
    expect(zsh(['agentsync', 'plan', '--out', ''])).toBe('(files)\n');
    expect(zsh(['agentsync', 'state', 'list', '--'])).toContain('--state:the state file');
  });
});

describe.runIf(has('fish'))('fish', () => {
  const fish = (line: string): string[] =>
    execFileSync('fish', ['--no-config', '-c', `source '${scripts.fish}'; complete -C '${line}'`], { encoding: 'utf8' })
      .split('\n')
      .filter((l) => l !== '')
      .map((l) => l.split('\t')[0]!);

  it('offers the commands, the subcommands, flags and their values', async () => {
    expect(fish('agentsync ').sort()).toEqual((await helpCommands()).sort());
    expect(fish('agentsync state ').sort()).toEqual((await helpCommands('state')).sort());
    expect(fish('agentsync plan --format ').sort()).toEqual(['json', 'markdown', 'text']);
    expect(fish('agentsync apply --auto')).toEqual(['--auto-approve']);
  });
});
