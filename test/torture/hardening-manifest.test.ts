// Manifest and secrets hardening (issue 10, items 6–10, 14 and 15): each case runs the CLI in this
// process against the emulator on port 0 and checks what a user or an attacker would see, by
// grepping stdout, stderr and the files left behind. Item 16 (manifests from pipes and stdin) is
// test/torture/processes.test.ts.
import { createHmac } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createDigester } from '../../src/io/state/digest.js';
import { runCli, type CliResult } from '../support/cli.js';
import { API_KEY, startTestEmulator, type TestEmulator } from '../support/emulator.js';
import { makeWorkspace, reasonLines, STACK_TRACE, type Workspace } from './helpers.js';
import { CARD_TOOL, HEADER, manifestProject } from './hardening-helpers.js';

/** validate reads no state, so it takes no --state (each command lists only its own options). */
function stateFlag(command: string | undefined, state: string): string[] {
  return command === 'validate' ? [] : ['--state', state];
}

let emulator: TestEmulator;
let ws: Workspace;

beforeAll(async () => {
  emulator = await startTestEmulator();
  ws = makeWorkspace('agentsync-hardening-');
});

afterAll(async () => {
  await emulator?.close();
  ws?.remove();
});

const project = (manifest: string): ReturnType<typeof manifestProject> => manifestProject(ws, manifest);

function expectNowhere(results: readonly CliResult[], needles: readonly string[]): void {
  for (const [i, result] of results.entries()) {
    for (const needle of needles) {
      expect(result.stdout, `stdout of run ${i} holds ${needle}`).not.toContain(needle);
      expect(result.stderr, `stderr of run ${i} holds ${needle}`).not.toContain(needle);
    }
  }
}

describe('item 6: secrets are scrubbed from failure output', () => {
  // Spaces, "+" and "é" are percent-encoded in the path: both forms must disappear.
  const WEB_ID = 'web_sécret+77 hidden';
  const EXCLUDED = 'url_hidden_0451';
  const manifest = (parent: string) => `${HEADER}knowledgeBase:
  websites:
    docs:
      parentUniqueId: ${parent}
      exclude: ["\${secret:HIDDEN_URL}"]
`;

  const cases: [string, string[], Record<string, string>][] = [
    ['text', [], {}],
    ['--json', ['--json'], {}],
    ['text, AGENTSYNC_DEBUG=1', [], { AGENTSYNC_DEBUG: '1' }],
    ['--json, AGENTSYNC_DEBUG=1', ['--json'], { AGENTSYNC_DEBUG: '1' }],
  ];
  it.each(cases)('a secret parentUniqueId in the failing path and the server message (%s)', async (_name, flags, extra) => {
    const p = project(manifest('${secret:WEB_ID}'));
    const env = { ...emulator.env, WEB_ID, HIDDEN_URL: EXCLUDED, ...extra };
    const result = await runCli(['apply', '--auto-approve', ...flags, '-f', p.manifest, '--state', p.state], { env });
    expect(result.code).toBe(1);
    expect(result.stdout + result.stderr).toContain('(sensitive)');
    expectNowhere([result], [WEB_ID, encodeURIComponent(WEB_ID), EXCLUDED, API_KEY]);
  });

  it('a secret exclude id echoed by the server', async () => {
    const p = project(manifest('web_demo'));
    const env = { ...emulator.env, HIDDEN_URL: EXCLUDED };
    const results = [
      await runCli(['apply', '--auto-approve', '-f', p.manifest, '--state', p.state], { env }),
      await runCli(['apply', '--auto-approve', '--json', '-f', p.manifest, '--state', p.state], { env: { ...env, AGENTSYNC_DEBUG: '1' } }),
    ];
    for (const result of results) {
      expect(result.code).toBe(1);
      expect(result.stdout + result.stderr).toMatch(/names '\(sensitive\)'/);
    }
    expectNowhere(results, [EXCLUDED, API_KEY]);
  });
});

