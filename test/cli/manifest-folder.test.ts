// A manifest in many files, through the CLI in-process against the emulator over HTTP: the demo
// manifest cut into a folder of parts plans byte for byte as the one file does; a key defined
// twice names both places; every command finds the folder (-f, repeated -f, AGENTSYNC_MANIFEST, an
// agents/ folder by default); fmt works per file; a saved plan goes stale when any part changes;
// export --split round-trips to "No changes" on servers that normalise what they store.
import { mkdir, mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, type CliResult } from '../support/cli.js';
import { API_KEY, startTestEmulator, type TestEmulator } from '../support/emulator.js';
import { DEMO_MANIFEST, DEMO_SECRET } from './lifecycle-fixture.js';

const SECRET_ENV = { RETURNS_TOKEN: DEMO_SECRET };

/**
 * The manifest's text cut into parts as a team might: each tool and each agent in a file of its
 * own, every other top-level section in its own file, `version` with the environments.
 */
function splitManifest(text: string): Record<string, string> {
  const parts: Record<string, string> = {};
  const lines = text.split('\n');
  let section = '';
  let target = '';
  let head = '';
  const add = (file: string, line: string): void => {
    parts[file] = (parts[file] ?? head) + line + '\n';
  };
  for (const line of lines) {
    const top = /^([A-Za-z]+):/.exec(line);
    if (top) {
      section = top[1] ?? '';
      head = section === 'tools' || section === 'agents' ? `${section}:\n` : '';
      target = section === 'version' ? 'environments.yaml' : `${section}.yaml`;
      if (section === 'tools' || section === 'agents') continue;
      add(target, line);
      continue;
    }
    const entry = /^ {2}([A-Za-z_]+):/.exec(line);
    if (entry && (section === 'tools' || section === 'agents')) target = `${section}/${entry[1]}.yaml`;
    if (section === '' || line.trim() === '') continue;
    add(target, line);
  }
  return parts;
}

async function writeParts(dir: string, parts: Record<string, string>): Promise<void> {
  for (const [file, text] of Object.entries(parts)) {
    await mkdir(dirname(join(dir, file)), { recursive: true });
    await writeFile(join(dir, file), text);
  }
}

