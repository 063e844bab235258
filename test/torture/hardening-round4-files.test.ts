// Issue 40, hostile review round 4, the manifest files and what export and plan --out write: a
// folder too large in total (item 5), a part whose name is not UTF-8 (6), export output that fmt
// would rewrite (7), export --split into a folder it must not write (8), plan --out over a file the
// run needs (9), a reference list long enough to overflow the stack (10), YAML errors said where
// they start (3.7). The CLI runs in-process on real files; the emulator is real, on port 0.
import { mkdirSync, readdirSync, readFileSync, realpathSync, symlinkSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, type CliResult } from '../support/cli.js';
import { ManifestError } from '../../src/core/diagnostics.js';
import { readManifest } from '../../src/io/manifest/manifest-parts.js';
import { readManifestFile } from '../../src/io/manifest/manifest-file.js';
import { startTestEmulator, type TestEmulator } from '../support/emulator.js';
import { makeWorkspace, STACK_TRACE, type Workspace } from './helpers.js';

let ws: Workspace;
let emulator: TestEmulator;

beforeAll(async () => {
  ws = makeWorkspace('agentsync-round4-files-');
  emulator = await startTestEmulator();
});

afterAll(async () => {
  await emulator?.close();
  ws?.remove();
});

/** A new folder in the workspace, with `files` written into it. */
function project(name: string, files: Record<string, string | Buffer> = {}): string {
  const dir = ws.path(name);
  mkdirSync(dir, { recursive: true });
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(dir, path, '..'), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  return dir;
}

function cliIn(dir: string, args: string[], env: Record<string, string> = {}): Promise<CliResult> {
  return runCli(args, { cwd: dir, env: { ...emulator.env, ...env }, timeoutMs: 60_000 });
}

function expectNoCrash(result: CliResult): void {
  expect(result.stderr).not.toMatch(/internal error/);
  expect(result.stderr).not.toMatch(STACK_TRACE);
}

const ENVIRONMENTS = `version: 1
environments:
  local:
    appId: local
    region: us
`;

