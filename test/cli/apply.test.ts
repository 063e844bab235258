import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, afterEach, describe, expect, it } from 'vitest';
import type { AgentRecord, ToolRecord } from '../../src/core/api-types.js';
import { startTestEmulator, API_KEY, type TestEmulator } from '../support/emulator.js';
import { runCli } from '../support/cli.js';

let emu: TestEmulator;
let dir: string;
let env: NodeJS.ProcessEnv;
beforeAll(async () => {
  emu = await startTestEmulator();
});
afterAll(() => emu.close());
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'agentsync-apply-'));
  await fetch(`${emu.origin}/__emulator/reset`, { method: 'POST' });
  await fetch(`${emu.origin}/__emulator/requests`, { method: 'DELETE' });
  await fetch(`${emu.origin}/__emulator/stats`, { method: 'DELETE' });
  env = { COMETCHAT_API_KEY: API_KEY, AGENTSYNC_BASE_URL: emu.url };
});
afterEach(async () => {
  await emu.configure({ failRate: 0, failNext: 0, failMode: 'mixed', latencyMs: 0, rateLimitPerMinute: null });
  await rm(dir, { recursive: true, force: true });
});

interface Shape {
  tools?: Record<string, string>;
  agents?: Record<string, string[]>;
  extraAgentYaml?: string;
}

/** tools: name → description (each an action: doNotExecute is false); agents: key → the actions it names. */
async function writeManifest(shape: Shape): Promise<void> {
  const lines = ['version: 1', 'environments:', '  local: { appId: local, region: us }', 'tools:'];
  for (const [name, description] of Object.entries(shape.tools ?? {})) {
    lines.push(`  ${name}: { displayName: ${name}, executionText: Working, description: "${description}", parameters: {} }`);
  }
  const hasAgents = Object.keys(shape.agents ?? {}).length > 0 || shape.extraAgentYaml !== undefined;
  lines.push(hasAgents ? 'agents:' : 'agents: {}');
  for (const [key, tools] of Object.entries(shape.agents ?? {})) {
    lines.push(`  ${key}: { name: ${key}, integrationType: llm, integrateWith: gpt-4o, actions: [${tools.join(', ')}] }`);
  }
  if (shape.extraAgentYaml) lines.push(shape.extraAgentYaml);
  lines.push('external: { tools: [not_on_server] }');
  await writeFile(join(dir, 'agents.yaml'), lines.join('\n') + '\n');
}

const apply = (...extra: string[]) => runCli(['apply', '--auto-approve', ...extra], { cwd: dir, env });

