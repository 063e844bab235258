// Issue 20, round 2 of hardening (part A): a quadratic `fmt`, a torn journal line that only apply
// reported, a full disk in the middle of an apply, and `${NAME:-}` / an empty baseUrl (the
// compiled-code cache's growth, which runs the bin, is in test/cli/code-cache.test.ts). The CLI runs in this process against the in-process emulator over
// real HTTP, on real files. A reader that hangs up (`| head`) is test/torture/processes.test.ts.
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, type CliResult } from '../support/cli.js';
import { startTestEmulator, type TestEmulator } from '../support/emulator.js';
import { makeWorkspace, STACK_TRACE, type Workspace } from './helpers.js';
import { leftoverTemps, smallManifest, smallProjects } from './hardening-helpers.js';

let emulator: TestEmulator;
let ws: Workspace;

beforeAll(async () => {
  emulator = await startTestEmulator();
  ws = makeWorkspace('agentsync-round2a-');
});

afterAll(async () => {
  await emulator?.close();
  ws?.remove();
});

const project = smallProjects(
  () => ws,
  () => emulator.env,
  'r',
);

describe('fmt is linear in the size of the manifest', () => {
  /** A manifest whose every tool has quoting to normalise and a list to sort. */
  function fmtManifest(tools: number): string {
    const lines = ['version: 1', 'environments:', '  local: { appId: local, region: us }', 'tools:'];
    for (let i = 0; i < tools; i++) {
      lines.push(
        `  lookup_${i}:`,
        `    displayName: 'Lookup ${i}'`,
        `    executionText: "Looking up ${i}"   # said while it runs`,
        '    parameters:',
        '      type: object',
        `      properties: { order_id: { type: string, description: 'the order' }, customer: { type: string } }`,
        '      required: [order_id, customer]',
      );
    }
    return lines.join('\n') + '\n';
  }

  it('takes about 8× as long for 8× the tools, not 64× (it took 10× for 4× before)', async () => {
    const dir = ws.path('fmt-linear');
    mkdirSync(dir);
    const timed = async (tools: number, budgetMs: number): Promise<number> => {
      const file = join(dir, `tools-${tools}.yaml`);
      writeFileSync(file, fmtManifest(tools));
      const started = performance.now();
      const run = await runCli(['fmt', file], { timeoutMs: budgetMs });
      const ms = performance.now() - started;
      expect(run.code, `${tools} tools: ${run.stderr} (killed after ${Math.round(ms)} ms?)`).toBe(0);
      expect(run.stdout).toBe(`formatted ${file}\n`);
      const text = readFileSync(file, 'utf8');
      expect(text).toContain('required: [customer, order_id]');
      expect(text).toContain('displayName: Lookup 1\n');
      return ms;
    };
    const small = await timed(500, 60_000);
    // Linear with start-up is well under 8× (about 2.5× measured); the quadratic splicing took 14×.
    const large = await timed(4_000, Math.max(20_000, 16 * small));
    console.log(`fmt: 500 tools ${Math.round(small)} ms, 4,000 tools ${Math.round(large)} ms (${(large / small).toFixed(1)}×)`);
    expect(large / small).toBeLessThan(8);
  });
});

describe('a torn last journal line is reported by plan and apply alike, once', () => {
  it('warns once in plan, plan --out, apply PLANFILE and apply', async () => {
    const p = project('v1');
    expect((await p.cli(['apply', '--auto-approve', ...p.args])).code).toBe(0);
    const tear = (): void => writeFileSync(`${p.state}.journal`, '{"op":"applied","address":"tool.x","ty');
    const warnings = (r: CliResult): string[] => r.stderr.split('\n').filter((l) => /incomplete last line/.test(l));
    p.write('v2');

    tear();
    const planned = await p.cli(['plan', ...p.args]);
    expect(planned.code, planned.stderr).toBe(0);
    expect(warnings(planned)).toHaveLength(1);
    expect(warnings(planned)[0]).toContain(`${p.state}.journal`);

    const planFile = join(p.dir, 'reviewed.plan');
    const saved = await p.cli(['plan', '--out', planFile, ...p.args]);
    expect(saved.code, saved.stderr).toBe(0);
    expect(warnings(saved)).toHaveLength(1);
    const appliedSaved = await p.cli(['apply', planFile, ...p.args]);
    expect(appliedSaved.code, appliedSaved.stderr).toBe(0);
    expect(warnings(appliedSaved)).toHaveLength(1);

    p.write('v3');
    tear();
    const applied = await p.cli(['apply', '--auto-approve', ...p.args]);
    expect(applied.code, applied.stderr).toBe(0);
    expect(warnings(applied)).toHaveLength(1);
    // The torn line is gone once the state absorbed the journal: the next plan is quiet.
    const after = await p.cli(['plan', '--detailed-exitcode', ...p.args]);
    expect(after.code).toBe(0);
    expect(warnings(after)).toHaveLength(0);
  });
});

