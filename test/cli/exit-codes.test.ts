// "Errors become exit codes in one place" (docs/architecture.md): src/cli/exit-codes.ts decides every
// exit code and prints every error line; a command returns an Outcome or throws. Kept true by reading
// the source, as test/core/function-length.test.ts keeps its rule.
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT, runCli } from '../support/cli.js';

const CLI_DIR = join(ROOT, 'src', 'cli');
const THE_ONE_PLACE = 'src/cli/exit-codes.ts';

/** What only the one place may do: end a run with a code of its own making, or write an error line. */
const ENDING_A_RUN: ReadonlyArray<readonly [what: string, pattern: RegExp]> = [
  ['constructs the error that carries an outcome', /\bnew\s+(ExitRequest|EndOfCommand)\b/],
  ['makes an error line', /\brenderErrorLine\b|['"`]Error: /],
  ['makes an {"error"} document', /\brenderJsonError\b/],
  ['sets an exit code', /\bprocess\.exit(Code)?\b/],
];

/** Each line of `text` that does what only the one place may, as `file:line what`. */
function endingsIn(file: string, text: string): string[] {
  return text.split('\n').flatMap((line, i) => {
    if (/^\s*(\/\/|\*)/.test(line)) return [];
    return ENDING_A_RUN.filter(([, pattern]) => pattern.test(line)).map(([what]) => `${file}:${i + 1} ${what}`);
  });
}

function cliSources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return cliSources(path);
    return entry.name.endsWith('.ts') ? [relative(ROOT, path)] : [];
  });
}

describe('errors become exit codes in one place', () => {
  it('no file under src/cli but exit-codes.ts (and the bin, entry.ts, for a second signal) ends a run or prints an error line', () => {
    const files = cliSources(CLI_DIR);
    expect(files).toContain(THE_ONE_PLACE);
    expect(files.length).toBeGreaterThan(40);
    const found = files.filter((f) => f !== THE_ONE_PLACE).flatMap((f) => endingsIn(f, readFileSync(join(ROOT, f), 'utf8')));
    // The bin hands the process the code runMain resolved to, or exitCodeOf's on a second signal.
    const byTheBin = (hit: string) => hit.startsWith('src/cli/entry.ts:') && hit.endsWith(' sets an exit code');
    expect(found.filter(byTheBin).length).toBeGreaterThan(0);
    expect(found.filter((hit) => !byTheBin(hit))).toEqual([]);
  });

  it('the one place does each of these, so the scan looks for what is really written', () => {
    const text = readFileSync(join(ROOT, THE_ONE_PLACE), 'utf8');
    const kinds = new Set(endingsIn(THE_ONE_PLACE, text).map((hit) => hit.replace(/^\S+ /, '')));
    expect([...kinds].sort()).toEqual(['constructs the error that carries an outcome', 'makes an error line', 'makes an {"error"} document']);
  });

  it('finds a command that would print its own error line or end with a code of its own', () => {
    const planted = ["  io.stderr.write(`Error: ${message}\\n');", '  throw new ExitRequest(1);', '  // a comment may say "Error: " and new ExitRequest'].join('\n');
    expect(endingsIn('src/cli/commands/x.ts', planted)).toEqual(['src/cli/commands/x.ts:1 makes an error line', 'src/cli/commands/x.ts:2 constructs the error that carries an outcome']);
  });

  it('every ending keeps its exit code: 0, 1, 2 (--detailed-exitcode) and a usage error with its {"error"} document', async () => {
    expect((await runCli(['--version'])).code).toBe(0);
    expect(await runCli(['plan', '--bogus', '--json'])).toMatchObject({ code: 1, stdout: expect.stringMatching(/^\{"error":\{"code":"usage","message":"unknown option '--bogus'/) });
    expect(await runCli(['validate', '-f', 'examples/minimal.yaml'])).toMatchObject({ code: 0 });
    const nowhere = join(mkdtempSync(join(tmpdir(), 'agentsync-exit-')), 'state.json');
    expect(await runCli(['plan', '--offline', '--detailed-exitcode', '-f', 'examples/minimal.yaml', '--state', nowhere])).toMatchObject({ code: 2 });
    const missing = await runCli(['validate', '-f', 'nope.yaml']);
    expect(missing).toMatchObject({ code: 1, stdout: '' });
    expect(missing.stderr).toMatch(/^Error: cannot read manifest nope\.yaml: no such file/);
  });
});
