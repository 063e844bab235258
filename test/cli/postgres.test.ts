// The PostgreSQL state backend through the built CLI, against the emulator and a real throwaway
// server: selecting it (--state, AGENTSYNC_STATE_URL, the manifest's state block), every state
// subcommand, migrate both ways, a held lock, and every connection failure as one line without the
// password. Every run's stdout and stderr are searched for the password.
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { AgentRecord } from '../../src/core/api-types.js';
import { startTestEmulator, API_KEY, type TestEmulator } from '../support/emulator.js';
import { waitFor } from '../support/wait.js';
import { StateChild } from '../io/state/helpers.js';
import { startPostgres, type PostgresServer } from '../support/postgres.mjs';
import { runCli, type CliResult } from '../support/cli.js';

let emu: TestEmulator;
let pg: PostgresServer;
let dir: string;
let env: NodeJS.ProcessEnv;
const outputs: string[] = [];

beforeAll(async () => {
  [emu, pg] = await Promise.all([startTestEmulator(), startPostgres()]);
});
afterAll(async () => {
  await Promise.all([emu?.close(), pg?.stop()]);
});
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'agentsync-pg-cli-'));
  await fetch(`${emu.origin}/__emulator/reset`, { method: 'POST' });
  await fetch(`${emu.origin}/__emulator/requests`, { method: 'DELETE' });
  env = { COMETCHAT_API_KEY: API_KEY, AGENTSYNC_BASE_URL: emu.url };
});
afterEach(async () => {
  await emu.configure({ latencyMs: 0 });
  await rm(dir, { recursive: true, force: true });
  // Whatever a test ran, the password never showed.
  for (const text of outputs.splice(0)) expect(text).not.toContain(pg.password);
});

let keys = 0;
/** A database per test keeps tests apart without knowing each one's keys. */
async function freshUrl(): Promise<string> {
  return pg.createDatabase(`cli_${process.pid}_${++keys}`);
}

async function cli(args: string[], extraEnv: NodeJS.ProcessEnv = {}): Promise<CliResult> {
  const result = await runCli(args, { cwd: dir, env: { ...env, ...extraEnv } });
  outputs.push(result.stdout, result.stderr);
  return result;
}

async function writeManifest(extra = '', tools = ['alpha', 'beta', 'gamma'], agents = ['helper']): Promise<void> {
  const lines = ['version: 1', 'environments:', '  local: { appId: local, region: us }', 'tools:'];
  for (const name of tools) lines.push(`  ${name}: { displayName: ${name}, executionText: Working, description: "${name} tool", parameters: {} }`);
  lines.push(agents.length > 0 ? 'agents:' : 'agents: {}');
  for (const key of agents) lines.push(`  ${key}: { name: ${key} agent, integrationType: llm, integrateWith: gpt-4o }`);
  await writeFile(join(dir, 'agents.yaml'), lines.join('\n') + '\n' + extra);
}

/** Exactly one line on stderr, an error, and no stack trace. */
function expectOneLine(result: CliResult, pattern: RegExp): void {
  expect(result.code).toBe(1);
  const lines = result.stderr.split('\n').filter((l) => l.trim() !== '');
  expect(lines, result.stderr).toHaveLength(1);
  expect(lines[0]).toMatch(/^Error: /);
  expect(lines[0]).toMatch(pattern);
  expect(result.stderr).not.toMatch(/\n\s+at /);
}

async function stateKeys(url: string): Promise<string[]> {
  const db = new URL(url).pathname.slice(1);
  return (await pg.admin('SELECT key FROM agentsync_states ORDER BY key', db)).rows.map((r: { key: string }) => r.key);
}

