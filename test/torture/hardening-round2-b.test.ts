// Hardening, round 2 (issue 20), part b: a name never becomes a uid, masking never garbles our own
// addresses, and untrusted text is neutralised in markdown and on the terminal. Each case runs the
// built CLI against the emulator on port 0 and checks what a user, a reviewer or an attacker sees.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { JournalEntry } from '../../src/core/state.js';
import { createFileStateStore, type StateTarget } from '../../src/io/state/index.js';
import { expectOneLineRefusal } from './hardening-helpers.js';
import { assertBuilt, runCli, type CliResult } from '../support/cli.js';
import { API_KEY, startTestEmulator, type TestEmulator } from '../support/emulator.js';
import { makeWorkspace, STACK_TRACE, type Workspace } from './helpers.js';

let emulator: TestEmulator;
let ws: Workspace;
let caseNumber = 0;

beforeAll(async () => {
  assertBuilt();
  emulator = await startTestEmulator();
  ws = makeWorkspace('agentsync-round2b-');
});

afterAll(async () => {
  await emulator?.close();
  ws?.remove();
});

beforeEach(async () => {
  await emulator.reset();
  await emulator.configure({ agentList: 'full' });
});

const TARGET: StateTarget = { environment: 'local', appId: 'local', region: 'us' };

interface Project {
  dir: string;
  manifest: string;
  state: string;
  /** -f MANIFEST --state STATE */
  common: string[];
}

function project(manifest: string): Project {
  const dir = ws.path(`case-${++caseNumber}`);
  mkdirSync(dir);
  const path = join(dir, 'agents.yaml');
  writeFileSync(path, manifest);
  const state = join(dir, 'state.json');
  return { dir, manifest: path, state, common: ['-f', path, '--state', state] };
}

async function seedState(state: string, entries: JournalEntry[]): Promise<void> {
  const session = await createFileStateStore(state).open(TARGET);
  for (const entry of entries) await session.record(entry);
  await session.close();
}

/** Creates an agent behind agentsync's back, as a POST whose answer was lost would have; returns its uid. */
async function createAgentDirectly(name: string): Promise<string> {
  const response = await fetch(`${emulator.url}/ai-agents/agents`, {
    method: 'POST',
    headers: { apikey: API_KEY, 'content-type': 'application/json' },
    body: JSON.stringify({ name, isActive: true, integrateWith: 'gpt-4o', integrationType: 'llm', tools: [], actions: [] }),
  });
  const body = (await response.json()) as { agent?: { uid?: string }; uid?: string };
  const uid = body.agent?.uid ?? body.uid;
  if (!response.ok || uid === undefined) throw new Error(`POST /ai-agents/agents → ${response.status} ${JSON.stringify(body)}`);
  return uid;
}

async function agentsNamed(name: string): Promise<number> {
  await emulator.configure({ agentList: 'full' });
  const listed = await emulator.get<{ data?: { name?: string }[] } | { name?: string }[]>('/ai-agents/agents');
  const entries = Array.isArray(listed) ? listed : (listed.data ?? []);
  return entries.filter((a) => a.name === name).length;
}

function expectNoStack(result: CliResult): void {
  expect(result.stderr).not.toMatch(STACK_TRACE);
  expect(result.stderr).not.toMatch(/internal error/);
}

const SUPPORT_MANIFEST = `version: 1
environments:
  local: { appId: local, region: us }
agents:
  support:
    name: Support
    integrationType: llm
    integrateWith: gpt-4o
    instruction: Help people
`;