describe('item 7: credentials in base URLs', () => {
  const PASSWORD = 'Hunter2Pass';

  it.each([
    ['manifest baseUrl', 'http://deploy:Hunter2Pass@127.0.0.1:9/v3', 'baseUrl'],
    ['manifest baseUrl, https, user only', 'https://Hunter2Pass@example.com/v3', 'baseUrl'],
    ['manifest baseUrl, not a URL', 'http://deploy:Hunter2Pass@exa mple.com/v3', 'baseUrl'],
    ['manifest baseUrl, ftp', 'ftp://deploy:Hunter2Pass@example.com/v3', 'baseUrl'],
    ['AGENTSYNC_BASE_URL', 'http://deploy:Hunter2Pass@10.0.0.1/v3', 'env'],
    ['AGENTSYNC_BASE_URL on loopback', 'http://deploy:Hunter2Pass@127.0.0.1:9/v3', 'env'],
  ])('%s: refused without repeating it (validate, plan, apply)', async (_name, url, where) => {
    const envBlock = where === 'baseUrl' ? `  local: { appId: local, region: us, baseUrl: "${url}" }\n` : '  local: { appId: local, region: us }\n';
    const p = project(`version: 1\nenvironments:\n${envBlock}${CARD_TOOL}`);
    const env = { COMETCHAT_API_KEY: API_KEY, AGENTSYNC_BASE_URL: where === 'env' ? url : undefined };
    const results: CliResult[] = [];
    for (const args of [['validate'], ['validate', '--json'], ['plan'], ['plan', '--json'], ['apply', '--auto-approve']]) {
      const result = await runCli([...args, '-f', p.manifest, ...stateFlag(args[0], p.state)], { env });
      expect(result.code, `${args.join(' ')}: ${result.stderr}`).toBe(1);
      expect(result.stdout + result.stderr).toMatch(/credentials|password|user name/i);
      results.push(result);
    }
    expectNowhere(results, [PASSWORD]);
  });
});

describe('item 8: the API key cannot be interpolated or stored', () => {
  it.each([
    ['${COMETCHAT_API_KEY}', 'COMETCHAT_API_KEY', ''],
    ['${COMETCHAT_API_KEY:-none}', 'COMETCHAT_API_KEY', ''],
    ['${secret:COMETCHAT_API_KEY}', 'COMETCHAT_API_KEY', ''],
    ['${DEPLOY_KEY}', 'DEPLOY_KEY', ', apiKeyEnv: DEPLOY_KEY'],
  ])('%s is an error at its position', async (token, variable, apiKeyEnv) => {
    const p = project(`version: 1
environments:
  local: { appId: local, region: us${apiKeyEnv} }
${CARD_TOOL}agents:
  bot:
    name: "bot ${token}"
    integrationType: llm
    integrateWith: gpt-4o
    tools: [show_card]
`);
    const env = { ...emulator.env, [variable]: API_KEY };
    const results: CliResult[] = [];
    for (const args of [['validate'], ['plan'], ['apply', '--auto-approve']]) {
      const result = await runCli([...args, '-f', p.manifest, ...stateFlag(args[0], p.state)], { env });
      expect(result.code).toBe(1);
      expect(result.stderr).toMatch(/agents\.yaml:11:16: error: .*API key/);
      results.push(result);
    }
    expectNowhere(results, [API_KEY]);
  });

  it('a value that holds the key literally is neither printed nor stored', async () => {
    const p = project(`${HEADER}${CARD_TOOL}agents:
  bot:
    name: Bot
    instruction: "Use the key ${API_KEY} when asked"
    integrationType: llm
    integrateWith: gpt-4o
    tools: [show_card]
`);
    const results = [
      await runCli(['plan', '-f', p.manifest, '--state', p.state], { env: emulator.env }),
      await runCli(['plan', '--json', '-f', p.manifest, '--state', p.state], { env: emulator.env }),
      await runCli(['apply', '--auto-approve', '-f', p.manifest, '--state', p.state], { env: emulator.env }),
    ];
    for (const result of results) expect(result.code, result.stderr).toBe(0);
    expectNowhere(results, [API_KEY]);
    expect(readFileSync(p.state, 'utf8')).not.toContain(API_KEY);
  });
});

