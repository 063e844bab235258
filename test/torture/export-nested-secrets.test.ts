// Issue 20, "export writes a nested secret in the clear": a credential inside an array
// (`integrationMeta.creds: [{password: …}]`) must become a placeholder like any other, at any depth;
// which fields may hold credentials comes from the agent's field table.
import { writeFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertBuilt, runCli } from '../support/cli.js';
import { API_KEY, startTestEmulator, type TestEmulator } from '../support/emulator.js';
import { makeWorkspace, type Workspace } from './helpers.js';

const PASSWORD = 'hunter2-nested-7f3a';
const TOKEN = 'tok-deep-91c2e0';

describe('export of credentials nested in arrays', () => {
  let emulator: TestEmulator;
  let ws: Workspace;
  beforeAll(async () => {
    assertBuilt();
    emulator = await startTestEmulator();
    ws = makeWorkspace();
    const body = {
      name: 'Returns desk',
      isActive: true,
      integrateWith: 'langgraph',
      integrationType: 'agent',
      tools: [],
      actions: [],
      integrationMeta: { baseUrl: 'https://returns.example.com', creds: [{ user: 'svc', password: PASSWORD }], hops: [[{ auth: { token: TOKEN } }]] },
      metaData: { team: 'care' },
    };
    const response = await fetch(`${emulator.url}/ai-agents/agents`, { method: 'POST', headers: { apikey: API_KEY, 'content-type': 'application/json' }, body: JSON.stringify(body) });
    expect(response.status).toBe(200);
  });
  afterAll(async () => {
    await emulator.close();
    ws.remove();
  });

  it('writes placeholders, never the values, and the export round-trips with the secrets set', async () => {
    writeFileSync(ws.path('agents.yaml'), 'version: 1\nenvironments:\n  local: { appId: local, region: us }\n');
    const exported = await runCli(['export', '--out', 'app.yaml'], { cwd: ws.dir, env: emulator.env });
    expect(exported.code, exported.stderr).toBe(0);
    const text = (await import('node:fs')).readFileSync(ws.path('app.yaml'), 'utf8');
    expect(text).not.toContain(PASSWORD);
    expect(text).not.toContain(TOKEN);
    expect(exported.stdout + exported.stderr).not.toMatch(new RegExp(`${PASSWORD}|${TOKEN}`));
    const names = [...text.matchAll(/\$\{secret:([A-Z0-9_]+)\}/g)].map((m) => m[1] as string);
    expect(names).toEqual(expect.arrayContaining([expect.stringMatching(/CREDS_1_PASSWORD$/), expect.stringMatching(/TOKEN$/)]));
    const secrets = Object.fromEntries(names.map((name) => [name, name.endsWith('PASSWORD') ? PASSWORD : TOKEN]));
    const imported = await runCli(['import', '-f', 'app.yaml'], { cwd: ws.dir, env: { ...emulator.env, ...secrets } });
    expect(imported.code, imported.stderr).toBe(0);
    const plan = await runCli(['plan', '-f', 'app.yaml', '--detailed-exitcode'], { cwd: ws.dir, env: { ...emulator.env, ...secrets } });
    expect(plan.code, plan.stdout + plan.stderr).toBe(0);
  });
});