describe('${NAME:-} and an empty baseUrl', () => {
  it('resolve to the empty string and to the region’s default URL', async () => {
    const dir = ws.path('empty-defaults');
    mkdirSync(dir);
    const manifest = join(dir, 'agents.yaml');
    writeFileSync(
      manifest,
      [
        'version: 1',
        'environments:',
        '  local:',
        '    appId: "local${R2A_APP_SUFFIX:-}"',
        '    region: us',
        '    baseUrl: "${R2A_BASE_URL:-}"',
        '    vars: { note: "${R2A_NOTE:-}" }',
        '  literal:',
        '    appId: other',
        '    region: eu',
        '    baseUrl: ""',
        '    vars: { note: "" }',
        'tools:',
        '  t0:',
        '    displayName: "Tool${R2A_SUFFIX:-}"',
        '    description: "${R2A_DESCRIPTION:-}"',
        '    executionText: "Running${var.note}"',
        '    doNotExecute: true',
        'agents:',
        '  helper:',
        '    name: "Helper${R2A_SUFFIX:-}"',
        '    integrationType: llm',
        '    integrateWith: gpt-4o',
        '    instruction: "${R2A_INSTRUCTION:-}"',
        '    tools: [t0]',
        '',
      ].join('\n'),
    );
    const offline = { AGENTSYNC_BASE_URL: undefined };
    for (const [env, url] of [
      ['local', 'https://local.api-us.cometchat.io/v3'],
      ['literal', 'https://other.api-eu.cometchat.io/v3'],
    ] as const) {
      const validated = await runCli(['validate', '-f', manifest, '-e', env], { env: offline });
      expect(validated.code, validated.stdout + validated.stderr).toBe(0);
      const planned = await runCli(['plan', '--offline', '-f', manifest, '-e', env, '--state', join(dir, `${env}.json`)], { env: offline });
      expect(planned.code, planned.stderr).toBe(0);
      expect(planned.stdout).toContain(` at ${url}\n`);
    }
    const text = await runCli(['plan', '--offline', '-f', manifest, '-e', 'local', '--state', join(dir, 'local.json')], { env: offline });
    expect(text.stdout).toContain('displayName: "Tool"');
    expect(text.stdout).toContain('executionText: "Running"');
    // An optional field that resolves empty is the same as an absent one (docs/spec/server.md#how-records-compare): not planned.
    expect(text.stdout).not.toContain('instruction:');
    expect(text.stdout).toContain('name: "Helper"');
    // And against a server: the override still wins over the empty baseUrl.
    const state = join(dir, 'applied.json');
    const applied = await runCli(['apply', '--auto-approve', '-f', manifest, '-e', 'local', '--state', state], { env: emulator.env });
    expect(applied.code, applied.stderr).toBe(0);
    expect((await runCli(['plan', '--detailed-exitcode', '-f', manifest, '-e', 'local', '--state', state], { env: emulator.env })).code).toBe(0);
  });
});

describe('a full disk in the middle of an apply', () => {
  const mounts: string[] = [];
  afterAll(() => {
    for (const dir of mounts) {
      try {
        execFileSync('umount', ['-l', dir], { stdio: 'pipe' });
      } catch (err) {
        console.log(`could not unmount ${dir}: ${(err as Error).message}`);
      }
    }
  });

  it('never says "Apply complete" on a failed run, and names what was applied but not recorded', async (ctx) => {
    const dir = ws.path('full');
    mkdirSync(dir);
    try {
      execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=256k,mode=0755', 'tmpfs', dir], { stdio: 'pipe' });
    } catch (err) {
      console.log(`skipped: cannot mount a tmpfs at ${dir} (${(err as Error).message}); this test needs root and mount rights`);
      ctx.skip();
      return;
    }
    mounts.push(dir);
    const manifest = ws.path('full-agents.yaml');
    const state = join(dir, 'state.json');
    const args = ['apply', '--auto-approve', '-f', manifest, '--state', state];
    // 30 tools whose text changes every round: 30 updates, as the run had.
    const write = (round: number): void => writeFileSync(manifest, smallManifest('dfull', `round ${round}`, 30).replaceAll('Running ', `Running r${round} `));
    write(0);
    expect((await runCli(args, { env: emulator.env })).code).toBe(0);
    // Fill the disk, then free one page at a time: each run fails at a later point.
    mkdirSync(join(dir, 'filler'));
    const filler: string[] = [];
    for (let i = 0; ; i++) {
      const file = join(dir, 'filler', String(i));
      try {
        writeFileSync(file, Buffer.alloc(4096, 1));
        filler.push(file);
      } catch {
        rmSync(file, { force: true });
        break;
      }
    }
    const seen: string[] = [];
    for (let round = 1; round < 60; round++) {
      write(round);
      const run = await runCli(args, { env: emulator.env });
      if (run.code === 0) break;
      expect(run.code, run.stderr).toBe(1);
      expect(run.stderr).not.toMatch(STACK_TRACE);
      expect(run.stdout, 'a failed run must not claim to be complete').not.toMatch(/Apply complete/);
      const madeCalls = /Applied|applied but not recorded|Done \(/.test(run.stdout);
      if (madeCalls) {
        // What reached the server is listed, and whether it is recorded is said.
        expect(run.stdout).toMatch(/not written|NOT recorded/);
        expect(run.stdout).toMatch(/tool\.dfull_t\d+/);
        expect(run.stderr).toMatch(/no space left on device/);
        seen.push(run.stdout.split('\n').find((l) => /^Appl/.test(l)) ?? '');
      }
      expect(leftoverTemps(dir)).toEqual([]);
      const freed = filler.pop();
      if (freed) rmSync(freed);
    }
    console.log(`full disk mid-apply, summaries seen:\n  ${[...new Set(seen.map((l) => l.replace(dir, '<mount>')))].join('\n  ')}`);
    expect(seen.length, 'at least one run failed after making calls').toBeGreaterThan(0);
    // Whatever was applied and kept in the journal is recorded by the run that finishes.
    const planned = await runCli(['plan', '--detailed-exitcode', '-f', manifest, '--state', state], { env: emulator.env });
    expect(planned.code, planned.stdout + planned.stderr).toBe(0);
  });
});
