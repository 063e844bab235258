// Hardening, round 3 (issue 31), escaping: manifest text never becomes a GitHub workflow command or
// a terminal control, in plan, markdown, show, apply, validate and graph; a secret never reaches
// the graph or an export; JSON plans say `null` for the side that does not exist. Each case runs
// the built CLI against the emulator on port 0 over real HTTP, and greps what a user, a CI log or
// a reviewer would see.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { assertBuilt, runCli, type CliResult } from '../support/cli.js';
import { startTestEmulator, type TestEmulator } from '../support/emulator.js';
import { makeWorkspace, STACK_TRACE, type Workspace } from './helpers.js';

let emulator: TestEmulator;
let ws: Workspace;
let caseNumber = 0;

beforeAll(async () => {
  assertBuilt();
  emulator = await startTestEmulator();
  ws = makeWorkspace('agentsync-round3-escaping-');
});
afterAll(async () => {
  await emulator?.close();
  ws?.remove();
});
beforeEach(async () => {
  await emulator.reset();
});

/** A line the Actions runner would obey: `::` once it has trimmed the leading whitespace. */
const COMMAND_LINE = /^[\s\u0085]*::/m;
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/;

function expectInert(result: CliResult, what: string): void {
  for (const [name, text] of [
    ['stdout', result.stdout],
    ['stderr', result.stderr],
  ] as const) {
    expect(text, `${what} ${name}:\n${text}`).not.toMatch(COMMAND_LINE);
    expect(text, `${what} ${name}`).not.toMatch(CONTROL);
  }
  expect(result.stderr).not.toMatch(STACK_TRACE);
  expect(result.stderr).not.toMatch(/internal error/);
}

function project(manifest: string): { dir: string; file: string; common: string[] } {
  const dir = ws.path(`case-${++caseNumber}`);
  mkdirSync(dir);
  const file = join(dir, 'agents.yaml');
  writeFileSync(file, manifest);
  return { dir, file, common: ['-f', file, '--state', join(dir, 'state.json')] };
}

const HOSTILE = ['::error file=agents.yaml,line=1::pwned', '    ::add-mask::sk-live-123', '::stop-commands::tok'];

function agentManifest(lastLine: string, name = 'Escaping helper'): string {
  const instruction = ['You help customers.', ...HOSTILE, 'Be brief.', lastLine].join('\n');
  return `version: 1
environments:
  local:
    appId: local
    region: us
agents:
  helper:
    name: ${name}
    integrationType: llm
    integrateWith: gpt-4o
    instruction: ${JSON.stringify(instruction)}
`;
}

describe('item 8: an instruction line diff is never a workflow command', () => {
  it('plan (text and markdown), plan --out + show, and apply all print the changed line inertly', async () => {
    const p = project(agentManifest('Never guess.'));
    expect((await runCli(['apply', '--auto-approve', ...p.common], { env: emulator.env })).code).toBe(0);
    writeFileSync(p.file, agentManifest('Always guess.'));
    const planFile = join(p.dir, 'plan.json');
    const runs: [string, string[]][] = [
      ['plan', ['plan', ...p.common]],
      ['plan markdown', ['plan', '--format', 'markdown', ...p.common]],
      ['plan --out', ['plan', '--out', planFile, ...p.common]],
    ];
    for (const [what, args] of runs) {
      const result = await runCli(args, { env: emulator.env });
      expect(result.code, result.stderr).toBe(0);
      expect(result.stdout, what).toContain('Always guess.');
      expectInert(result, what);
    }
    for (const format of ['text', 'markdown']) {
      const shown = await runCli(['show', planFile, '--format', format], { env: emulator.env });
      expect(shown.code, shown.stderr).toBe(0);
      expect(shown.stdout).toContain('Always guess.');
      expectInert(shown, `show ${format}`);
    }
    const applied = await runCli(['apply', '--auto-approve', ...p.common], { env: emulator.env });
    expect(applied.code, applied.stderr).toBe(0);
    expect(applied.stdout).toContain('Always guess.');
    expectInert(applied, 'apply');
  });
});

describe('item 8: validate, graph and plan quote hostile manifest keys inertly', () => {
  // A double-quoted YAML key may hold any character: real newlines, CR and ESC.
  const key = '"bad\\n::warning::key\\r\\e[2J\\n  ::stop-commands::tok"';
  const manifest = `version: 1
environments:
  local: { appId: local, region: us }
agents:
  ${key}:
    name: Helper
    integrationType: llm
    integrateWith: gpt-4o
    tools: ["missing\\n::error::ref\\e]0;title\\a"]
`;

  it.each([
    ['validate', ['validate']],
    ['validate --json', ['validate', '--json']],
    ['graph', ['graph']],
    ['graph --format dot', ['graph', '--format', 'dot']],
    ['plan', ['plan', '--offline']],
    ['lint', ['lint']],
  ])('%s', async (_what, args) => {
    const p = project(manifest);
    const result = await runCli([...args, ...p.common.slice(0, 2)], { env: emulator.env });
    // Every command refuses the manifest; lint reports validate's errors as its own (rule `invalid`).
    expect(result.code).toBe(1);
    // The key is named, with each control character shown as an escape (`\n` or `\u000a`).
    expect(result.stdout + result.stderr).toMatch(/bad\\(n|u000a)/);
    expectInert(result, args.join(' '));
  });

  it('GitHub annotations: each line is one of ours, with no control character in it', async () => {
    const p = project(manifest);
    const result = await runCli(['validate', '-f', p.file], { env: { ...emulator.env, GITHUB_ACTIONS: 'true' } });
    expect(result.code).toBe(1);
    const commands = result.stdout.split('\n').filter((line) => /^\s*::/.test(line));
    expect(commands.length).toBeGreaterThan(0);
    for (const line of commands) {
      expect(line).toMatch(/^::error file=[^,:]+,line=\d+,col=\d+,title=agentsync validate::/);
      expect(line).not.toMatch(CONTROL);
    }
    // Nothing else on a line of its own starts a command.
    expect(result.stdout.split('\n').filter((line) => /^\s*::/.test(line) && !line.startsWith('::error file='))).toEqual([]);
    expect(result.stderr).not.toMatch(COMMAND_LINE);
  });
});

