// PostgreSQL state under fire, through the built CLI against the emulator and a real server:
// - SIGKILLs at random moments of an apply, each followed by a rerun: after the final apply every
//   manifest resource is on the server (0 lost) and no agent exists twice (0 duplicates);
// - two applies started at once from two processes: one proceeds, the other is refused and told
//   the winner's host, pid and start time; with --lock-timeout the second waits and then runs;
// - the lock is free right after the holder is killed with SIGKILL: the next apply needs no wait.
// Kill moments come from a seeded generator; the seed is printed, and TORTURE_SEED=<n> replays it.
import { hostname } from 'node:os';
import { writeFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateManifest, resourceCounts, seededRandom } from '../../bench/generate.mjs';
import { startPostgres, type PostgresServer } from '../support/postgres.mjs';
import { assertBuilt, runCli, startCli } from '../support/cli.js';
import { startTestEmulator, type TestEmulator } from '../support/emulator.js';
import { waitFor } from '../support/wait.js';
import { makeWorkspace, serverAgents, type Workspace } from './helpers.js';
import { compareServerWithManifest } from './server-matches.js';

const RESOURCES = 200;
const KILLS = 10;
const seed = Number(process.env.TORTURE_SEED ?? Math.floor(Math.random() * 1_000_000));

let ws: Workspace;
let pg: PostgresServer;
let emulator: TestEmulator;
let manifestPath: string;
let manifestYaml: string;
let databases = 0;
const transcripts: string[] = [];

beforeAll(async () => {
  assertBuilt();
  ws = makeWorkspace('agentsync-torture-pg-');
  manifestPath = ws.path('agents.yaml');
  manifestYaml = generateManifest({ count: RESOURCES, seed: 301 });
  writeFileSync(manifestPath, manifestYaml);
  [pg, emulator] = await Promise.all([startPostgres(), startTestEmulator({ latencyMs: 10 })]);
});

afterAll(async () => {
  await Promise.all([pg?.stop(), emulator?.close()]);
  ws?.remove();
  for (const text of transcripts) expect(text).not.toContain(pg.password);
});

async function freshState(): Promise<string[]> {
  const url = await pg.createDatabase(`torture_${++databases}`);
  return ['-f', manifestPath, '--state', url];
}

async function cli(args: string[]) {
  const result = await runCli(args, { env: emulator.env, timeoutMs: 120_000 });
  transcripts.push(result.stdout, result.stderr);
  return result;
}

/** Waits until the emulator has answered everything a killed process had in flight. */
async function settled(): Promise<void> {
  await waitFor('no request in flight', async () => (await emulator.stats()).inFlight === 0, { timeoutMs: 60_000 });
}

function isAgentPost(entry: { method: string; path: string }): boolean {
  return entry.method === 'POST' && entry.path === '/v3/ai-agents/agents';
}