describe('item 10: a long reference list is reported, not a crash', () => {
  it('an agent listing 200,000 unknown actions: validate and lint show the first 100 and count the rest', async () => {
    const names = Array.from({ length: 200_000 }, (_, i) => `x${i}`);
    const dir = project('long-list', {
      'agents.yaml': `${ENVIRONMENTS}agents:\n  a:\n    name: A\n    integrationType: llm\n    integrateWith: gpt-4o\n    instruction: hi\n    actions: [${names.join(', ')}]\n`,
    });
    for (const command of ['validate', 'lint']) {
      const result = await cliIn(dir, [command]);
      expectNoCrash(result);
      expect(result.code, result.stderr).toBe(1);
      const output = result.stdout + result.stderr;
      expect(output).toContain('unknown action "x99"');
      expect(output).not.toContain('unknown action "x101"');
      expect(output).toMatch(/and 199,900 more like the 100 above, not shown \(the next: unknown action "x100"/);
    }
  });

  it('200,000 actions of the wrong type (numbers): one diagnostic at the list, not a stack overflow inside the schema check', async () => {
    const numbers = Array.from({ length: 200_000 }, (_, i) => i);
    const dir = project('long-wrong-list', {
      'agents.yaml': `${ENVIRONMENTS}agents:\n  a:\n    name: A\n    integrationType: llm\n    integrateWith: gpt-4o\n    instruction: hi\n    actions: [${numbers.join(', ')}]\n`,
    });
    for (const command of ['validate', 'lint']) {
      const result = await cliIn(dir, [command]);
      expectNoCrash(result);
      expect(result.code, result.stderr).toBe(1);
      expect(result.stdout + result.stderr).toMatch(
        /agents\.yaml:12:14: error: this has 200,000 entries, too many wrong ones to list one by one; compare them with what the schema allows here.* \(at agents\.a\.actions\)/,
      );
    }
  });
});

describe('item 5: a folder over 10 MB in total is refused before its files are read', () => {
  const MB = 1024 * 1024;

  it('300 parts of almost 10 MB each: refused from their sizes, at the part that passes 10 MB', async () => {
    const dir = project('huge-folder');
    mkdirSync(join(dir, 'parts'));
    // Sparse files, nothing on disk. Each ends in a byte that is not UTF-8: reading any of them
    // would end in "not valid UTF-8", so the refusal below shows that none was read.
    for (let i = 0; i < 300; i++) {
      const part = join(dir, 'parts', `p${String(i).padStart(3, '0')}.yaml`);
      truncateSync((writeFileSync(part, ''), part), 10 * MB - 1);
      writeFileSync(part, Buffer.from([0xff]), { flag: 'r+' });
    }
    const heapBefore = process.memoryUsage().heapUsed;
    const result = await cliIn(dir, ['validate', '-f', 'parts']);
    expectNoCrash(result);
    expect(result.code, result.stderr).toBe(1);
    expect(result.stdout + result.stderr).toContain("parts/p001.yaml:1:1: error: the manifest's files come to more than 10 MB together; a manifest may be at most 10 MB");
    expect(result.stdout + result.stderr).not.toContain('UTF-8');
    expect(process.memoryUsage().heapUsed - heapBefore).toBeLessThan(50 * MB);
  });

  it('a part whose size is not known (stdin) is held to the bound while it is read: reading stops there', async () => {
    const dir = project('endless-stdin', { 'a.yaml': `${ENVIRONMENTS}# ${'x'.repeat(2 * MB)}\n` });
    let given = 0;
    const chunk = Buffer.from(`# ${'y'.repeat(64 * 1024 - 3)}\n`);
    async function* endless(): AsyncGenerator<Buffer> {
      for (;;) {
        given += chunk.length;
        yield chunk;
      }
    }
    const error: unknown = await readManifest(['-', 'a.yaml'], { cwd: dir, stdin: endless() }).then(
      () => undefined,
      (err: unknown) => err,
    );
    expect(error).toBeInstanceOf(ManifestError);
    expect((error as ManifestError).diagnostics.map((d) => d.message)).toEqual(["the manifest's files come to more than 10 MB together; a manifest may be at most 10 MB"]);
    // Stdin alone would stop at its own 10 MB with "the file is larger than 10 MB"; together with
    // a.yaml the bound is passed no later, and nothing past it is taken.
    expect(given).toBeLessThanOrEqual(10 * MB + chunk.length);
  });
});

describe('item 6: a part whose file name is not UTF-8', () => {
  it('validate and fmt --check refuse it by name and byte, not as a missing file; a non-YAML file so named is ignored', async () => {
    const dir = project('bytes-name', { 'd/a.yaml': ENVIRONMENTS });
    writeFileSync(Buffer.concat([Buffer.from(join(dir, 'd', 'notes')), Buffer.from([0xfe]), Buffer.from('.txt')]), 'not a part\n');
    const clean = await cliIn(dir, ['validate', '-f', 'd']);
    expect(clean.code, clean.stderr).toBe(0);
    writeFileSync(Buffer.concat([Buffer.from(join(dir, 'd', 'h')), Buffer.from([0xff]), Buffer.from('.yaml')]), 'tools: {}\n');
    for (const args of [
      ['validate', '-f', 'd'],
      ['fmt', '--check', 'd'],
    ]) {
      const result = await cliIn(dir, args);
      expectNoCrash(result);
      expect(result.code, result.stderr).toBe(1);
      expect(result.stderr).toBe('Error: cannot read manifest folder d: the name of d/h\\xff.yaml is not UTF-8 (byte 0xff at offset 1); rename it\n');
    }
  });

  it('a part its folder listed that cannot be opened is not called missing (nor a manifest to create)', async () => {
    const dir = project('listed-gone');
    const error: unknown = await readManifestFile('d/gone.yaml', { cwd: dir }, { listed: true }).then(
      () => undefined,
      (err: unknown) => err,
    );
    expect((error as Error).message).toBe('cannot read manifest d/gone.yaml: its folder lists it, but it cannot be opened (removed or renamed while agentsync read the folder?)');
  });
});

describe('item 7: what export writes passes fmt --check', () => {
  it('names fmt would write plain (???, Ünïcødé agent, yes-like and punctuated ones): one file and --split both pass', async () => {
    const names = ['???', 'Ünïcødé agent', "it's mine", 'x!', 'a, b'];
    const agents = names
      .map((name, i) => `  a${i}:\n    name: ${JSON.stringify(name)}\n    integrationType: llm\n    integrateWith: gpt-4o\n    instruction: ${JSON.stringify(`Be ${name}`)}\n`)
      .join('');
    const dir = project('export-fmt', { 'agents.yaml': `${ENVIRONMENTS}agents:\n${agents}`, 'env.yaml': ENVIRONMENTS });
    const applied = await cliIn(dir, ['apply', '--auto-approve']);
    expect(applied.code, applied.stderr).toBe(0);
    const one = await cliIn(dir, ['export', '-f', 'env.yaml', '--out', 'exported.yaml']);
    expect(one.code, one.stderr).toBe(0);
    const split = await cliIn(dir, ['export', '-f', 'env.yaml', '--split', 'exported']);
    expect(split.code, split.stderr).toBe(0);
    for (const target of ['exported.yaml', 'exported']) {
      const check = await cliIn(dir, ['fmt', '--check', target]);
      expect(check, target).toMatchObject({ code: 0, stderr: '' });
    }
    expect(readFileSync(join(dir, 'exported.yaml'), 'utf8')).toContain('name: Ünïcødé agent\n');
  });
});

describe('item 8: export --split into a folder it must not write', () => {
  it('a folder of 10,001 YAML files is refused, with or without --force, and nothing is written', async () => {
    const dir = project('export-crowded', { 'env.yaml': ENVIRONMENTS });
    mkdirSync(join(dir, 'crowded'));
    for (let i = 0; i <= 10_000; i++) writeFileSync(join(dir, 'crowded', `f${i}.yaml`), '');
    for (const force of [[], ['--force']]) {
      const result = await cliIn(dir, ['export', '-f', 'env.yaml', '--split', 'crowded', ...force]);
      expectNoCrash(result);
      expect(result.code, result.stderr).toBe(1);
      expect(result.stderr).toBe('Error: crowded holds more than 10,000 YAML files, more than a manifest may have; export --split writes into a new folder or a manifest folder\n');
    }
    expect(readdirSync(join(dir, 'crowded'))).toHaveLength(10_001);
  });

  it('DIR/agents a link to a folder elsewhere: refused even with --force, and the files there are untouched', async () => {
    const dir = project('export-linked', { 'env.yaml': ENVIRONMENTS, 'elsewhere/a0.yaml': '# mine\n', 'out/environments.yaml': ENVIRONMENTS });
    symlinkSync(join(dir, 'elsewhere'), join(dir, 'out', 'agents'));
    for (const force of [[], ['--force']]) {
      const result = await cliIn(dir, ['export', '-f', 'env.yaml', '--split', 'out', ...force]);
      expectNoCrash(result);
      expect(result.code, result.stderr).toBe(1);
      expect(result.stderr).toBe(
        "Error: out/agents is a link; export --split does not write through it (the files would replace what is where it points, and a manifest folder's links to folders are not read). Remove the link, or export into another folder\n",
      );
    }
    expect(readdirSync(join(dir, 'elsewhere'))).toEqual(['a0.yaml']);
    expect(readFileSync(join(dir, 'elsewhere', 'a0.yaml'), 'utf8')).toBe('# mine\n');
  });
});

describe('item 9: plan --out never replaces a file the run needs, under any spelling or link', () => {
  const refusal = (out: string, what: string, named: string): string => `Error: cannot write plan file ${out}: it is ${what} (${named}), which this run reads or writes; give another file name\n`;

  it('the state before the first apply, its journal and its lock (files that do not exist yet)', async () => {
    const dir = project('out-new-state', { 'agents.yaml': ENVIRONMENTS });
    for (const [out, what, named] of [
      ['./st.json', 'the state', 'st.json'],
      ['st.json.journal', "the state's journal", 'st.json.journal'],
      ['sub/../st.json.lock', "the state's lock", 'st.json.lock'],
    ] as const) {
      mkdirSync(join(dir, 'sub'), { recursive: true });
      const result = await cliIn(dir, ['plan', '--offline', '--state', 'st.json', '--out', out]);
      expectNoCrash(result);
      expect(result.code, result.stderr).toBe(1);
      expect(result.stderr).toBe(refusal(out, what, named));
    }
    expect(readdirSync(dir).sort()).toEqual(['agents.yaml', 'sub']);
  });

  it('the backup and lock beside the file a linked --state names', async () => {
    const dir = project('out-linked-state', { 'agents.yaml': `${ENVIRONMENTS}tools:\n  round4_lookup:\n    displayName: Lookup\n    executionText: Looking\n    doNotExecute: true\n` });
    mkdirSync(join(dir, 'real'));
    const applied = await cliIn(dir, ['apply', '--auto-approve', '--state', 'real/st.json']);
    expect(applied.code, applied.stderr).toBe(0);
    symlinkSync(join(dir, 'real', 'st.json'), join(dir, 'link.json'));
    const before = readdirSync(join(dir, 'real')).map((name) => [name, readFileSync(join(dir, 'real', name), 'utf8')]);
    for (const [out, what, named] of [
      ['real/st.json.backup', "the state's backup", `${realpathSync(join(dir, 'real'))}/st.json.backup`],
      ['real/st.json.lock', "the state's lock", `${realpathSync(join(dir, 'real'))}/st.json.lock`],
    ] as const) {
      const result = await cliIn(dir, ['plan', '--offline', '--state', 'link.json', '--out', out]);
      expectNoCrash(result);
      expect(result.code, result.stderr).toBe(1);
      expect(result.stderr).toBe(refusal(out, what, named));
    }
    expect(readdirSync(join(dir, 'real')).map((name) => [name, readFileSync(join(dir, 'real', name), 'utf8')])).toEqual(before);
  });

  it('a part of a manifest folder reached through a link', async () => {
    const dir = project('out-linked-part', { 'm/env.yaml': ENVIRONMENTS, 'other/tools.yaml': 'tools: {}\n' });
    symlinkSync(join(dir, 'other', 'tools.yaml'), join(dir, 'm', 'tools.yaml'));
    const result = await cliIn(dir, ['plan', '--offline', '-f', 'm', '--state', 'st.json', '--out', 'other/tools.yaml']);
    expectNoCrash(result);
    expect(result.code, result.stderr).toBe(1);
    expect(result.stderr).toBe(refusal('other/tools.yaml', 'a part of the manifest', 'm/tools.yaml'));
    expect(readFileSync(join(dir, 'other', 'tools.yaml'), 'utf8')).toBe('tools: {}\n');
  });
});

describe('item 3.7: YAML errors said where the mistake is', () => {
  const AGENT = '  a:\n    name: A\n    integrationType: llm\n    integrateWith: gpt-4o\n';

  it("an unclosed [ is pointed at, with what is missing, not reported lines later in the parser's words", async () => {
    const dir = project('yaml-unclosed', { 'agents.yaml': `${ENVIRONMENTS}agents:\n${AGENT}    tools: [x, y\n  b:\n    name: B\n` });
    const result = await cliIn(dir, ['validate']);
    expectNoCrash(result);
    expect(result.code).toBe(1);
    expect(result.stdout + result.stderr).toContain('agents.yaml:11:12: error: this [ is never closed; add ]\n1 error, 0 warnings');
  });

  it('a list closed on a line indented too little is said as that, at the [', async () => {
    const dir = project('yaml-under-indented', { 'agents.yaml': `${ENVIRONMENTS}agents:\n${AGENT}    tools: [x,\n    y]\n` });
    const result = await cliIn(dir, ['validate']);
    expect(result.stdout + result.stderr).toContain(
      'agents.yaml:11:12: error: this [ goes on at line 12, which is not indented more than the key it belongs to; indent that line further, or close the [ on its first line\n1 error, 0 warnings',
    );
  });

  it('one tab in the indentation is one error, not six', async () => {
    const dir = project('yaml-tab', { 'agents.yaml': `${ENVIRONMENTS}agents:\n  a:\n\tname: A\n    integrationType: llm\n    integrateWith: gpt-4o\n    tools: [x]\n` });
    const result = await cliIn(dir, ['validate']);
    expectNoCrash(result);
    expect(result.code).toBe(1);
    expect(result.stdout + result.stderr).toContain('agents.yaml:8:1: error: tabs cannot be used for indentation in YAML; indent with spaces\n1 error, 0 warnings');
  });
});
