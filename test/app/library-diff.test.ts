// The library's diff() against two emulators standing for two regions: the same document as
// `agentsync diff --json`, nothing written, and a missing key is an error, not "no differences".
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as api from '../../src/index.js';
import { runCli } from '../support/cli.js';
import { startTestEmulator, type TestEmulator } from '../support/emulator.js';

let us: TestEmulator;
let eu: TestEmulator;
let dir: string;
const env = { KEY_US: 'key-us-lib-41c2', KEY_EU: 'key-eu-lib-88d0' };

beforeAll(async () => {
  [us, eu] = await Promise.all([startTestEmulator({ apiKey: env.KEY_US, appId: 'app-us' }), startTestEmulator({ apiKey: env.KEY_EU, appId: 'app-eu' })]);
  dir = await mkdtemp(join(tmpdir(), 'agentsync-library-diff-'));
  await writeFile(
    join(dir, 'agents.yaml'),
    `version: 1
environments:
  us: { appId: app-us, region: us, baseUrl: "${us.url}", apiKeyEnv: KEY_US, vars: { tone: brief } }
  eu: { appId: app-eu, region: eu, baseUrl: "${eu.url}", apiKeyEnv: KEY_EU, vars: { tone: formal } }
tools:
  ping: { displayName: Ping, executionText: Pinging, description: Ping a host, parameters: {} }
agents:
  helper: { name: Helper, integrationType: llm, integrateWith: gpt-4o, instruction: "Be \${var.tone}.", actions: [ping] }
`,
  );
  const applied = await runCli(['apply', '-e', 'us,eu', '--auto-approve'], { cwd: dir, env });
  expect(applied.code, applied.stderr).toBe(0);
  await eu.createTool({ name: 'by_hand', displayName: 'By hand', executionText: 'x', description: 'made in the dashboard', parameters: {} });
  await Promise.all([us.clearRequests(), eu.clearRequests()]);
});
afterAll(async () => {
  await Promise.all([us.close(), eu.close()]);
  await rm(dir, { recursive: true, force: true });
});

describe('diff()', () => {
  it('returns what `diff --json` prints, and only reads', async () => {
    const result = await api.diff({ cwd: dir, env, environments: ['us', 'eu'] });
    expect(result.formatVersion).toBe(1);
    expect(result.resources.map((r) => [r.address, r.group])).toEqual([
      ['tool.by_hand', 'only'],
      ['agent.helper', 'intended'],
    ]);
    expect(result.resources[1]!.fields[0]).toMatchObject({ path: 'instruction', group: 'intended', sides: [{ manifest: 'Be brief.' }, { manifest: 'Be formal.' }] });
    const cli = await runCli(['diff', '-e', 'us', '-e', 'eu', '--json'], { cwd: dir, env });
    expect(JSON.parse(cli.stdout)).toEqual(result);
    expect([...(await us.apiWrites()), ...(await eu.apiWrites())]).toEqual([]);
  });

  it('takes API keys by environment, and refuses a missing one before reading anything', async () => {
    const given = await api.diff({ cwd: dir, env: {}, environments: ['eu', 'us'], apiKeys: { us: env.KEY_US, eu: env.KEY_EU } });
    expect(given.environments.map((e) => e.name)).toEqual(['eu', 'us']);
    expect(given.summary.only).toEqual([1, 0]);
    await Promise.all([us.clearRequests(), eu.clearRequests()]);
    await expect(api.diff({ cwd: dir, env: { KEY_US: env.KEY_US }, environments: ['us', 'eu'] })).rejects.toMatchObject({ code: 'config_invalid', message: expect.stringContaining('KEY_EU') });
    expect([...(await us.apiRequests()), ...(await eu.apiRequests())]).toEqual([]);
  });
});