describe('PostgreSQL state through the CLI', () => {
  it('applies with --state postgres://…, then plans No changes; list, show and rm work on the URL', async () => {
    const url = await freshUrl();
    await writeManifest();
    const applied = await cli(['apply', '--auto-approve', '--state', url]);
    expect(applied.code, applied.stderr).toBe(0);
    expect(applied.stdout).toContain('Apply complete: 4 created, 0 updated, 0 forgotten.');
    await expect(stat(join(dir, '.agentsync'))).rejects.toMatchObject({ code: 'ENOENT' }); // no file state on the side

    const plan = await cli(['plan', '--state', url]);
    expect(plan.code, plan.stderr).toBe(0);
    expect(plan.stdout).toContain('No changes. Environment "local" matches the manifest.');
    expect(await stateKeys(url)).toEqual(['local']);

    const list = await cli(['state', 'list', '--state', url]);
    expect(
      list.stdout
        .split('\n')
        .filter(Boolean)
        .map((l) => l.split(/\s+/)[0]),
    ).toEqual(['agent.helper', 'tool.alpha', 'tool.beta', 'tool.gamma']);
    const json = JSON.parse((await cli(['state', 'list', '--json', '--state', url])).stdout) as { state: string; serial: number };
    expect(json.state).toBe(`postgres://agentsync:***@127.0.0.1:${pg.port}/${new URL(url).pathname.slice(1)} (key "local")`);
    expect(json.serial).toBe(1);

    const show = await cli(['state', 'show', 'tool.beta', '--state', url]);
    expect(show.stdout).toContain('remoteId  = local_beta');
    const removed = await cli(['state', 'rm', 'tool.beta', '--state', url]);
    expect(removed.code, removed.stderr).toBe(0);
    expect(removed.stdout).toMatch(/^Removed tool\.beta \(remote id local_beta\) from postgres:\/\/agentsync:\*\*\*@/);
    const after = JSON.parse((await cli(['state', 'list', '--json', '--state', url])).stdout) as { serial: number; resources: { address: string }[] };
    expect(after.serial).toBe(2);
    expect(after.resources.map((r) => r.address)).not.toContain('tool.beta');
  });

  it('is selected by AGENTSYNC_STATE_URL, and the manifest state block sets the key', async () => {
    const url = await freshUrl();
    await writeManifest('state:\n  url: ${AGENTSYNC_STATE_URL}\n  key: team-local\n');
    const withUrl = { AGENTSYNC_STATE_URL: url };
    expect((await cli(['apply', '--auto-approve'], withUrl)).code).toBe(0);
    expect(await stateKeys(url)).toEqual(['team-local']);
    expect((await cli(['plan', '--detailed-exitcode'], withUrl)).code).toBe(0);
    const list = await cli(['state', 'list', '--json'], withUrl);
    expect((JSON.parse(list.stdout) as { state: string }).state).toMatch(/ \(key "team-local"\)$/);
    await expect(stat(join(dir, '.agentsync'))).rejects.toMatchObject({ code: 'ENOENT' });

    // Without the variable the manifest cannot say where its state is: one line at its position.
    const unset = await cli(['plan']);
    expect(unset.code).toBe(1);
    expect(unset.stderr).toMatch(/agents\.yaml:\d+:\d+: .*AGENTSYNC_STATE_URL is not set/);
    const listUnset = await cli(['state', 'list']);
    expectOneLine(listUnset, /state\.url: environment variable AGENTSYNC_STATE_URL is not set/);
  });

  it('migrates file → PostgreSQL → file, keeping lineage and serial, and refuses to overwrite without --force', async () => {
    const url = await freshUrl();
    await writeManifest();
    expect((await cli(['apply', '--auto-approve'])).code).toBe(0);
    const fileState = JSON.parse(await readFile(join(dir, '.agentsync', 'local.state.json'), 'utf8')) as { lineage: string; serial: number };

    const up = await cli(['state', 'migrate', '--to', url]);
    expect(up.code, up.stderr).toBe(0);
    expect(up.stdout).toContain(`(lineage ${fileState.lineage}, serial ${fileState.serial}, 4 resources)`);
    expect(up.stdout).toMatch(/ to postgres:\/\/agentsync:\*\*\*@.* \(key "local"\)\./);
    const inDb = JSON.parse((await cli(['state', 'list', '--json', '--state', url])).stdout) as { lineage: string; serial: number };
    expect(inDb).toMatchObject({ lineage: fileState.lineage, serial: fileState.serial });
    expect((await cli(['plan', '--detailed-exitcode', '--state', url])).code).toBe(0);

    const again = await cli(['state', 'migrate', '--to', url]);
    expectOneLine(again, /already holds a state with 4 resources .*pass --force to replace it/);

    // A change in the database, then back to a new file: the newer serial comes along.
    expect((await cli(['state', 'rm', 'tool.alpha', '--state', url])).code).toBe(0);
    const down = await cli(['state', 'migrate', '--state', url, '--to', 'back.json', '--json']);
    expect(down.code, down.stderr).toBe(0);
    expect(JSON.parse(down.stdout)).toMatchObject({ migrated: { lineage: fileState.lineage, serial: fileState.serial + 1, resources: 3 } });
    const back = JSON.parse(await readFile(join(dir, 'back.json'), 'utf8')) as { lineage: string; serial: number };
    expect(back).toMatchObject({ lineage: fileState.lineage, serial: fileState.serial + 1 });
    expectOneLine(await cli(['state', 'migrate', '--to', 'back.json']), /back\.json already holds a state with 3 resources/);
    const forced = await cli(['state', 'migrate', '--to', 'back.json', '--force']);
    expect(forced.code, forced.stderr).toBe(0);
    expect(JSON.parse(await readFile(join(dir, 'back.json'), 'utf8'))).toMatchObject({ serial: fileState.serial });
  });

  it('gives one line without the password for a wrong password, a missing database and a refused connection', async () => {
    await writeManifest();
    const cases: [string, RegExp][] = [
      [pg.url({ password: 'not-the-Pa55' }), /refused the login: password authentication failed for user "agentsync"/],
      [pg.url({ database: 'nowhere' }), /database "nowhere" does not exist/],
      [pg.url({ port: 1 }), /connection refused/],
    ];
    for (const [url, why] of cases) {
      for (const args of [['plan'], ['apply', '--auto-approve'], ['state', 'list']]) {
        const result = await cli([...args, '--state', url]);
        expectOneLine(result, why);
        expect(result.stderr).toContain('postgres://agentsync:***@127.0.0.1:');
        expect(result.stdout + result.stderr).not.toContain('not-the-Pa55');
      }
    }
    expect((await emu.apiRequests()).filter((r) => r.method !== 'GET')).toEqual([]); // nothing was applied
  });

  it('refuses a held lock naming the holder, waits with --lock-timeout, and rejects a bad --lock-timeout', async () => {
    const url = await freshUrl();
    await writeManifest();
    expect((await cli(['apply', '--auto-approve', '--state', url])).code).toBe(0);
    const holder = new StateChild('race', url, '', 'local');
    try {
      holder.send('go');
      const { pid } = await holder.waitFor((e) => e.event === 'locked');
      expectOneLine(await cli(['state', 'rm', 'tool.alpha', '--state', url]), new RegExp(`state locked by pid ${pid as number} on ${hostname()} since .*--lock-timeout`));
      const started = Date.now();
      expectOneLine(await cli(['apply', '--auto-approve', '--state', url, '--lock-timeout', '1']), /waited 1 s/);
      expect(Date.now() - started).toBeGreaterThanOrEqual(1000);

      const waiting = runCli(['state', 'rm', 'tool.alpha', '--state', url, '--lock-timeout', '30'], { cwd: dir, env });
      // Released only once the second run is queued on the advisory lock, so it really waits.
      const database = url.slice(url.lastIndexOf('/') + 1);
      await waitFor('a session waiting on the lock', async () => (await pg.admin("SELECT 1 FROM pg_locks WHERE locktype = 'advisory' AND NOT granted", database)).rows.length > 0, {
        timeoutMs: 20_000,
        intervalMs: 20,
      });
      holder.send('release');
      const result = await waiting;
      outputs.push(result.stdout, result.stderr);
      expect(result.code, result.stderr).toBe(0);
      expect(result.stdout).toContain('Removed tool.alpha');
    } finally {
      await holder.kill();
    }
    expectOneLine(await cli(['apply', '--auto-approve', '--state', url, '--lock-timeout', 'soon']), /--lock-timeout must be a whole number of seconds/);
  });

  it('a connection dropped mid-apply is one clear line; nothing recorded is lost and the rerun finishes without duplicates', async () => {
    const url = await freshUrl();
    const tools = Array.from({ length: 40 }, (_, i) => `tool_${i}`);
    const agents = Array.from({ length: 6 }, (_, i) => `agent_${i}`);
    await writeManifest('', tools, agents);
    await emu.configure({ latencyMs: 40 });
    const run = runCli(['apply', '--auto-approve', '--concurrency', '2', '--state', url], { cwd: dir, env });
    await waitFor('twelve requests', async () => (await emu.apiRequests()).length >= 12, { intervalMs: 10 });
    expect(await pg.terminate('agentsync')).toBeGreaterThanOrEqual(1);
    const dropped = await run;
    outputs.push(dropped.stdout, dropped.stderr);
    expect(dropped.code).toBe(1);
    expect(dropped.stderr).toMatch(
      /^Error: apply stopped: lost the connection to the PostgreSQL state at postgres:\/\/agentsync:\*\*\*@.*every result recorded before this point is kept.*\d+ changes? (were|was) applied and recorded/m,
    );
    expect(dropped.stderr).not.toMatch(/\n\s+at /);
    expect(dropped.stderr.split('\n').filter((l) => l.startsWith('Error:'))).toHaveLength(1);
    const kept = JSON.parse((await cli(['state', 'list', '--json', '--state', url])).stdout) as { resources: unknown[] };
    expect(kept.resources.length).toBeGreaterThan(0); // what succeeded before the drop is there

    await emu.configure({ latencyMs: 0 });
    const rerun = await cli(['apply', '--auto-approve', '--state', url]);
    expect(rerun.code, rerun.stderr).toBe(0);
    expect((await cli(['plan', '--detailed-exitcode', '--state', url])).code).toBe(0);
    const names = (await emu.get<AgentRecord[]>('/ai-agents/agents')).map((a) => a.name).filter((n) => n.startsWith('agent_'));
    expect(names.sort()).toEqual(agents.map((a) => `${a} agent`).sort());
  });
});
