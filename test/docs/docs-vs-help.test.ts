// The README's command table and docs/spec/commands.md are written by hand, and each command's
// --help is written in its commander definition: this keeps them saying the same thing. Every
// command --help lists has a row in both tables; every `--flag` a row names is an option of that
// command (of one of its subcommands, for `state` and `kb`); every option a --help lists is in the
// README; and the emulator section names only options the emulator takes.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { ROOT, runCli } from '../support/cli.js';

const README = readFileSync(join(ROOT, 'README.md'), 'utf8');
const COMMANDS_SPEC = readFileSync(join(ROOT, 'docs', 'spec', 'commands.md'), 'utf8');

/** The text from a heading line to the next heading of the same or a higher level. */
function section(markdown: string, heading: string): string {
  const start = markdown.indexOf(`\n${heading}\n`);
  if (start < 0) throw new Error(`no heading ${heading}`);
  const level = /^#+/.exec(heading)?.[0] ?? '#';
  const rest = markdown.slice(start + heading.length + 2);
  const end = rest.search(new RegExp(`\\n#{1,${level.length}} `));
  return end < 0 ? rest : rest.slice(0, end);
}

interface Row {
  /** The first word after `agentsync` in the row's first code span: `plan`, `state`, `kb`. */
  command: string;
  /** Every `--long-flag` written in the row (inside code spans). */
  flags: string[];
  text: string;
}

/** The rows of the first table in `text` whose first cell is a code span naming a command. */
function commandRows(text: string): Row[] {
  return text
    .split('\n')
    .filter((line) => line.startsWith('| `'))
    .map((line) => {
      const first = /^\| `(?:agentsync )?([a-z]+)/.exec(line)?.[1] ?? '';
      const flags = [...line.matchAll(/`[^`]*`/g)].flatMap((span) => [...span[0].matchAll(/(?<![\w-])--[a-z][a-z-]*/g)].map((m) => m[0]));
      return { command: first, flags: [...new Set(flags)], text: line };
    });
}

/** The long options a --help text lists, as `--name` (`--no-color` as written). */
function optionsOf(help: string): string[] {
  const options = help.slice(help.indexOf('\nOptions:\n'));
  return [...options.matchAll(/^ {2}(?:-[a-zA-Z], )?(--[a-z][a-z-]*)/gm)].map((m) => m[1] ?? '');
}

/** The commands a --help text lists under "Commands:", without `help`. */
function commandsOf(help: string): string[] {
  const at = help.indexOf('\nCommands:\n');
  if (at < 0) return [];
  return [...help.slice(at).matchAll(/^ {2}([a-z]+)/gm)].map((m) => m[1] ?? '').filter((name) => name !== 'help');
}

async function helpOf(args: readonly string[]): Promise<string> {
  const result = await runCli([...args, '--help']);
  expect(result.code, `${args.join(' ')} --help: ${result.stderr}`).toBe(0);
  return result.stdout;
}

/** Each command's help; a command with subcommands (`state`, `kb`) gets its own and theirs joined. */
const helps = new Map<string, string>();
let commands: string[] = [];

beforeAll(async () => {
  commands = commandsOf(await helpOf([]));
  for (const command of commands) {
    const own = await helpOf([command]);
    const subhelps = await Promise.all(commandsOf(own).map((sub) => helpOf([command, sub])));
    helps.set(command, [own, ...subhelps].join('\n'));
  }
});

const readmeRows = commandRows(section(README, '## Commands').split('\n### ')[0] ?? '');
const specRows = commandRows(section(COMMANDS_SPEC, '## Commands'));

describe('the documents and --help agree', () => {
  it('finds the commands and the tables', () => {
    expect(commands).toEqual(expect.arrayContaining(['init', 'validate', 'plan', 'apply', 'state', 'kb', 'emulator']));
    expect(readmeRows.length).toBeGreaterThan(15);
    expect(specRows.length).toBeGreaterThan(15);
    expect(readmeRows.flatMap((row) => row.flags).length).toBeGreaterThan(30);
  });

  it('every command --help lists has a row in the README and in docs/spec/commands.md', () => {
    expect(commands.filter((command) => !readmeRows.some((row) => row.command === command))).toEqual([]);
    expect(commands.filter((command) => !specRows.some((row) => row.command === command))).toEqual([]);
  });

  it.each([
    ['README.md', readmeRows],
    ['docs/spec/commands.md', specRows],
  ])('every --flag a row of %s names is an option of its command', (_file, rows) => {
    const unknown = rows.flatMap((row) => {
      const help = helps.get(row.command);
      if (help === undefined) return [`${row.command}: not a command (${row.text.slice(0, 60)}…)`];
      const options = new Set(optionsOf(help));
      return row.flags.filter((flag) => !options.has(flag)).map((flag) => `${row.command} ${flag}`);
    });
    expect(unknown).toEqual([]);
  });

  it('every option a --help lists is in the README', () => {
    const missing = [...helps].flatMap(([command, help]) =>
      optionsOf(help)
        .filter((option) => option !== '--help' && !new RegExp(`(?<![\\w-])${option}(?![\\w-])`).test(README))
        .map((option) => `${command} ${option}`),
    );
    expect([...new Set(missing)]).toEqual([]);
  });

  it("the README's emulator section names only options the emulator takes", () => {
    // `npx --no-install agentsync emulator …` names npx's flag, not the emulator's.
    const named = [...section(README, '## The emulator').matchAll(/(?<![\w-])--[a-z][a-z-]*/g)].map((m) => m[0]).filter((flag) => flag !== '--no-install');
    expect(named.length).toBeGreaterThan(8);
    const options = new Set(optionsOf(helps.get('emulator') ?? ''));
    expect([...new Set(named)].filter((flag) => !options.has(flag))).toEqual([]);
  });

  // validate checks every environment when -e is not given (README, "Commands").
  it("validate's -e help says it checks every environment without -e", () => {
    expect(helps.get('validate')).toMatch(/-e, --env <name>\s+check only this environment \(default: every environment\)/);
  });

  // Export never writes websites (README, "Clone a region"), so --split promises no websites.
  it("export's --split help promises no websites", () => {
    const split = (/--split <dir>[\s\S]*?(?=\n {2}-)/.exec(helps.get('export') ?? '')?.[0] ?? '').replace(/\s+/g, ' ');
    expect(split).toContain('one file per agent');
    expect(split).not.toMatch(/website/);
  });
});
