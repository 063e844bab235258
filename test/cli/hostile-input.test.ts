// Hostile local input the other suites do not reach: an API key a header cannot carry, an empty
// value where a path or a plan file is needed, a usage error in a --json run, and --out naming a
// file the run reads. Each must end in one line on stderr, exit 1, and leave every file as it was.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { expectOneLineRefusal, HOSTILE_MANIFEST, useHostileProject } from '../support/hostile-project.js';
import { API_KEY } from '../support/emulator.js';

const project = useHostileProject('agentsync-hostile-');
const cli = project.cli;
const STATE = (): string => join(project.dir, '.agentsync', 'local.state.json');

describe('an API key a header cannot carry', () => {
  const keys: [string, string][] = [
    ['a line break and a header after it', `${API_KEY}\nX-Injected: 1`],
    ['a trailing CRLF', `${API_KEY}\r\n`],
    ['a NUL byte', `${API_KEY}\u0000`],
    ['a typographic quote from a web page', `\u201c${API_KEY}\u201d`],
  ];
  it.each(keys)('%s: refused before any request, naming the variable and never the key', async (_, key) => {
    await project.emulator.clearRequests();
    const state = readFileSync(STATE(), 'utf8');
    // Before: GETs failed inside the HTTP client with "invalid apikey header" and were retried for
    // minutes (plan, export, import, kb status hung; the bin could even exit 0 with no output).
    for (const args of [['plan'], ['plan', '--json'], ['apply', '--auto-approve'], ['export'], ['import'], ['send', '--to', 'user:u1', '--text', 'hi']]) {
      const result = await cli(args, { COMETCHAT_API_KEY: key });
      expect(result.code, `${args.join(' ')}: ${result.stderr}`).toBe(1);
      expectOneLineRefusal(result, /COMETCHAT_API_KEY holds a (line break|control character|character outside printable ASCII) \(character \d+ of \d+\)/);
      expect(result.stderr + result.stdout).not.toContain(API_KEY);
    }
    expect(await project.emulator.apiRequests()).toEqual([]);
    expect(readFileSync(STATE(), 'utf8')).toBe(state);
  });

  it('a key with only ordinary characters still works, and plan --offline needs no key at all', async () => {
    expect((await cli(['plan'])).code).toBe(0);
    expect((await cli(['plan', '--offline'], { COMETCHAT_API_KEY: 'bad\nkey' })).code).toBe(0);
  });
});

describe('an empty value where a path is needed (an unset shell variable)', () => {
  // Before: `apply ""` ran a fresh apply instead of the saved plan, and `--state ""` planned and
  // applied against the default state; the others said "the folder . does not exist" or "ENOENT".
  const cases: [string, string[], string][] = [
    ['apply with an empty PLANFILE', ['apply', '--auto-approve', ''], 'PLANFILE'],
    ['show with an empty PLANFILE', ['show', ''], 'PLANFILE'],
    ['apply --state ""', ['apply', '--auto-approve', '--state', ''], '--state'],
    ['plan --state=', ['plan', '--state='], '--state'],
    ['state rm --state ""', ['state', 'rm', 'tool.lookup', '--state', ''], '--state'],
    ['plan --out ""', ['plan', '--out', ''], '--out'],
    ['export --out ""', ['export', '--out', ''], '--out'],
    ['plan --var-file ""', ['plan', '--var-file', ''], '--var-file'],
    ['state migrate --to ""', ['state', 'migrate', '--to', ''], '--to'],
    ['init with an empty DIR', ['init', ''], 'DIR'],
  ];
  it.each(cases)('%s: one line naming it, exit 1, no call, the state unchanged', async (_, args, what) => {
    await project.emulator.clearRequests();
    const state = readFileSync(STATE(), 'utf8');
    const result = await cli(args);
    expectOneLineRefusal(result, new RegExp(`^Error: ${what} is empty; give a path`));
    expect(result.stdout).toBe('');
    expect(await project.emulator.apiRequests()).toEqual([]);
    expect(readFileSync(STATE(), 'utf8')).toBe(state);
  });
});

describe('an empty REMOTE_ID for import', () => {
  it('is a usage error before any call, not "the server has no tool with _id"', async () => {
    await project.emulator.clearRequests();
    const state = readFileSync(STATE(), 'utf8');
    const result = await cli(['import', 'tool.lookup', '']);
    expectOneLineRefusal(result, /^Error: REMOTE_ID is empty; give the id of the server record/);
    expect(await project.emulator.apiRequests()).toEqual([]);
    expect(readFileSync(STATE(), 'utf8')).toBe(state);
  });
});