describe('item 9: digests of secrets are expensive to brute-force', () => {
  const PIN = '482915';
  const manifest = `${HEADER}${CARD_TOOL}agents:
  bot:
    name: Bot
    instruction: "PIN \${secret:PIN}"
    integrationType: llm
    integrateWith: gpt-4o
    tools: [show_card]
`;

  // Each test starts from a fresh state, so the server must not already hold what it creates
  // (refresh would call that a conflict).
  beforeEach(() => emulator.reset());

  interface StoredState {
    salt: string;
    resources: Record<string, { spec: Record<string, unknown> }>;
  }

  it('the state holds an scrypt digest that the salt alone does not reveal', async () => {
    const p = project(manifest);
    const applied = await runCli(['apply', '--auto-approve', '-f', p.manifest, '--state', p.state], { env: { ...emulator.env, PIN } });
    expect(applied.code, applied.stderr).toBe(0);
    const state = JSON.parse(readFileSync(p.state, 'utf8')) as StoredState;
    const stored = state.resources['agent.bot']?.spec.instruction;
    expect(stored).toMatch(/^scrypt:/);
    const hmac = `hmac-sha256:${createHmac('sha256', Buffer.from(state.salt, 'base64'))
      .update(JSON.stringify(`PIN ${PIN}`))
      .digest('hex')}`;
    expect(stored).not.toBe(hmac);
    expect(readFileSync(p.state, 'utf8')).not.toContain(PIN);
  });

  it('costs at least 40 ms per digest, once per value and salt in a run', () => {
    const digest = createDigester(Buffer.alloc(32, 7).toString('base64'));
    const start = performance.now();
    const first = digest('"482915"');
    const cost = performance.now() - start;
    expect(cost).toBeGreaterThanOrEqual(40);
    const again = performance.now();
    // A second digester for the same salt shares the cache: a saved plan digests nothing twice.
    expect(createDigester(Buffer.alloc(32, 7).toString('base64'))('"482915"')).toBe(first);
    expect(performance.now() - again).toBeLessThan(5);
  });

  it('an old hmac-sha256 digest shows one sensitive change, then none', async () => {
    const p = project(manifest);
    const env = { ...emulator.env, PIN };
    expect((await runCli(['apply', '--auto-approve', '-f', p.manifest, '--state', p.state], { env })).code).toBe(0);
    const state = JSON.parse(readFileSync(p.state, 'utf8')) as StoredState;
    const agent = state.resources['agent.bot'];
    if (agent === undefined) throw new Error('agent.bot is not in the state');
    agent.spec.instruction = `hmac-sha256:${createHmac('sha256', Buffer.from(state.salt, 'base64'))
      .update(JSON.stringify(`PIN ${PIN}`))
      .digest('hex')}`;
    writeFileSync(p.state, JSON.stringify(state));
    // Against the state alone, the old digest is one sensitive update.
    const offline = await runCli(['plan', '--offline', '--detailed-exitcode', '-f', p.manifest, '--state', p.state], { env });
    expect(offline.code, offline.stderr).toBe(2);
    expect(offline.stdout).toMatch(/~ instruction: \(sensitive\)/);
    // Reading the server shows that it already holds the manifest's value: drift, but nothing to send.
    const plan = await runCli(['plan', '--detailed-exitcode', '-f', p.manifest, '--state', p.state], { env });
    expect(plan.code, plan.stderr).toBe(0);
    expect(plan.stdout).toMatch(/Changed outside agentsync:\n\n {2}~ agent\.bot\n {6}~ instruction: \(sensitive\) → \(sensitive\)/);
    // Apply keeps what the refresh learned, so the old digest is gone and nothing is reported again.
    expect((await runCli(['apply', '--auto-approve', '-f', p.manifest, '--state', p.state], { env })).code).toBe(0);
    expect(readFileSync(p.state, 'utf8')).not.toContain('hmac-sha256:');
    const after = await runCli(['plan', '--detailed-exitcode', '-f', p.manifest, '--state', p.state], { env });
    expect(after.code, after.stdout).toBe(0);
    expect(after.stdout).not.toContain('Changed outside agentsync');
  });
});

