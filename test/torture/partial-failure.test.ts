// Issue 20, "a failed website marks unrelated resources not attempted", and partial failure
// (docs/spec/plan-and-apply.md#results-and-partial-failures): one failed call never stops unrelated
// ones; the summary names each failure with the server's message, and the next apply retries only
// what failed.
import { readFileSync, writeFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertBuilt, runCli } from '../support/cli.js';
import { startTestEmulator, type TestEmulator } from '../support/emulator.js';
import { makeWorkspace, STACK_TRACE, type Workspace } from './helpers.js';

const manifest = (website: string): string => `version: 1
environments:
  local: { appId: local, region: us }
tools:
  t: { displayName: T, executionText: x, description: Does t, parameters: {} }
agents:
  a: { name: Alpha, integrationType: llm, integrateWith: gpt-4o, actions: [t] }
knowledgeBase:
  websites:
    docs: { parentUniqueId: ${website}, exclude: [] }
`;

describe('one failed call', () => {
  let emulator: TestEmulator;
  let ws: Workspace;
  beforeAll(async () => {
    assertBuilt();
    emulator = await startTestEmulator();
    ws = makeWorkspace();
  });
  afterAll(async () => {
    await emulator.close();
    ws.remove();
  });

  it('fails only the website: the tool and the agent are applied and recorded, and a rerun retries only it', async () => {
    writeFileSync(ws.path('agents.yaml'), manifest('no_such_website'));
    const failed = await runCli(['apply', '--auto-approve'], { cwd: ws.dir, env: emulator.env });
    expect(failed.code).toBe(1);
    expect(failed.stderr).not.toMatch(STACK_TRACE);
    expect(failed.stdout).toContain('Apply failed: 2 of 3 changes done, 1 failed, 0 not attempted.');
    expect(failed.stdout).toMatch(/website\.docs: .*404/);
    const state = JSON.parse(readFileSync(ws.path('.agentsync', 'local.state.json'), 'utf8')) as { resources: Record<string, unknown> };
    expect(Object.keys(state.resources).sort()).toEqual(['agent.a', 'tool.t']);

    writeFileSync(ws.path('agents.yaml'), manifest('web_demo'));
    await emulator.clearRequests();
    const rerun = await runCli(['apply', '--auto-approve'], { cwd: ws.dir, env: emulator.env });
    expect(rerun.code, rerun.stderr).toBe(0);
    const writes = (await emulator.requests()).filter((r) => r.method !== 'GET' && r.path.startsWith('/v3/'));
    expect(writes.map((r) => `${r.method} ${r.path}`)).toEqual(['POST /v3/ai-agents/agent-builder/knowledge-base/website/web_demo/discovered-urls/process']);
  });
});