describe('--json runs that fail on a usage error commander catches', () => {
  // STYLE.md: --json output wraps an error as {"error": {"code", "message", …}}. UserErrors did;
  // commander's own usage errors (unknown option, missing argument, bad choice) left stdout empty,
  // so a script parsing it failed on empty input instead of reading the error.
  const cases: [string, string[], RegExp][] = [
    ['an unknown option', ['plan', '--json', '--bogus'], /^unknown option '--bogus'$/],
    ['a misspelt option', ['state', 'list', '--json', '--jsno'], /^unknown option '--jsno'; did you mean --json\?$/],
    ['a missing argument', ['show', '--json'], /^missing required argument 'planfile'$/],
    ['a flag without its value', ['plan', '--json', '--target'], /^option '--target <address>' argument missing$/],
    ['a value outside the choices', ['show', 'p.json', '--json', '--format', 'yaml'], /^option '--format <format>' argument 'yaml' is invalid/],
  ];
  it.each(cases)('%s: an error object on stdout, the one line on stderr, exit 1', async (_, args, message) => {
    const result = await cli(args);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^Error: [^\n]*\n$/);
    const parsed = JSON.parse(result.stdout) as { error: { code: string; message: string } };
    expect(parsed.error.code).toBe('usage');
    expect(parsed.error.message).toMatch(message);
  });

  it('without --json, stdout stays empty; --help --json still prints help and exits 0', async () => {
    const plain = await cli(['plan', '--bogus']);
    expect(plain.code).toBe(1);
    expect(plain.stdout).toBe('');
    const help = await cli(['plan', '--json', '--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/^Usage: agentsync plan/);
  });
});

describe('plan --out naming a file the run reads', () => {
  // Before: `plan --out .agentsync/local.state.json` replaced the state with the plan (the backup
  // holds only the version before the last apply, so the last apply's record was gone), and
  // `--out agents.yaml` replaced the manifest.
  const targets: [string, (state: string) => string[], RegExp][] = [
    ['the state file', (state) => ['--out', state], /it is the state \(/],
    ['the state under another spelling', () => ['--out', './.agentsync/../.agentsync/local.state.json'], /it is the state \(/],
    ["the state's backup", (state) => ['--out', `${state}.backup`], /it is the state's backup/],
    ['the manifest', () => ['--out', 'agents.yaml'], /it is the manifest \(agents\.yaml\)/],
    ['the manifest, as a text rendering', () => ['--format', 'text', '--out', 'agents.yaml'], /it is the manifest \(agents\.yaml\)/],
    ['the var file', () => ['--var-file', 'vars.yaml', '--out', 'vars.yaml'], /it is the var file \(vars\.yaml\)/],
  ];
  it.each(targets)('%s: refused before anything is printed, every input unchanged', async (_, args) => {
    writeFileSync(join(project.dir, 'vars.yaml'), '{}\n');
    writeFileSync(`${STATE()}.backup`, readFileSync(STATE()));
    const files = [STATE(), `${STATE()}.backup`, join(project.dir, 'agents.yaml'), join(project.dir, 'vars.yaml')];
    const before = files.map((file) => readFileSync(file, 'utf8'));
    const result = await cli(['plan', '--offline', ...args(STATE())]);
    expectOneLineRefusal(result, /^Error: cannot write plan file /);
    expect(result.stderr).toMatch(args(STATE()).includes('--var-file') ? /it is the var file/ : /which this run reads or writes; give another file name/);
    expect(result.stdout).toBe('');
    expect(files.map((file) => readFileSync(file, 'utf8'))).toEqual(before);
  });

  it('a new *.yaml inside a manifest folder is refused; a plan file beside the manifest is still written', async () => {
    const parts = join(project.dir, 'parts');
    const made = await cli(['state', 'migrate', '--to', join(parts, '.agentsync', 'local.state.json')]);
    expect(made.code, made.stderr).toBe(0);
    writeFileSync(join(parts, 'agents.yaml'), HOSTILE_MANIFEST);
    const inside = await cli(['plan', '--offline', '-f', 'parts', '--out', 'parts/plan.yaml']);
    expectOneLineRefusal(inside, /it is in the manifest folder parts, where it would be read as a part of the manifest/);
    const beside = await cli(['plan', '--offline', '--out', 'plan.json']);
    expect(beside.code, beside.stderr).toBe(0);
    expect(JSON.parse(readFileSync(join(project.dir, 'plan.json'), 'utf8'))).toHaveProperty('savedPlan');
  });

  it('the folder the state will be made in, before the first apply: refused, so the next plan can still make it', async () => {
    // Before: `plan --out fresh` wrote a file named fresh where the state's folder had to go, and
    // every later plan failed with "a part of the path fresh is not a folder".
    const out = await cli(['plan', '--offline', '--state', 'fresh/local.state.json', '--out', 'fresh']);
    expectOneLineRefusal(out, /^Error: cannot write plan file fresh: it is the folder that holds the state \(fresh\/local\.state\.json\)/);
    expect(existsSync(join(project.dir, 'fresh'))).toBe(false);
    const plan = await cli(['plan', '--offline', '--state', 'fresh/local.state.json']);
    expect(plan.code, plan.stderr).toBe(0);
  });
});