describe('agentsync apply', () => {
  it('creates everything on the first apply, then has nothing left to do', async () => {
    await writeManifest({ tools: { t1: 'one', t2: 'two' }, agents: { a1: ['t1'], a2: ['t1', 't2'] } });
    const first = await apply();
    expect(first.stderr).toBe('');
    expect(first.code).toBe(0);
    expect(first.stdout).toMatch(/Plan: 4 to create, 0 to update, 0 to forget\./);
    expect(first.stdout.trimEnd().split('\n').at(-1)).toBe('Apply complete: 4 created, 0 updated, 0 forgotten.');
    // The public reference: PUT on a new tool answers 404, so the first create of the run falls back to POST and the rest go straight to POST.
    expect(first.stdout).toContain('created tool.t1 (POST');
    const tools = await emu.get<ToolRecord[]>('/ai-agents/tools');
    expect(tools.map((t) => t.name)).toEqual(expect.arrayContaining(['t1', 't2']));
    const agents = await emu.get<AgentRecord[]>('/ai-agents/agents');
    expect(agents.map((a) => a.name).sort()).toEqual(['a1', 'a2']);

    await fetch(`${emu.origin}/__emulator/requests`, { method: 'DELETE' });
    const second = await apply();
    expect(second.code).toBe(0);
    // Issue 40 §3.6: nothing to do prints the no-changes line alone, not a line of zero counts after it.
    expect(second.stdout.trimEnd().split('\n').at(-1)).toBe('No changes. Environment "local" matches the manifest.');
    expect(second.stdout).not.toContain('Apply complete');
    // Only the refresh: two list calls, whatever the number of resources.
    expect((await emu.apiRequests()).map((r) => `${r.method} ${r.path}`).sort()).toEqual(['GET /v3/ai-agents/agents', 'GET /v3/ai-agents/tools']);
  });

  it('turns one tool change into exactly one PUT, and one agent change into one PATCH', async () => {
    await writeManifest({ tools: { t1: 'one', t2: 'two' }, agents: { a1: ['t1'] } });
    expect((await apply()).code).toBe(0);
    await fetch(`${emu.origin}/__emulator/requests`, { method: 'DELETE' });

    await writeManifest({ tools: { t1: 'one', t2: 'TWO' }, agents: { a1: ['t1'] } });
    const toolChange = await apply();
    expect(toolChange.code).toBe(0);
    expect((await emu.apiWrites()).map((r) => `${r.method} ${r.path}`)).toEqual(['PUT /v3/ai-agents/tools/t2']);

    await fetch(`${emu.origin}/__emulator/requests`, { method: 'DELETE' });
    await writeManifest({ tools: { t1: 'one', t2: 'TWO' }, agents: { a1: ['t1', 't2'] } });
    const agentChange = await apply();
    expect(agentChange.code).toBe(0);
    const calls = await emu.apiWrites();
    expect(calls.map((r) => r.method)).toEqual(['PATCH']);
    expect(agentChange.stdout).toContain('Apply complete: 0 created, 1 updated, 0 forgotten.');
    expect(await emu.get<AgentRecord[]>('/ai-agents/agents')).toHaveLength(1);
  });

  it('applies what does not need the call that failed with 400, exits 1, and a rerun after the fix does only the rest', async () => {
    await writeManifest({ tools: { t1: 'one' }, agents: { a1: ['t1'], bad: ['not_on_server'], z9: ['t1'] } });
    const failed = await apply('--concurrency', '1');
    expect(failed.code).toBe(1);
    expect(failed.stdout).toContain('Apply failed: 3 of 4 changes done, 1 failed, 0 not attempted.');
    expect(failed.stdout).toMatch(/agent\.bad: POST \/ai-agents\/agents answered 400: .*not_on_server/);
    expect(failed.stderr).toMatch(/^Error: apply failed/);
    const state = JSON.parse(await readFile(join(dir, '.agentsync', 'local.state.json'), 'utf8')) as { resources: Record<string, unknown> };
    expect(Object.keys(state.resources).sort()).toEqual(['agent.a1', 'agent.z9', 'tool.t1']);

    await fetch(`${emu.origin}/__emulator/requests`, { method: 'DELETE' });
    await writeManifest({ tools: { t1: 'one' }, agents: { a1: ['t1'], bad: ['t1'], z9: ['t1'] } });
    const rerun = await apply();
    expect(rerun.code).toBe(0);
    const posts = (await emu.apiWrites()).map((r) => `${r.method} ${r.path}`);
    expect(posts).toEqual(['POST /v3/ai-agents/agents']);
    expect((await emu.get<AgentRecord[]>('/ai-agents/agents')).map((a) => a.name).sort()).toEqual(['a1', 'bad', 'z9']);
  });

  it('exits 1 when the notify message fails, with every change still applied and recorded', async () => {
    await writeManifest({ tools: { t1: 'one' } });
    await writeFile(join(dir, 'agents.yaml'), (await readFile(join(dir, 'agents.yaml'), 'utf8')) + 'notify: { receiver: no-such-group, receiverType: group }\n');
    const result = await apply();
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(/Warning: the notify message was not sent: .*ERR_GUID_NOT_FOUND/);
    expect(result.stdout).toContain('Apply complete: 1 created, 0 updated, 0 forgotten.');
    expect(result.stderr).toMatch(/^Error: the changes were applied and recorded, but the notify message was not sent/);
    const state = JSON.parse(await readFile(join(dir, '.agentsync', 'local.state.json'), 'utf8')) as { resources: Record<string, unknown> };
    expect(Object.keys(state.resources)).toEqual(['tool.t1']);
  });

  it('respects --concurrency: the emulator never sees more requests in flight', async () => {
    const tools = Object.fromEntries(Array.from({ length: 40 }, (_, i) => [`c${i}`, 'd']));
    await writeManifest({ tools });
    await emu.configure({ latencyMs: 30 });
    const result = await apply('--concurrency', '3');
    expect(result.code).toBe(0);
    const stats = await emu.stats();
    expect(stats.maxInFlight).toBeLessThanOrEqual(3);
    expect(stats.maxInFlight).toBeGreaterThanOrEqual(2);
  });

  it('converges through a 429 storm and 20% 503s and dropped connections, with bounded attempts', async () => {
    const tools = Object.fromEntries(Array.from({ length: 30 }, (_, i) => [`s${i}`, 'd']));
    const agents = Object.fromEntries(Array.from({ length: 10 }, (_, i) => [`g${i}`, [`s${i}`]]));
    await writeManifest({ tools, agents });
    // 20 at once against a bucket of 10 tokens: the first burst is a 429 storm.
    await emu.configure({ rateLimitPerMinute: 600, failRate: 0.2, failMode: 'mixed' });
    let runs = 0;
    let last;
    do {
      last = await apply('--retries', '8', '--concurrency', '20');
      runs++;
    } while (last.code !== 0 && runs < 8);
    expect(last.code).toBe(0);
    await emu.configure({ failRate: 0, rateLimitPerMinute: null });
    // POSTs that died after sending are the only reason for a rerun; each rerun does only the rest.
    const log = await emu.apiRequests();
    // The refresh's list calls show the remaining budget first, so the governor may pace well
    // enough to avoid every 429; the injected 503s and drops still happen (a drop has no status).
    expect(log.some((r) => r.status === 429 || r.fault !== undefined)).toBe(true);
    expect(log.length).toBeLessThan(40 * 6);
    const live = await emu.get<AgentRecord[]>('/ai-agents/agents');
    const names = live.map((a) => a.name);
    expect(new Set(names).size).toBe(10);
    const recheck = await apply();
    expect(recheck.stdout).toContain('No changes.');
  });

  it('refuses without --auto-approve when stdin is not a terminal, before any call', async () => {
    await writeManifest({ tools: { t1: 'one' } });
    const result = await runCli(['apply'], { cwd: dir, env });
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/--auto-approve/);
    expect(await emu.requests()).toEqual([]);
  });

  it('rejects bad --concurrency, --retries and --timeout values before any call', async () => {
    await writeManifest({ tools: { t1: 'one' } });
    const cases: [string, string][] = [
      ['--concurrency', '0'],
      ['--retries', 'many'],
      ['--timeout', '0'],
      ['--timeout', '1.5'],
      // Not written plainly: refused rather than read as 5.
      ['--timeout', ' 5'],
      ['--timeout', '5 '],
      ['--timeout', '05'],
      ['--timeout', '+5'],
      ['--timeout', '5e0'],
      ['--concurrency', '\t4'],
      ['--timeout', '5\n6'],
    ];
    for (const [flag, value] of cases) {
      const result = await apply(flag, value);
      expect(result.code).toBe(1);
      expect(result.stderr).toMatch(/^Error: [^\n]*\n$/);
      expect(result.stderr).toBe(`Error: ${flag} must be a whole number from ${flag === '--timeout' ? '1 to 3600' : flag === '--retries' ? '0 to 100' : '1 to 256'} (got ${JSON.stringify(value)})\n`);
    }
    for (const value of [' 5', '05']) {
      expect((await apply('--lock-timeout', value)).stderr).toBe(`Error: --lock-timeout must be a whole number of seconds from 0 to 86400 (got ${JSON.stringify(value)})\n`);
    }
    expect(await emu.apiRequests()).toEqual([]);
  });

  it('refuses without an API key, before any call', async () => {
    await writeManifest({ tools: { t1: 'one' } });
    const result = await runCli(['apply', '--auto-approve'], { cwd: dir, env: { AGENTSYNC_BASE_URL: emu.url } });
    expect(result.code).toBe(1);
    expect(result.stderr).toBe('Error: the API key is missing: set COMETCHAT_API_KEY to the REST API key of app "local" (for the local emulator: COMETCHAT_API_KEY=local-dev-key)\n');
    expect(await emu.requests()).toEqual([]);
  });

  it('never prints or stores the API key or a secret value', async () => {
    const secret = 'sup3r-s3cret-header-value';
    await writeManifest({
      tools: { t1: 'one' },
      extraAgentYaml:
        '  remote: { name: remote, integrationType: agent, integrateWith: langgraph, integrationMeta: { baseUrl: "https://x.example.com", headers: { Authorization: "${secret:REMOTE_TOKEN}" } } }',
    });
    env.REMOTE_TOKEN = secret;
    const outputs = [await apply(), await runCli(['plan', '--out', 'plan.json'], { cwd: dir, env })];
    env.REMOTE_TOKEN = 'rotated-secret-value';
    outputs.push(await apply('--json'));
    expect(outputs.map((o) => o.code)).toEqual([0, 0, 0]);
    const sent = (await emu.apiRequests('POST')).find((r) => r.path === '/v3/ai-agents/agents');
    expect(JSON.stringify(sent?.body)).toContain(secret);
    const files = await readdir(join(dir, '.agentsync'));
    const texts = [...outputs.flatMap((o) => [o.stdout, o.stderr])];
    for (const name of files) texts.push(await readFile(join(dir, '.agentsync', name), 'utf8'));
    texts.push(await readFile(join(dir, 'plan.json'), 'utf8'));
    for (const text of texts) {
      expect(text).not.toContain(API_KEY);
      expect(text).not.toContain(secret);
      expect(text).not.toContain('rotated-secret-value');
    }
  });

  it('applies a saved plan exactly, and refuses a stale one before any call', async () => {
    await writeManifest({ tools: { t1: 'one' } });
    const saved = await runCli(['plan', '--out', 'plan.json'], { cwd: dir, env });
    expect(saved.code).toBe(0);
    const applied = await apply('plan.json');
    expect(applied.code).toBe(0);
    expect(applied.stdout).toContain('Apply complete: 1 created, 0 updated, 0 forgotten.');

    // The state moved on since plan.json was made: refused.
    await fetch(`${emu.origin}/__emulator/requests`, { method: 'DELETE' });
    const again = await apply('plan.json');
    expect(again.code).toBe(1);
    expect(again.stderr).toMatch(/stale/);
    // A plan made, then a manifest edited: refused too.
    await runCli(['plan', '--out', 'plan2.json'], { cwd: dir, env });
    await writeManifest({ tools: { t1: 'edited' } });
    const edited = await apply('plan2.json');
    expect(edited.code).toBe(1);
    expect(edited.stderr).toMatch(/stale/);
    expect(await emu.apiWrites()).toEqual([]);
  });

  it('prints the result as JSON with --json', async () => {
    await writeManifest({ tools: { t1: 'one' } });
    const result = await apply('--json');
    expect(result.code).toBe(0);
    const parsed = JSON.parse(result.stdout) as { ok: boolean; summary: Record<string, number>; done: { address: string }[] };
    expect(parsed).toMatchObject({ ok: true, summary: { created: 1, updated: 0, forgotten: 0, failed: 0, notAttempted: 0 } });
    expect(parsed.done.map((d) => d.address)).toEqual(['tool.t1']);
  });
});
