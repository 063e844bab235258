// `agentsync fmt` through the built CLI: canonical text, every comment kept, the same data,
// `--check` for CI, and a file that does not parse is never touched.
import { chmodSync, mkdtempSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { commentsOf } from '../../src/core/format-manifest.js';
import { runCli } from '../support/cli.js';

const ROOT = join(import.meta.dirname, '..', '..');

const MESSY = `# yaml-language-server: $schema=./agentsync.schema.json
# The team's agents.
version: 1
'environments':
  local: { appId: 'local', region: "us", baseUrl: 'http://127.0.0.1:4010/v3', vars: { model: 'gpt-4o' } }   # the emulator
tools:
  lookup:
    displayName: 'Look it''s up'
    executionText: "true"          # must stay a string
    description: 'a: b'
    parameters:
      type: object
      properties: { city: { type: string, description: "City" }, day: { type: string, description: Day } }
      required: [day, 'city']
  zeta: { displayName: Z, executionText: Z, doNotExecute: true }
agents:
  bot:
    name: "Bot"
    integrationType: llm
    integrateWith: '\${var.model}'
    tools:
      - zeta       # the display-only one
      # between items
      - 'alpha'    # first after sorting
    actions: [lookup]
    suggestions: [Zebra?, Apple?]   # order matters here: not sorted
external:
  tools: [search_web, alpha]
`;

const CANONICAL = `# yaml-language-server: $schema=./agentsync.schema.json
# The team's agents.
version: 1
environments:
  local: { appId: local, region: us, baseUrl: http://127.0.0.1:4010/v3, vars: { model: gpt-4o } }   # the emulator
tools:
  lookup:
    displayName: Look it's up
    executionText: "true"          # must stay a string
    description: "a: b"
    parameters:
      type: object
      properties: { city: { type: string, description: City }, day: { type: string, description: Day } }
      required: [city, day]
  zeta: { displayName: Z, executionText: Z, doNotExecute: true }
agents:
  bot:
    name: Bot
    integrationType: llm
    integrateWith: \${var.model}
    tools:
      - alpha    # first after sorting
      # between items
      - zeta       # the display-only one
    actions: [lookup]
    suggestions: [Zebra?, Apple?]   # order matters here: not sorted
external:
  tools: [alpha, search_web]
`;

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'agentsync-fmt-'));
  return () => rmSync(dir, { recursive: true, force: true });
});
const file = (name = 'agents.yaml') => join(dir, name);
const fmt = (...args: string[]) => runCli(['fmt', ...args], { cwd: dir });

/** The data with set-like lists sorted: what fmt must not change. */
function meaning(text: string): unknown {
  type Data = {
    agents?: Record<string, Record<string, string[] | undefined>>;
    tools?: Record<string, { parameters?: { required?: string[] } }>;
    knowledgeBase?: { websites?: Record<string, { exclude?: string[] }> };
    external?: { tools?: string[] };
  };
  const data = parse(text) as Data;
  for (const agent of Object.values(data.agents ?? {})) for (const key of ['tools', 'actions', 'platformTools']) agent[key]?.sort();
  for (const tool of Object.values(data.tools ?? {})) tool.parameters?.required?.sort();
  for (const site of Object.values(data.knowledgeBase?.websites ?? {})) site.exclude?.sort();
  data.external?.tools?.sort();
  return data;
}