describe('a manifest in many files', () => {
  let emu: TestEmulator;
  let dir: string;
  let oneFile: string;
  const cli = (args: readonly string[], env: Record<string, string> = {}, cwd = dir): Promise<CliResult> =>
    runCli(args, { cwd, env: { COMETCHAT_API_KEY: API_KEY, AGENTSYNC_BASE_URL: emu.url, ...SECRET_ENV, ...env } });

  beforeAll(async () => {
    emu = await startTestEmulator();
    dir = await mkdtemp(join(tmpdir(), 'agentsync-parts-'));
    oneFile = await readFile(DEMO_MANIFEST, 'utf8');
    await writeFile(join(dir, 'one.yaml'), oneFile);
    await writeParts(join(dir, 'parts'), splitManifest(oneFile));
  });
  afterAll(async () => {
    await emu.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('cuts the demo into a folder of many files', async () => {
    const files = (await readdir(join(dir, 'parts'), { recursive: true })).filter((f) => f.endsWith('.yaml')).sort();
    expect(files).toEqual(expect.arrayContaining(['environments.yaml', 'knowledgeBase.yaml', 'notify.yaml', 'tools/create_ticket.yaml', 'agents/support.yaml']));
    expect(files.length).toBeGreaterThan(10);
  });

  it('plans the folder exactly as the one file: the same plan JSON, byte for byte', async () => {
    const state = ['--state', 'plan-compare.json'];
    const one = await cli(['plan', '--json', '-f', 'one.yaml', ...state]);
    const folder = await cli(['plan', '--json', '-f', 'parts', ...state]);
    expect(one.code, one.stderr).toBe(0);
    expect(folder.code, folder.stderr).toBe(0);
    expect(JSON.parse(one.stdout).changes.length).toBeGreaterThan(5);
    expect(folder.stdout).toBe(one.stdout);
    // The same folder given as its files, repeated -f, in another order.
    const files = (await readdir(join(dir, 'parts'), { recursive: true })).filter((f) => f.endsWith('.yaml')).reverse();
    const listed = await cli(['plan', '--json', ...files.flatMap((f) => ['-f', join('parts', f)]), ...state]);
    expect(listed.stdout).toBe(one.stdout);
  });

  it('validates, applies and then plans no changes from the folder; the state sits beside it', async () => {
    expect(await cli(['validate', '-f', 'parts'])).toMatchObject({ code: 0, stdout: 'parts is valid (environment local).\n' });
    const applied = await cli(['apply', '--auto-approve', '-f', 'parts']);
    expect(applied.code, applied.stderr).toBe(0);
    expect(applied.stdout).toContain('Apply complete: 9 created');
    expect(JSON.parse(await readFile(join(dir, '.agentsync', 'local.state.json'), 'utf8')).resources).toBeDefined();
    const again = await cli(['plan', '--detailed-exitcode', '-f', 'parts/']);
    expect(again.stdout).toContain('No changes.');
    expect(again.code).toBe(0);
    expect(await cli(['state', 'list', '-f', 'parts'])).toMatchObject({ code: 0, stdout: expect.stringContaining('agent.support') });
  });

  it('finds the folder without -f: AGENTSYNC_MANIFEST, or agents/ when there is no agents.yaml', async () => {
    const project = join(dir, 'project');
    await writeParts(join(project, 'agents'), splitManifest(oneFile));
    const byDefault = await cli(['validate'], {}, project);
    expect(byDefault).toMatchObject({ code: 0, stdout: 'agents is valid (environment local).\n' });
    const named = await cli(['validate'], { AGENTSYNC_MANIFEST: join(dir, 'parts') }, project);
    expect(named.stdout).toBe(`${join(dir, 'parts')} is valid (environment local).\n`);
    // Both there: neither wins silently (issue 40); -f says which.
    await writeFile(join(project, 'agents.yaml'), 'version: 1\n');
    const both = await cli(['validate'], {}, project);
    expect(both.code).toBe(1);
    expect(both.stderr).toMatch(/^Error: both agents\.yaml and an agents\/ folder are here, and either could be the manifest; pass -f agents\.yaml or -f agents/);
    const file = await cli(['validate', '-f', 'agents.yaml'], {}, project);
    expect(file.code).toBe(1);
    expect(file.stderr).toContain('agents.yaml:1:1: error: missing required key "environments"');
  });

  it('refuses a key defined in two files, naming both as file:line:col, before any request', async () => {
    const broken = join(dir, 'broken');
    await writeParts(broken, { ...splitManifest(oneFile), 'zz/again.yaml': '# a second create_ticket\ntools:\n  create_ticket:\n    displayName: Again\n    executionText: x\n    description: y\n' });
    const before = (await emu.requests()).length;
    for (const command of [['validate'], ['plan'], ['apply', '--auto-approve']]) {
      const result = await cli([...command, '-f', 'broken']);
      expect(result.code).toBe(1);
      expect(result.stdout + result.stderr).toContain(
        'broken/zz/again.yaml:3:3: error: tools.create_ticket is already defined in broken/tools/create_ticket.yaml:2:3; each one may be defined in one file only (at tools.create_ticket)',
      );
    }
    expect((await emu.requests()).length).toBe(before);
    const json = await cli(['validate', '--json', '-f', 'broken']);
    expect(JSON.parse(json.stdout).diagnostics).toEqual([expect.objectContaining({ file: 'broken/zz/again.yaml', line: 3, column: 3, path: 'tools.create_ticket' })]);
  });

  it('names the file in lint findings and GitHub annotations', async () => {
    const linted = await cli(['lint', '-f', 'parts'], { GITHUB_ACTIONS: 'true' });
    const annotations = linted.stdout.split('\n').filter((line) => line.startsWith('::'));
    expect(annotations.length).toBeGreaterThan(0);
    for (const line of annotations) expect(line).toMatch(/^::(warning|error) file=parts\/[a-zA-Z_/]+\.yaml,line=\d+,col=\d+,/);
  });

  it('refuses a file given twice, an empty folder, and reads no hidden file', async () => {
    const twice = await cli(['validate', '-f', 'parts', '-f', 'parts/notify.yaml']);
    expect(twice).toMatchObject({ code: 1, stderr: 'Error: the manifest file parts/notify.yaml is given twice; give each file or folder once\n' });
    await mkdir(join(dir, 'empty', 'sub'), { recursive: true });
    await writeFile(join(dir, 'empty', 'notes.txt'), 'not a manifest');
    expect(await cli(['plan', '-f', 'empty'])).toMatchObject({ code: 1, stderr: 'Error: cannot read manifest empty: the folder holds no *.yaml or *.yml file\n' });
    const hidden = join(dir, 'hidden');
    await writeParts(hidden, { ...splitManifest(oneFile), '.backup/tools.yaml': 'tools: { broken' });
    expect((await cli(['validate', '-f', 'hidden'])).code).toBe(0);
  });

  it('formats each file on its own, and --check lists only those that would change', async () => {
    const fmtDir = join(dir, 'fmt');
    await writeParts(fmtDir, {
      'a.yaml': 'version: 1\nenvironments:\n  local: { appId: local, region: us }\n',
      'b.yaml': "tools:\n  t:\n    displayName: 'T'\n    executionText: x\n    doNotExecute: true\n",
      'c.yaml': '',
    });
    const check = await cli(['fmt', '--check', '-f', 'fmt']);
    expect(check).toMatchObject({ code: 1, stdout: 'fmt/b.yaml\n' });
    expect(await cli(['fmt', 'fmt'])).toMatchObject({ code: 0, stdout: 'formatted fmt/b.yaml\n' });
    expect(await readFile(join(fmtDir, 'b.yaml'), 'utf8')).toContain('displayName: T\n');
    expect(await cli(['fmt', '--check', '-f', 'fmt'])).toMatchObject({ code: 0, stdout: '' });
  });

  it('prints a file name from a folder inertly: no escape sequence, no line that is a workflow command', async () => {
    const hostile = join(dir, 'hostile');
    const name = 'x\u001b[2J\n::warning::pwned.yaml';
    await writeParts(hostile, {
      'env.yaml': 'version: 1\nenvironments:\n  local: { appId: local, region: us }\n',
      [name]: "tools:\n  t:\n    displayName: 'T'\n    executionText: x\n    doNotExecute: true\n",
    });
    const check = await cli(['fmt', '--check', '-f', 'hostile']);
    expect(check.code).toBe(1);
    expect(check.stdout).toBe('hostile/x\\u001b[2J\\u000a::warning::pwned.yaml\n');
    const twice = await cli(['validate', '-f', 'hostile', '-f', join('hostile', name)]);
    expect(twice.code).toBe(1);
    for (const out of [check.stdout, check.stderr, twice.stderr]) {
      expect(out).not.toContain('\u001b');
      expect(out.split('\n').filter((line) => line.startsWith('::'))).toEqual([]);
    }
  });

  it('a saved plan goes stale when any part changes', async () => {
    const planDir = join(dir, 'saved');
    await writeParts(planDir, splitManifest(oneFile));
    // The state beside the folder is the one the apply above wrote, so the server holds it all.
    const saved = await cli(['plan', '-f', 'saved', '--out', 'saved.plan']);
    expect(saved.code, saved.stderr).toBe(0);
    const guide = join(planDir, 'agents', 'store_guide.yaml');
    await writeFile(guide, (await readFile(guide, 'utf8')).replace('name: Store guide', 'name: Store guide 2'));
    expect(saved.stdout).toContain('No changes.');
    const stale = await cli(['apply', 'saved.plan', '-f', 'saved']);
    expect(stale.code).toBe(1);
    expect(stale.stderr).toMatch(/manifest .*changed/i);
  });
});

describe.each([
  ['a server that normalises what it stores', false],
  ['a server that stores as sent (--store-as-sent)', true],
] as const)('export --split against %s', (_name, storeAsSent) => {
  let emu: TestEmulator;
  let dir: string;
  const cli = (args: readonly string[], env: Record<string, string> = {}): Promise<CliResult> => runCli(args, { cwd: dir, env: { COMETCHAT_API_KEY: API_KEY, AGENTSYNC_BASE_URL: emu.url, ...env } });

  beforeAll(async () => {
    emu = await startTestEmulator({ storeAsSent });
    dir = await mkdtemp(join(tmpdir(), 'agentsync-split-'));
  });
  afterAll(async () => {
    await emu.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('writes a folder that imports and plans "No changes", and never overwrites one without --force', async () => {
    expect((await cli(['apply', '--auto-approve', '-f', DEMO_MANIFEST, '--state', 'demo.json'], SECRET_ENV)).code).toBe(0);
    await writeFile(join(dir, 'env.yaml'), 'version: 1\nenvironments:\n  local: { appId: local, region: us }\n');
    const exported = await cli(['export', '-f', 'env.yaml', '--split', 'split']);
    expect(exported.code, exported.stderr).toBe(0);
    expect(exported.stdout).toBe('Exported 6 tools and 3 agents to split (5 files).\n');
    const files = (await readdir(join(dir, 'split'), { recursive: true })).filter((f) => f.endsWith('.yaml')).sort();
    expect(files).toEqual(['agents/acme_local_support.yaml', 'agents/returns_desk.yaml', 'agents/store_guide.yaml', 'environments.yaml', 'tools.yaml']);
    // The agent that alone uses a tool has it in its own file; a shared or unused tool is in tools.yaml.
    expect(await readFile(join(dir, 'split', 'agents', 'acme_local_support.yaml'), 'utf8')).toContain('  show_product_card:\n');
    const shared = await readFile(join(dir, 'split', 'tools.yaml'), 'utf8');
    expect(shared).toContain('  create_ticket:\n');
    expect(shared).toContain('  search_web:\n');
    // The secret is listed in the file that needs it, never its value.
    const returns = await readFile(join(dir, 'split', 'agents', 'returns_desk.yaml'), 'utf8');
    expect(returns).toContain('#   AGENT_RETURNS_DESK_HEADERS_AUTHORIZATION  agent.returns_desk integrationMeta.headers.Authorization');
    for (const file of files) expect(await readFile(join(dir, 'split', file), 'utf8')).not.toContain('s3cr3t');
    // What export writes is already formatted: fmt --check in CI passes on a fresh export.
    expect(await cli(['fmt', '--check', '-f', 'split'])).toMatchObject({ code: 0, stdout: '' });

    const secret = { AGENT_RETURNS_DESK_HEADERS_AUTHORIZATION: DEMO_SECRET };
    const imported = await cli(['import', '-f', 'split', '--state', 'split.json'], secret);
    expect(imported.code, imported.stderr).toBe(0);
    const plan = await cli(['plan', '--detailed-exitcode', '-f', 'split', '--state', 'split.json'], secret);
    expect(plan.stdout, plan.stderr).toContain('No changes.');
    expect(plan.code).toBe(0);

    const again = await cli(['export', '-f', 'env.yaml', '--split', 'split']);
    expect(again).toMatchObject({ code: 1, stderr: expect.stringContaining('split already holds manifest files (split/agents/acme_local_support.yaml and 4 more); export does not overwrite them') });
    // --force replaces the folder's YAML files, removing any the export no longer writes.
    await writeFile(join(dir, 'split', 'agents', 'gone.yaml'), 'agents:\n  gone: { name: Gone, integrationType: llm, integrateWith: x }\n');
    const forced = await cli(['export', '-f', 'env.yaml', '--split', 'split', '--force', '--json']);
    expect(JSON.parse(forced.stdout)).toMatchObject({ out: 'split', removed: ['split/agents/gone.yaml'], counts: { tool: 6, agent: 3 } });
    const replanned = await cli(['plan', '--detailed-exitcode', '-f', 'split', '--state', 'split.json'], secret);
    expect(replanned.code, replanned.stdout + replanned.stderr).toBe(0);
    expect(await cli(['export', '-f', 'env.yaml', '--split', 'x', '--out', 'y.yaml'])).toMatchObject({ code: 1, stderr: 'Error: use either --out or --split, not both\n' });
  });
});
