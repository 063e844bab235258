// Many environments with their state in one PostgreSQL database: each environment is its own key
// (row) and its own advisory lock; a constant state.key, which would put them on one row, is refused.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPostgres, type PostgresServer } from '../support/postgres.mjs';
import { runCli } from '../support/cli.js';
import { startTestEmulator, type TestEmulator } from '../support/emulator.js';

const NAMES = ['us', 'eu'] as const;
const emulators: TestEmulator[] = [];
let pg: PostgresServer;
let dir: string;

beforeAll(async () => {
  pg = await startPostgres();
  for (const name of NAMES) emulators.push(await startTestEmulator({ apiKey: `key-${name}`, appId: `app-${name}` }));
  dir = await mkdtemp(join(tmpdir(), 'agentsync-multienv-pg-'));
});
afterAll(async () => {
  for (const emulator of emulators) await emulator.close();
  await pg?.stop();
  await rm(dir, { recursive: true, force: true });
});

function manifest(stateBlock: string): string {
  const environments = NAMES.map((name, i) => `  ${name}: { appId: app-${name}, region: ${name}, baseUrl: "${emulators[i]!.url}", apiKeyEnv: KEY_${name.toUpperCase()} }`);
  return `version: 1\nenvironments:\n${environments.join('\n')}\n${stateBlock}tools:\n  t_eu: { displayName: T, executionText: t, doNotExecute: true, environments: [eu] }\n  t_all: { displayName: A, executionText: a, doNotExecute: true }\n`;
}

describe('several environments, one PostgreSQL database', () => {
  it('keeps each environment in its own row, and refuses one key for all', async () => {
    const url = await pg.createDatabase(`multienv_${process.pid}`);
    const env = { KEY_US: 'key-us', KEY_EU: 'key-eu', AGENTSYNC_STATE_URL: url };
    await writeFile(join(dir, 'agents.yaml'), manifest(''));
    const apply = await runCli(['apply', '--all-environments', '--auto-approve'], { cwd: dir, env });
    expect(apply.stderr).toBe('');
    expect(apply.code).toBe(0);
    const rows = await pg.admin('SELECT key, body FROM agentsync_states ORDER BY key', url.slice(url.lastIndexOf('/') + 1));
    const byKey = Object.fromEntries(rows.rows.map((row: { key: string; body: string }) => [row.key, Object.keys((JSON.parse(row.body) as { resources: object }).resources).sort()]));
    expect(byKey).toEqual({ eu: ['tool.t_all', 'tool.t_eu'], us: ['tool.t_all'] });
    for (const text of [apply.stdout, apply.stderr]) expect(text).not.toContain(pg.password);

    await writeFile(join(dir, 'agents.yaml'), manifest('state: { url: "${AGENTSYNC_STATE_URL}", key: shared }\n'));
    const shared = await runCli(['plan', '--all-environments'], { cwd: dir, env });
    expect(shared.code).toBe(1);
    expect(shared.stderr).toBe(
      `Error: environments "us" and "eu" would share one state (from AGENTSYNC_STATE_URL); with several environments leave --state out (each gets .agentsync/<env>.state.json) or use a postgres:// URL, whose key is the environment name unless state.key says otherwise\n`,
    );
  });
});