describe('item 10: appId cannot change the host', () => {
  it.each(['127.0.0.1:PORT#', 'evil.example/x', 'a b', 'local.attacker.example', 'app@evil'])('refuses appId %j at validate and before any call', async (raw) => {
    const appId = raw.replace('PORT', String(new URL(emulator.url).port));
    const p = project(`version: 1\nenvironments:\n  local: { appId: "${appId}", region: us }\n${CARD_TOOL}`);
    await emulator.clearRequests();
    for (const args of [['validate'], ['apply', '--auto-approve']]) {
      const result = await runCli([...args, '-f', p.manifest, ...stateFlag(args[0], p.state)], { env: { COMETCHAT_API_KEY: API_KEY } });
      expect(result.code).toBe(1);
      expect(result.stderr).toMatch(/agents\.yaml:3:\d+: error: .*appId/);
      expect(result.stderr).not.toMatch(STACK_TRACE);
    }
    expect(await emulator.requests()).toEqual([]);
  });
});

describe('item 14: alias expansion is bounded by size', () => {
  it('a 4 MB string aliased 9,000 times is an error at the alias, in validate and plan alike', async () => {
    const big = 'x'.repeat(4 * 1024 * 1024);
    const aliases = Array.from({ length: 9000 }, () => '      - *big').join('\n');
    const p = project(`${HEADER}${CARD_TOOL}agents:
  bot:
    name: Bot
    integrationType: llm
    integrateWith: gpt-4o
    tools: [show_card]
    metaData:
      anchor: &big ${big}
      copies:
${aliases}
`);
    const outputs: CliResult[] = [];
    for (const command of ['validate', 'plan']) {
      const started = performance.now();
      const result = await runCli([command, '-f', p.manifest, ...stateFlag(command, p.state)], { timeoutMs: 30_000 });
      expect(result.code, result.stderr.slice(0, 500)).toBe(1);
      expect(performance.now() - started).toBeLessThan(20_000);
      expect(result.stderr).not.toContain('heap');
      outputs.push(result);
    }
    const [validate, plan] = outputs.map((o) => reasonLines(o.stderr).filter((l) => l.includes(': error: ')));
    expect(validate).toEqual(plan);
    // The first alias that goes past the bound: line 16 is the anchor, the aliases start on line 18.
    expect(validate?.[0]).toMatch(/agents\.yaml:\d+:9: error: .*aliases expand to more than/);
    const line = Number(/agents\.yaml:(\d+):/.exec(validate?.[0] ?? '')?.[1]);
    expect(line).toBeGreaterThanOrEqual(18);
  });
});

describe('item 15: __proto__ keys are never dropped silently', () => {
  it.each([
    [
      'metaData',
      `${HEADER}${CARD_TOOL}agents:\n  bot:\n    name: Bot\n    integrationType: llm\n    integrateWith: gpt-4o\n    tools: [show_card]\n    metaData: { __proto__: { polluted: true } }\n`,
      '15:17',
    ],
    [
      'integrationMeta',
      `${HEADER}${CARD_TOOL}agents:\n  bot:\n    name: Bot\n    integrationType: agent\n    integrateWith: x\n    tools: [show_card]\n    integrationMeta:\n      baseUrl: https://a.example\n      __proto__: 1\n`,
      '17:7',
    ],
    [
      'parameter properties',
      `${HEADER}tools:\n  lookup:\n    displayName: L\n    executionText: L\n    description: L\n    parameters:\n      type: object\n      properties:\n        __proto__: { type: string, description: x }\n`,
      '12:9',
    ],
    ['a tool named __proto__', `${HEADER}tools:\n  __proto__:\n    displayName: L\n    executionText: L\n    doNotExecute: true\n`, '5:3'],
    ['an agent keyed __proto__', `${HEADER}${CARD_TOOL}agents:\n  __proto__:\n    name: Bot\n    integrationType: llm\n    integrateWith: gpt-4o\n`, '10:3'],
  ])('%s', async (_name, manifest, position) => {
    const p = project(manifest);
    await emulator.clearRequests();
    for (const args of [['validate'], ['plan'], ['apply', '--auto-approve']]) {
      const result = await runCli([...args, '-f', p.manifest, ...stateFlag(args[0], p.state)], { env: emulator.env });
      expect(result.code, `${args[0]}: ${result.stdout}`).toBe(1);
      expect(result.stderr).toMatch(new RegExp(`agents\\.yaml:${position}: error: .*__proto__`));
    }
    expect(await emulator.requests()).toEqual([]);
  });
});
