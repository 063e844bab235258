// buildProgram defines only the command a run names (P3 start-up); these check that the table it
// picks from still names each command as the command registers itself, and what gets everything.
import { Readable, Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import type { CliIo } from '../../src/cli/cli-io.js';
import { buildProgram } from '../../src/cli/program.js';

const sink = (): Writable => new Writable({ write: (_chunk, _encoding, done) => done() });
const io: CliIo = { stdout: sink(), stderr: sink(), stdin: Readable.from([]), env: {}, cwd: process.cwd(), signal: new AbortController().signal };
const names = (argv?: readonly string[]): string[] => buildProgram(io, argv).commands.map((command) => command.name());

describe('buildProgram', () => {
  const every = names();

  it('defines every command when it is not told the arguments', () => {
    expect(every).toEqual(['init', 'validate', 'lint', 'graph', 'fmt', 'plan', 'apply', 'diff', 'show', 'import', 'export', 'state', 'schema', 'send', 'kb', 'emulator', 'completion']);
  });

  it.each(every.filter((name) => name !== 'completion'))('defines only `%s` when the run names it', (name) => {
    expect(names([name, '--help'])).toEqual([name]);
  });

  it('defines every command for completion, help, an option first, an unknown word or nothing', () => {
    for (const argv of [['completion', 'bash'], ['help', 'plan'], ['--help'], ['-V', 'plan'], ['valdate'], []]) expect(names(argv)).toEqual(every);
  });

  it('defines none for --version alone', () => {
    expect(names(['--version'])).toEqual([]);
    expect(names(['-V'])).toEqual([]);
  });
});