describe(`PostgreSQL state torture (seed ${seed})`, () => {
  it(`survives ${KILLS} SIGKILLs mid-apply: 0 resources lost, 0 duplicate agents`, async () => {
    await emulator.reset();
    const args = await freshState();
    const random = seededRandom(seed);
    const agents = resourceCounts(RESOURCES).agents;
    const report: string[] = [];
    let kills = 0;
    let agentPostKills = 0;
    for (let attempt = 0; kills < KILLS && attempt < KILLS * 3; attempt++) {
      const log = await emulator.requests();
      const seen = log.length;
      const agentPosts = log.filter(isAgentPost).length;
      const { child, done } = startCli(['apply', '--auto-approve', ...args], { env: emulator.env, timeoutMs: 120_000 });
      let exited = false;
      void done.then(() => (exited = true));
      let trigger: string;
      if (random() < 0.4 && agentPosts < agents) {
        const target = 1 + Math.floor(random() * Math.min(5, agents - agentPosts));
        trigger = `agent POST ${target}`;
        await waitFor('the trigger', async () => (await emulator.requests()).filter(isAgentPost).length - agentPosts >= target, { unless: () => exited, timeoutMs: 60_000, intervalMs: 2 });
      } else {
        const target = 1 + Math.floor(random() * 40);
        trigger = `${target} requests`;
        await waitFor('the trigger', async () => (await emulator.requests()).length - seen >= target, { unless: () => exited, timeoutMs: 60_000, intervalMs: 2 });
      }
      const killed = !exited && child.kill('SIGKILL');
      const result = await done;
      transcripts.push(result.stdout, result.stderr);
      if (!killed || result.signal !== 'SIGKILL') {
        expect(result.code, `an apply that was not killed must succeed: ${result.stderr}`).toBe(0);
        report.push(`attempt ${attempt}: finished before the kill (${trigger}); starting over from an empty server and state`);
        await emulator.reset();
        args.splice(0, args.length, ...(await freshState()));
        continue;
      }
      kills++;
      if (trigger.startsWith('agent POST')) agentPostKills++;
      report.push(`attempt ${attempt}: SIGKILL after ${trigger}`);
      await settled();
      // The lock died with the process: the state reads and is free at once.
      const list = await cli(['state', 'list', '--json', ...args]);
      expect(list.code, list.stderr).toBe(0);
    }

    const final = await cli(['apply', '--auto-approve', ...args]);
    expect(final.code, `final apply: ${final.stderr}\n${final.stdout.slice(-2000)}`).toBe(0);
    const plan = await cli(['plan', '--detailed-exitcode', ...args]);
    expect(plan.code, `plan after the final apply should have no changes:\n${plan.stdout.slice(0, 2000)}`).toBe(0);
    const { problems, duplicateAgentNames } = await compareServerWithManifest(emulator, manifestYaml);
    const onServer = (await serverAgents(emulator)).length;
    console.log(`postgres torture, seed ${seed}: ${kills} kills (${agentPostKills} during an agent POST), ${onServer} agents on the server\n  ${report.join('\n  ')}`);
    expect(kills).toBe(KILLS);
    expect(problems, 'lost or wrong resources').toEqual([]);
    expect(duplicateAgentNames, 'duplicate agents').toEqual([]);
    expect(onServer).toBe(agents);
  });

  it('two applies at once from two processes: one proceeds, the other is refused naming the holder', async () => {
    await emulator.reset();
    await emulator.configure({ latencyMs: 25 });
    try {
      const args = await freshState();
      const runs = [0, 1].map(() => startCli(['apply', '--auto-approve', ...args], { env: emulator.env, timeoutMs: 120_000 }));
      const results = await Promise.all(runs.map((run) => run.done));
      results.forEach((r) => transcripts.push(r.stdout, r.stderr));
      const winner = results.findIndex((r) => r.code === 0);
      const loser = results.findIndex((r) => r.code === 1);
      expect([winner, loser].sort(), results.map((r) => r.stderr).join('\n---\n')).toEqual([0, 1]);
      const refused = results[loser]!.stderr;
      expect(refused).toMatch(
        new RegExp(
          `^Error: state locked by pid ${runs[winner]!.child.pid!} on ${hostname()} since \\d{4}-\\d\\d-\\d\\dT[\\d:.]+Z; another agentsync run is using postgres://agentsync:\\*\\*\\*@`,
          'm',
        ),
      );
      expect((await compareServerWithManifest(emulator, manifestYaml)).problems).toEqual([]);

      // With --lock-timeout the second one waits for the first, then finds nothing left to do.
      await emulator.reset();
      const waitArgs = await freshState();
      const first = startCli(['apply', '--auto-approve', ...waitArgs], { env: emulator.env, timeoutMs: 120_000 });
      // Under way: five tool writes seen (against the public reference one PUT learns that creates
      // are POSTs, so count both).
      await waitFor('five tool writes', async () => (await emulator.requests()).filter((r) => (r.method === 'PUT' || r.method === 'POST') && r.path.startsWith('/v3/ai-agents/tools')).length >= 5, {
        timeoutMs: 60_000,
      });
      const second = startCli(['apply', '--auto-approve', '--lock-timeout', '120', ...waitArgs], { env: emulator.env, timeoutMs: 150_000 });
      const [a, b] = await Promise.all([first.done, second.done]);
      transcripts.push(a.stdout, a.stderr, b.stdout, b.stderr);
      expect([a.code, b.code], b.stderr).toEqual([0, 0]);
      expect(b.stdout).toContain('No changes.');
    } finally {
      await emulator.configure({ latencyMs: 10 });
    }
  });

  it('frees the lock the moment the holder is killed with SIGKILL: the next apply needs no wait', async () => {
    await emulator.reset();
    await emulator.configure({ latencyMs: 25 });
    try {
      const args = await freshState();
      // Each round kills the apply holding the lock and starts the next one at once, without
      // --lock-timeout: a lock left behind would refuse it before its first request.
      for (let round = 0; round < 3; round++) {
        const seen = (await emulator.requests()).length;
        const { child: holder, done: done } = startCli(['apply', '--auto-approve', ...args], { env: emulator.env, timeoutMs: 120_000 });
        let exited = false;
        void done.then(() => (exited = true));
        await waitFor('the trigger', async () => (await emulator.requests()).length - seen >= 20, { unless: () => exited, timeoutMs: 60_000, intervalMs: 2 });
        holder.kill('SIGKILL');
        const result = await done;
        transcripts.push(result.stdout, result.stderr);
        expect(result.stderr).not.toContain('locked');
        expect(result.signal, `round ${round}: ${result.stderr}`).toBe('SIGKILL');
      }
      const finish = await cli(['apply', '--auto-approve', ...args]);
      expect(finish.code, finish.stderr).toBe(0);
      await settled();
      const { problems, duplicateAgentNames } = await compareServerWithManifest(emulator, manifestYaml);
      expect(problems).toEqual([]);
      expect(duplicateAgentNames).toEqual([]);
    } finally {
      await emulator.configure({ latencyMs: 10 });
    }
  });
});