describe('a name is never used as a uid (an agent POST whose answer was lost, agents listed without uid)', () => {
  /** The state after a lost answer: a pending create; the server has the agent and lists it without uid. */
  async function lostAnswer(): Promise<{ p: Project; uid: string }> {
    const p = project(SUPPORT_MANIFEST);
    await seedState(p.state, [{ op: 'pending', address: 'agent.support', type: 'agent', since: new Date(Date.now() - 60_000).toISOString() }]);
    const uid = await createAgentDirectly('Support');
    await emulator.configure({ agentList: 'no-uid' });
    return { p, uid };
  }

  it('plan neither adopts "uid Support" nor plans a second create: it points to `agentsync import agent.support <uid>`', async () => {
    const { p } = await lostAnswer();
    const plan = await runCli(['plan', ...p.common], { env: emulator.env });
    expectNoStack(plan);
    expect(plan.stdout).not.toContain('uid Support');
    expect(plan.stdout).not.toMatch(/interrupted earlier apply created it/);
    expect(plan.stdout).toContain('agentsync import agent.support <uid>');
    const json = JSON.parse((await runCli(['plan', '--json', ...p.common], { env: emulator.env })).stdout) as { changes: { address: string; conflict?: object; adopt?: object }[] };
    const change = json.changes.find((c) => c.address === 'agent.support');
    expect(change?.adopt).toBeUndefined();
    expect(change?.conflict).toEqual({});
  });

  it('apply sends no PATCH to /agents/Support and no second POST; the pending create stays; every rerun says the same', async () => {
    const { p } = await lostAnswer();
    await emulator.clearRequests();
    for (let run = 0; run < 2; run++) {
      const apply = await runCli(['apply', '--auto-approve', ...p.common], { env: emulator.env });
      const line = expectOneLineRefusal(apply);
      expect(line).toContain('agentsync import agent.support <uid>');
      expect(line).not.toContain('(Support)');
    }
    const writes = (await emulator.requests()).filter((r) => r.method !== 'GET');
    expect(writes.map((r) => `${r.method} ${r.path}`)).toEqual([]);
    const list = await runCli(['state', 'list', '--state', p.state, '-f', p.manifest]);
    expect(list.stdout).toMatch(/agent\.support\s+agent\s+\(pending create since/);
    expect(await agentsNamed('Support')).toBe(1);
  });

  it('apply of an offline saved plan does not send the create again (no duplicate) and points to import', async () => {
    const { p } = await lostAnswer();
    const planFile = join(p.dir, 'offline.plan.json');
    expect((await runCli(['plan', '--offline', '--out', planFile, ...p.common], { env: emulator.env })).code).toBe(0);
    const apply = await runCli(['apply', '--auto-approve', ...p.common, planFile], { env: emulator.env });
    expect(apply.code).toBe(1);
    expectNoStack(apply);
    expect(apply.stdout + apply.stderr).toContain('agentsync import agent.support <uid>');
    expect(await agentsNamed('Support')).toBe(1);
    expect((await runCli(['state', 'list', '--state', p.state, '-f', p.manifest])).stdout).toMatch(/agent\.support\s+agent\s+\(pending create/);
  });

  it('`agentsync import agent.support UID` adopts it from a server that lists agents without uid; the next plan creates nothing', async () => {
    const { p, uid } = await lostAnswer();
    const imported = await runCli(['import', 'agent.support', uid, ...p.common], { env: emulator.env });
    expect(imported.code, imported.stderr).toBe(0);
    expect(imported.stdout).toContain(`agent.support (${uid})`);
    const plan = await runCli(['plan', '--json', ...p.common], { env: emulator.env });
    const changes = (JSON.parse(plan.stdout) as { changes: { address: string; action: string; remoteId?: string }[] }).changes;
    expect(changes.find((c) => c.address === 'agent.support')).toMatchObject({ remoteId: uid });
    expect(changes.filter((c) => c.action === 'create')).toEqual([]);
  });
});

const ESC = '\u001b';

/** No raw control character other than newline reaches the terminal. */
function expectNoRawControls(result: CliResult): void {
  // eslint-disable-next-line no-control-regex
  const raw = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/;
  expect(result.stdout, 'stdout').not.toMatch(raw);
  expect(result.stderr, 'stderr').not.toMatch(raw);
}

const TWO_AGENTS = `version: 1
environments:
  local: { appId: local, region: us }
tools:
  lookup: { displayName: Lookup, executionText: Looking, doNotExecute: true }
agents:
  a: { name: Agent A, integrationType: llm, integrateWith: gpt-4o }
  b: { name: Agent B, integrationType: llm, integrateWith: gpt-4o }
`;

describe('terminal injection and state mv (docs/spec/plan-and-apply.md#renames)', () => {
  async function applied(): Promise<Project> {
    const p = project(TWO_AGENTS);
    const apply = await runCli(['apply', '--auto-approve', ...p.common], { env: emulator.env });
    expect(apply.code, apply.stderr).toBe(0);
    return p;
  }

  const stateOf = (p: Project): string => readFileSync(p.state, 'utf8');

  it.each([
    ['an escape sequence', `agent.x${ESC}[2Jy`],
    ['a newline', 'agent.x\ny'],
    ['a key starting with a dot', 'agent..hidden'],
    ['a tool name with a dot (tool names allow none)', 'tool.look.up'],
  ])('state mv refuses a target no manifest key can match: %s', async (_name, to) => {
    const p = await applied();
    const from = to.startsWith('tool.') ? 'tool.lookup' : 'agent.a';
    const before = stateOf(p);
    const result = await runCli(['state', 'mv', from, to, ...p.common]);
    const line = expectOneLineRefusal(result);
    expect(line).toMatch(/is not an address/);
    expect(result.stderr.trimEnd().split('\n'), 'the refusal is one line').toHaveLength(1);
    expectNoRawControls(result);
    expect(stateOf(p)).toBe(before);
  });

  it('state mv refuses an address of another kind, in one line, and changes nothing', async () => {
    const p = await applied();
    const before = stateOf(p);
    const line = expectOneLineRefusal(await runCli(['state', 'mv', 'tool.lookup', 'agent.lookup', ...p.common]));
    expect(line).toBe('Error: tool.lookup is a tool, so it cannot become agent.lookup; an address keeps its type');
    expect(stateOf(p)).toBe(before);
  });

  it('state mv refuses a target that is already in the state, and changes nothing', async () => {
    const p = await applied();
    const before = stateOf(p);
    const line = expectOneLineRefusal(await runCli(['state', 'mv', 'agent.a', 'agent.b', ...p.common]));
    expect(line).toContain('agent.b is already in');
    expect(stateOf(p)).toBe(before);
    expect((await runCli(['state', 'mv', 'agent.a', 'agent.c', ...p.common])).code).toBe(0);
  });

  it('import with an escape sequence as the uid shows it escaped, never raw', async () => {
    const p = await applied();
    await runCli(['state', 'rm', 'agent.a', ...p.common]);
    const result = await runCli(['import', 'agent.a', `x${ESC}[2Jy`, ...p.common], { env: emulator.env });
    expectOneLineRefusal(result);
    expect(result.stderr).toContain('x\\u001b[2Jy');
    expectNoRawControls(result);
    const json = await runCli(['import', 'agent.a', `x${ESC}]0;pwned${'\u0007'}`, '--json', ...p.common], { env: emulator.env });
    expect(json.code).toBe(1);
    expectNoRawControls(json);
  });

  it('an address an older version stored with an escape sequence is listed, shown and removed escaped', async () => {
    const p = project(TWO_AGENTS);
    const evil = `agent.x${ESC}[2Jy`;
    await seedState(p.state, [{ op: 'applied', address: evil, type: 'agent', remoteId: `uid${ESC}[31m`, spec: { name: 'X' }, appliedAt: '2026-01-01T00:00:00.000Z' }]);
    for (const args of [
      ['state', 'list'],
      ['state', 'show', evil],
      ['state', 'mv', evil, 'agent.x'],
      ['state', 'rm', 'agent.x'],
    ]) {
      const result = await runCli([...args, ...p.common]);
      expect(result.code, `${args.join(' ')}: ${result.stderr}`).toBe(0);
      expectNoRawControls(result);
    }
  });
});

/** What an attacker who controls a server's answer would put in it for a pull-request comment. */
const INJECTED = 'x\n\n# Pwned heading\n@octocat please approve\r\n<img src=x onerror=alert(1)> [link](https://evil.example) &#64;team';

/** A server that answers the two list calls with what `lists` says, and every other call with `other`. */
async function hostileServer(lists: {
  agents: unknown[];
  toolsStatus?: number;
  toolsBody?: unknown;
  onWrite?: (body: Record<string, unknown>) => unknown;
}): Promise<{ url: string; close(): Promise<void> }> {
  const server = createServer((req, res) => {
    let text = '';
    req.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
    req.on('end', () => {
      const json = (status: number, body: unknown) => res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
      if (req.method !== 'GET' && lists.onWrite) json(400, lists.onWrite(JSON.parse(text || '{}') as Record<string, unknown>));
      else if (req.url?.endsWith('/ai-agents/agents')) json(200, { data: lists.agents });
      else if (req.url?.endsWith('/ai-agents/tools')) json(lists.toolsStatus ?? 200, lists.toolsBody ?? { data: [] });
      else json(404, { statusCode: 404, message: 'not here' });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/v3`, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

/** Nothing in the markdown can ping anyone, start a block, or be HTML. */
function expectNeutralised(markdown: string): void {
  expect(markdown).not.toMatch(/@octocat|@team/);
  expect(markdown).not.toMatch(/&#64;team/);
  expect(markdown).not.toMatch(/<img/);
  // eslint-disable-next-line no-control-regex
  expect(markdown).not.toMatch(/\r|[\u0000-\u0009\u000b-\u001f]/);
  const headings = markdown.split('\n').filter((line) => /^\s*(>\s*)?#/.test(line));
  expect(
    headings.every((line) => line.startsWith('### agentsync plan')),
    headings.join('\n'),
  ).toBe(true);
}

describe('untrusted text in the markdown plan (pull-request comment)', () => {
  it('a remote uid with line breaks and @mentions in a conflict <summary> stays one inert line', async () => {
    const server = await hostileServer({ agents: [{ uid: INJECTED, name: 'Support', isActive: true, integrateWith: 'gpt-4o', integrationType: 'llm', tools: [], actions: [] }] });
    try {
      const p = project(SUPPORT_MANIFEST);
      const plan = await runCli(['plan', '--format', 'markdown', ...p.common], { env: { COMETCHAT_API_KEY: API_KEY, AGENTSYNC_BASE_URL: server.url } });
      // A plan apply would refuse fails the check (exit 1), with the plan still on stdout.
      expect(plan.code, plan.stderr).toBe(1);
      expect(plan.stderr).not.toMatch(/\n\s+at /);
      const summary = plan.stdout.split('\n').find((line) => line.includes('<summary>') && line.includes('create'));
      expect(summary).toContain('already exists on the server');
      expect(summary).toContain('</summary>');
      expectNeutralised(plan.stdout);
    } finally {
      await server.close();
    }
  });

  it('a remote id from the state in an update <summary> stays one inert line', async () => {
    const p = project(SUPPORT_MANIFEST);
    await seedState(p.state, [{ op: 'applied', address: 'agent.support', type: 'agent', remoteId: INJECTED, spec: { name: 'Support' }, appliedAt: '2026-01-01T00:00:00.000Z' }]);
    const plan = await runCli(['plan', '--offline', '--format', 'markdown', ...p.common]);
    expect(plan.code, plan.stderr).toBe(0);
    expect(plan.stdout).toMatch(/<summary>.*update in-place.*<\/summary>/);
    expectNeutralised(plan.stdout);
  });

  it("a server's error message in the multi-environment table and caution block cannot inject a heading, a mention or HTML", async () => {
    const server = await hostileServer({ agents: [], toolsStatus: 400, toolsBody: { statusCode: 400, message: INJECTED } });
    try {
      const p = project(`version: 1
environments:
  good: { appId: local, region: us, baseUrl: "${emulator.url}" }
  evil: { appId: local, region: us, baseUrl: "${server.url}" }
tools:
  lookup: { displayName: Lookup, executionText: Looking, doNotExecute: true }
`);
      const plan = await runCli(['plan', '-e', 'good', '-e', 'evil', '--format', 'markdown', '-f', p.manifest], { env: { COMETCHAT_API_KEY: API_KEY } });
      expect(plan.stdout).toContain('Pwned heading');
      expect(plan.stdout).toMatch(/\| `evil` \| \*\*failed: /);
      // Prose, unlike the inside of an HTML element, would make a link of it: escaped there.
      expect(plan.stdout).not.toMatch(/[^\\]\]\(https:\/\/evil/);
      expectNeutralised(plan.stdout);
    } finally {
      await server.close();
    }
  });
});

describe('masking never garbles our own output, and no secret leaks', () => {
  // A secret whose value is an ordinary word that is also part of a manifest key.
  const WORD = 'billing';
  const manifest = (field: string) => `version: 1
environments:
  local: { appId: local, region: us }
tools:
  billing_lookup: { displayName: Billing lookup, executionText: Looking up, doNotExecute: true }
agents:
  billing_bot:
    name: Billing bot
    integrationType: llm
    integrateWith: gpt-4o
    ${field}
    tools: [billing_lookup]
`;
  /** The secret as a whole word: inside an address (`billing_bot`) it is the key, not the secret. */
  const wholeWord = new RegExp(`(?<![A-Za-z0-9_$.-])${WORD}(?![A-Za-z0-9_$-])`);

  it('plan, apply, state and --json keep agent.billing_bot and tool.billing_lookup whole when the secret is "billing"', async () => {
    const p = project(manifest('instruction: ${secret:BOT_SECRET}'));
    const env = { ...emulator.env, BOT_SECRET: WORD };
    const results: CliResult[] = [];
    const run = async (args: string[]) => {
      const result = await runCli([...args, ...p.common], { env });
      expect(result.code, `${args.join(' ')}: ${result.stderr}`).toBe(0);
      results.push(result);
      return result;
    };
    expect((await run(['plan'])).stdout).toMatch(/\+ agent\.billing_bot\n[\s\S]*instruction: \(sensitive\)/);
    const planJson = JSON.parse((await run(['plan', '--json'])).stdout) as { changes: { address: string }[] };
    expect(planJson.changes.map((c) => c.address).sort()).toEqual(['agent.billing_bot', 'tool.billing_lookup']);
    expect((await run(['apply', '--auto-approve'])).stdout).toContain('agent.billing_bot');
    expect((await run(['state', 'list'])).stdout).toMatch(/^agent\.billing_bot +agent/m);
    const stateJson = JSON.parse((await run(['state', 'show', 'agent.billing_bot', '--json'])).stdout) as { address: string };
    expect(stateJson.address).toBe('agent.billing_bot');
    for (const result of results) {
      expect(result.stdout + result.stderr).not.toContain('(sensitive)_');
      expect(result.stdout + result.stderr).not.toMatch(wholeWord);
    }
  });

  it('a secret "true" does not break --json (JSON keys and literals are never rewritten)', async () => {
    const p = project(manifest('instruction: ${secret:BOT_SECRET}'));
    const plan = await runCli(['plan', '--json', ...p.common], { env: { ...emulator.env, BOT_SECRET: 'true' } });
    expect(plan.code, plan.stderr).toBe(0);
    const parsed = JSON.parse(plan.stdout) as { refreshed: unknown };
    expect(parsed.refreshed).toBe(true);
  });

  it("a server's error message that echoes the secret is masked; the failed address beside it is not", async () => {
    const server = await hostileServer({
      agents: [],
      onWrite: (body) => ({ statusCode: 400, message: `instruction ${String(body.instruction)} is not allowed; ${String(body.instruction)} is reserved` }),
    });
    try {
      // The agent alone: its POST is the call the server answers by echoing the secret.
      const p = project(
        manifest('instruction: ${secret:BOT_SECRET}')
          .replace(/^tools:\n.*\n/m, '')
          .replace(/^ {4}tools: .*\n/m, ''),
      );
      const env = { COMETCHAT_API_KEY: API_KEY, AGENTSYNC_BASE_URL: server.url, BOT_SECRET: WORD };
      for (const flags of [[], ['--json']]) {
        const apply = await runCli(['apply', '--auto-approve', ...flags, ...p.common], { env: { ...env, AGENTSYNC_DEBUG: '1' } });
        expect(apply.code).toBe(1);
        const output = apply.stdout + apply.stderr;
        expect(output).toContain('instruction (sensitive) is not allowed; (sensitive) is reserved');
        expect(output).toContain('agent.billing_bot');
        expect(output).not.toContain('(sensitive)_');
        expect(output).not.toMatch(wholeWord);
      }
    } finally {
      await server.close();
    }
  });

  it('validate shows a long secret quoted in a diagnostic as (sensitive), not its first 37 characters, and keeps the path whole', async () => {
    const LONG = 'hunter2-0123456789-abcdefghijklmnopqrstuvwxyz-0123456789';
    const p = project(manifest('instruction: fine').replace('integrationType: llm', 'integrationType: ${secret:KIND}'));
    for (const [value, flags] of [
      [LONG, []],
      [LONG, ['--json']],
      [WORD, []],
    ] as const) {
      const result = await runCli(['validate', ...flags, '-f', p.manifest], { env: { KIND: value } });
      expect(result.code).toBe(1);
      const output = result.stdout + result.stderr;
      expect(output).toContain('agents.billing_bot.integrationType');
      expect(output).toContain('(sensitive)');
      expect(output).not.toContain(LONG.slice(0, 12));
      expect(output).not.toMatch(wholeWord);
    }
  });
});
