// Bad input: every hostile manifest, state file and saved plan must give exit 1, a short reason
// on stderr (FILE:LINE:COL for manifests, the file's name for state and plan files), no stack
// trace, not one request to the emulator, and a state file that is byte-for-byte unchanged.
import { copyFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, type ExpectStatic } from 'vitest';
import { GOOD_MANIFEST, type CaseFiles, type HostileCase } from './bad-input/cases.js';
import { exhaustionCases, referenceCases, schemaCases, syntaxCases } from './bad-input/manifest-cases.js';
import { planCases, stateCases } from './bad-input/state-and-plan-cases.js';
import { assertBuilt, runCli } from '../support/cli.js';
import { startTestEmulator, type TestEmulator } from '../support/emulator.js';
import { makeWorkspace, reasonLines, STACK_TRACE, type Workspace } from './helpers.js';

const groups: Record<string, HostileCase[]> = {
  'manifest syntax': syntaxCases,
  'manifest size and depth': exhaustionCases,
  'manifest schema': schemaCases,
  'manifest references and variables': referenceCases,
  'state file': stateCases,
  'plan file': planCases,
};

const MAX_REASON_CHARS = 2000;

/** Only for making the good state; each case gets its own emulator so cases can run concurrently. */
let setupEmulator: TestEmulator;
let ws: Workspace;
let goodManifest: string;
let goodState: string;
let caseNumber = 0;

beforeAll(async () => {
  assertBuilt();
  setupEmulator = await startTestEmulator();
  ws = makeWorkspace();
  goodManifest = ws.path('good', 'agents.yaml');
  goodState = ws.path('good', 'state.json');
  mkdirSync(ws.path('good'));
  writeFileSync(goodManifest, GOOD_MANIFEST);
  const applied = await runCli(['apply', '--auto-approve', '-f', goodManifest, '--state', goodState], { env: setupEmulator.env });
  if (applied.code !== 0) throw new Error(`the good manifest must apply: ${applied.stderr}`);
  await setupEmulator.close();
});

afterAll(() => ws?.remove());

function caseFiles(emulator: TestEmulator): CaseFiles {
  const dir = ws.path(`case-${++caseNumber}`);
  mkdirSync(dir);
  const manifest = join(dir, 'good.yaml');
  const state = join(dir, 'state.json');
  copyFileSync(goodManifest, manifest);
  copyFileSync(goodState, state);
  return {
    manifest,
    state,
    path: (name) => join(dir, name),
    write: (name, content) => {
      const path = join(dir, name);
      writeFileSync(path, content);
      return path;
    },
    cli: (args) => runCli(args, { env: emulator.env }),
  };
}

const total = Object.values(groups).reduce((n, list) => n + list.length, 0);

describe(`bad input (${total} hostile inputs)`, () => {
  it('has at least 60 cases', () => expect(total).toBeGreaterThanOrEqual(60));

  for (const [group, cases] of Object.entries(groups)) {
    // Concurrent: each case has its own files and its own emulator, so its request log is its own.
    describe.concurrent(group, () => {
      for (const hostile of cases) {
        it(hostile.name, async ({ expect }) => {
          const emulator = await startTestEmulator();
          try {
            await checkCase(hostile, emulator, expect);
          } finally {
            await emulator.close();
          }
        });
      }
    });
  }
});

async function checkCase(hostile: HostileCase, emulator: TestEmulator, expect: ExpectStatic): Promise<void> {
  const files = caseFiles(emulator);
  const run = await hostile.setup(files);
  const before = snapshot(files.state);
  await emulator.clearRequests();
  const result = await runCli(run.args, { env: { ...emulator.env, ...run.env }, timeoutMs: 60_000 });

  expect(result.code, `exit code; stderr: ${result.stderr.slice(0, 500)}`).toBe(1);
  expect(result.stderr).not.toMatch(STACK_TRACE);
  const lines = reasonLines(result.stderr);
  expect(lines.length, 'a reason on stderr').toBeGreaterThanOrEqual(1);
  expect(lines.length, `one line per error, at most ${run.errors ?? 1}:\n${result.stderr.slice(0, 1500)}`).toBeLessThanOrEqual(run.errors ?? 1);
  for (const line of lines) expect(line.length, `a short reason, not an echo of the input: ${line.slice(0, 200)}…`).toBeLessThanOrEqual(MAX_REASON_CHARS);
  if (run.lineColIn) expect(result.stderr).toMatch(new RegExp(`${escape(run.lineColIn)}:\\d+:\\d+`));
  if (run.names) expect(result.stderr).toContain(run.names);

  expect(await emulator.requests(), 'requests that reached the emulator').toEqual([]);
  expect(snapshot(files.state), 'the state file must be byte-for-byte unchanged').toEqual(before);
}

function snapshot(path: string): string | null {
  return existsSync(path) ? readFileSync(path).toString('base64') : null;
}

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