describe('agentsync fmt', () => {
  it('rewrites to the canonical form: sorted set-like lists, normalised quoting, every comment and the layout kept', async () => {
    writeFileSync(file(), MESSY);
    chmodSync(file(), 0o640);
    const result = await fmt();
    expect(result).toMatchObject({ code: 0, stdout: 'formatted agents.yaml\n', stderr: '' });
    const after = readFileSync(file(), 'utf8');
    expect(after).toBe(CANONICAL);
    expect(commentsOf(after)).toEqual(commentsOf(MESSY));
    expect(meaning(after)).toEqual(meaning(MESSY));
    expect(statSync(file()).mode & 0o777).toBe(0o640);
    // The formatted manifest is still the same, valid manifest.
    expect((await runCli(['validate'], { cwd: dir })).code).toBe(0);
  });

  it('is idempotent, and quiet about a file that is already canonical', async () => {
    writeFileSync(file(), CANONICAL);
    const result = await fmt();
    expect(result).toMatchObject({ code: 0, stdout: '', stderr: '' });
    expect(readFileSync(file(), 'utf8')).toBe(CANONICAL);
  });

  it("leaves the repository's own manifests' meaning and comments alone", async () => {
    for (const name of ['agents.yaml', 'examples/minimal.yaml', 'examples/multi-region.yaml', 'examples/external-agent.yaml', 'examples/knowledge-base.yaml']) {
      const original = readFileSync(join(ROOT, name), 'utf8');
      writeFileSync(file('m.yaml'), original);
      expect((await fmt('m.yaml')).code, name).toBe(0);
      const after = readFileSync(file('m.yaml'), 'utf8');
      expect(commentsOf(after), name).toEqual(commentsOf(original));
      expect(meaning(after), name).toEqual(meaning(original));
      // Only the lines with a list to sort may differ.
      const changed = after.split('\n').filter((line, i) => line !== original.split('\n')[i]);
      expect(
        changed.every((line) => /^\s+(tools|actions|exclude|required): \[/.test(line)),
        name,
      ).toBe(true);
    }
  });

  it('--check changes nothing, lists the files that would change, and exits 1', async () => {
    writeFileSync(file('a.yaml'), MESSY);
    writeFileSync(file('b.yaml'), CANONICAL);
    const result = await fmt('--check', 'a.yaml', 'b.yaml');
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('a.yaml\n');
    expect(result.stderr).toBe('1 file would be reformatted; run `npx --no-install agentsync fmt` to fix it.\n');
    expect(readFileSync(file('a.yaml'), 'utf8')).toBe(MESSY);
    expect(await fmt('--check', 'b.yaml')).toMatchObject({ code: 0, stdout: '', stderr: '' });
  });

  it('never touches a file that does not parse, and still formats the others', async () => {
    const broken = 'version: 1\nagents:\n  bot: { name: [unclosed\n';
    writeFileSync(file('broken.yaml'), broken);
    writeFileSync(file('good.yaml'), MESSY);
    const result = await fmt('broken.yaml', 'good.yaml');
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^Error: cannot format broken\.yaml: \d+:\d+: .+; it was left unchanged\n$/);
    expect(readFileSync(file('broken.yaml'), 'utf8')).toBe(broken);
    expect(readFileSync(file('good.yaml'), 'utf8')).toBe(CANONICAL);
    const missing = await fmt('nope.yaml');
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/^Error: cannot read manifest nope\.yaml: no such file.*\n$/);
  });

  it("escapes a file name's control characters in its error lines, as every command's error line does", async () => {
    const hostile = 'x\u001b[2J\n::warning::pwned.yaml';
    // Not UTF-8: the error names the file, in a message made before fmt sees it.
    writeFileSync(file(hostile), Buffer.from([0x76, 0x3a, 0x20, 0xff, 0x0a]));
    const result = await fmt(hostile);
    expect(result.code).toBe(1);
    // The error line keeps the message's own line breaks (render/error-line.ts), never a workflow command.
    expect(result.stderr.startsWith('Error: x\\u001b[2J\n\\u003a:warning::pwned.yaml is not valid (1 error):\n')).toBe(true);
    expect(result.stderr).not.toContain('\u001b');
    expect(result.stderr.split('\n').filter((line) => line.trimStart().startsWith('::'))).toEqual([]);
    const unparsable = 'y\u001b]0;title\u0007.yaml';
    writeFileSync(file(unparsable), 'version: 1\nagents:\n  bot: { name: [unclosed\n');
    const cannot = await fmt(unparsable);
    expect(cannot.code).toBe(1);
    expect(cannot.stderr).toMatch(/^Error: cannot format y\\u001b\]0;title\\u0007\.yaml: \d+:\d+: .+; it was left unchanged\n$/);
  });

  it('-f names the file, and a symlinked manifest is written through, the link kept', async () => {
    writeFileSync(file('real.yaml'), MESSY);
    symlinkSync('real.yaml', file('link.yaml'));
    expect((await fmt('-f', 'link.yaml')).code).toBe(0);
    expect(readFileSync(file('real.yaml'), 'utf8')).toBe(CANONICAL);
  });
});