describe('item 10: a secret agent name', () => {
  const SECRET = 'TopSecretAgentName4711';
  const manifest = `version: 1
environments:
  local: { appId: local, region: us }
tools:
  lookup: { displayName: Lookup, executionText: Looking, doNotExecute: true }
agents:
  helper:
    name: \${secret:AGENT_NAME}
    integrationType: llm
    integrateWith: gpt-4o
    tools: [lookup]
`;

  it.each([['mermaid'], ['dot']])('graph --format %s hides it, as the plan graph does', async (format) => {
    const p = project(manifest);
    const result = await runCli(['graph', '--format', format, '-f', p.file], { env: { AGENT_NAME: SECRET } });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain('agent.helper');
    expect(result.stdout).toMatch(/sensitive/);
    expect(result.stdout + result.stderr).not.toContain(SECRET);
    expect(result.stdout + result.stderr).not.toContain('TopSecret');
  });
});

describe("item 10: export writes the manifest's placeholders, never the secret", () => {
  const NAME = 'Project Nightingale 7731';
  const PROMPT = 'Answer with code word sk-prompt-8f2e9a1c77 first.';
  const manifest = `version: 1
environments:
  local: { appId: local, region: us, apiKeyEnv: AGENT_HELPER_HEADERS_AUTHORIZATION }
agents:
  helper:
    name: \${secret:AGENT_NAME}
    integrationType: agent
    integrateWith: gpt-4o
    instruction: \${secret:PROMPT}
    integrationMeta:
      baseUrl: https://agent.example.com
      headers: { Authorization: "\${secret:UPSTREAM_TOKEN}" }
`;

  it('in a name, an instruction and a header, and no placeholder is the API key variable', async () => {
    const p = project(manifest);
    const env = {
      AGENTSYNC_BASE_URL: emulator.env.AGENTSYNC_BASE_URL,
      AGENT_HELPER_HEADERS_AUTHORIZATION: emulator.env.COMETCHAT_API_KEY,
      AGENT_NAME: NAME,
      PROMPT,
      UPSTREAM_TOKEN: 'Bearer upstream-4f9e2b',
    };
    const applied = await runCli(['apply', '--auto-approve', ...p.common], { env });
    expect(applied.code, applied.stderr).toBe(0);
    const exported = await runCli(['export', '-f', p.file], { env });
    expect(exported.code, exported.stderr).toBe(0);
    for (const secret of [NAME, 'nightingale', 'sk-prompt-8f2e9a1c77', 'upstream-4f9e2b', emulator.env.COMETCHAT_API_KEY]) {
      expect(exported.stdout + exported.stderr).not.toContain(secret);
    }
    expect(exported.stdout).toContain('name: ${secret:AGENT_NAME}');
    expect(exported.stdout).toContain('instruction: ${secret:PROMPT}');
    expect(exported.stdout).toContain('Authorization: ${secret:UPSTREAM_TOKEN}');
    expect(exported.stdout).not.toContain('${secret:AGENT_HELPER_HEADERS_AUTHORIZATION}');
  });
});

describe('item 25: JSON plans say null for the side that does not exist', () => {
  it('before: null on a create, after: null on a forget', async () => {
    const p = project(agentManifest('x'));
    const created = await runCli(['plan', '--json', ...p.common], { env: emulator.env });
    expect(created.code, created.stderr).toBe(0);
    const create = (JSON.parse(created.stdout) as { changes: Record<string, unknown>[] }).changes.find((c) => c.address === 'agent.helper');
    expect(create).toMatchObject({ action: 'create', before: null });
    expect(create?.after).toMatchObject({ name: 'Escaping helper' });
    expect((await runCli(['apply', '--auto-approve', ...p.common], { env: emulator.env })).code).toBe(0);
    writeFileSync(p.file, 'version: 1\nenvironments:\n  local: { appId: local, region: us }\n');
    const forgot = await runCli(['plan', '--json', ...p.common], { env: emulator.env });
    const forget = (JSON.parse(forgot.stdout) as { changes: Record<string, unknown>[] }).changes.find((c) => c.address === 'agent.helper');
    expect(forget).toMatchObject({ action: 'forget', after: null });
    expect(forget?.before).toMatchObject({ name: 'Escaping helper' });
    expect(readFileSync(p.file, 'utf8')).not.toContain('agents');
  });
});
