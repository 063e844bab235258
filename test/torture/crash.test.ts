// Crash: 20 SIGKILLs at random moments of a 300-resource apply, each followed by a rerun.
// Ten cycles, each from an empty server and no state: the first apply is killed, the rerun that
// resumes it is killed too, and a last rerun must finish. After every kill the state and journal
// must still read; after every cycle the server must equal the manifest with no duplicate agent
// that a plan did not warn about. Kill moments come from a seeded generator; the seed is printed,
// and TORTURE_SEED=<n> replays a run.
import { writeFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateManifest, resourceCounts, seededRandom } from '../../bench/generate.mjs';
import { assertBuilt, collect, makeWorkspace, runCli, sleep, spawnCli, startTortureEmulator, type CliResult, type TortureEmulator, type Workspace } from './helpers.js';
import { compareServerWithManifest } from './server-matches.js';

const RESOURCES = 300;
const TOTAL_KILLS = 20;
const KILLS_PER_CYCLE = 2;
/** Cycles end early when an apply finishes before its kill; this bounds the extra cycles. */
const MAX_CYCLES = 20;
const LATENCY_MS = 10;
const seed = Number(process.env.TORTURE_SEED ?? Math.floor(Math.random() * 1_000_000));
const random = seededRandom(seed);

let emulator: TortureEmulator;
let ws: Workspace;
let manifestPath: string;
let manifestYaml: string;

beforeAll(async () => {
  assertBuilt();
  emulator = await startTortureEmulator({ latencyMs: LATENCY_MS });
  ws = makeWorkspace();
  manifestPath = ws.path('agents.yaml');
  manifestYaml = generateManifest({ count: RESOURCES, seed: 300 });
  writeFileSync(manifestPath, manifestYaml);
});

afterAll(async () => {
  await emulator?.close();
  ws?.remove();
});

describe(`crash (seed ${seed})`, () => {
  it('survives 20 SIGKILLs mid-apply: state stays readable, reruns converge, no unwarned duplicate agents', async () => {
    const counts = resourceCounts(RESOURCES);
    let kills = 0;
    const report: string[] = [];
    for (let cycle = 0; kills < TOTAL_KILLS && cycle < MAX_CYCLES; cycle++) {
      await emulator.reset();
      const cycleStart = (await emulator.stats()).requests;
      const state = ws.path(`cycle-${cycle}`, 'state.json');
      const args = ['-f', manifestPath, '--state', state];
      const warnings: string[] = [];
      for (let k = 0; k < KILLS_PER_CYCLE && kills < TOTAL_KILLS; k++) {
        const remaining = RESOURCES - ((await emulator.stats()).requests - cycleStart);
        const outcome = await applyAndKill(args, Math.max(1, remaining));
        warnings.push(outcome.result.stderr, outcome.result.stdout);
        report.push(`cycle ${cycle} attempt ${k}: ${outcome.killed ? `SIGKILL after ${outcome.trigger}` : `finished before the kill (exit ${outcome.result.code})`}`);
        const list = await runCli(['state', 'list', '--json', ...args], { env: emulator.env });
        expect(list.code, `state list after attempt ${k} of cycle ${cycle}: ${list.stderr}`).toBe(0);
        expect(() => JSON.parse(list.stdout) as unknown).not.toThrow();
        const plan = await runCli(['plan', ...args], { env: emulator.env });
        expect(plan.code, `plan after attempt ${k} of cycle ${cycle}: ${plan.stderr}`).toBe(0);
        warnings.push(plan.stderr, plan.stdout);
        if (!outcome.killed) {
          expect(outcome.result.code, `an apply that was not killed must succeed: ${outcome.result.stderr}`).toBe(0);
          break;
        }
        kills++;
      }
      const rerun = await runCli(['apply', '--auto-approve', ...args], { env: emulator.env });
      warnings.push(rerun.stderr, rerun.stdout);
      expect(rerun.code, `final rerun of cycle ${cycle}: ${rerun.stderr}\n${rerun.stdout.slice(-2000)}`).toBe(0);
      const settled = await runCli(['plan', '--detailed-exitcode', ...args], { env: emulator.env });
      expect(settled.code, `plan after the rerun of cycle ${cycle} should have no changes:\n${settled.stdout.slice(0, 2000)}`).toBe(0);

      const { problems, duplicateAgentNames } = await compareServerWithManifest(emulator, manifestYaml);
      expect(problems, `server differs from the manifest after cycle ${cycle}`).toEqual([]);
      const unwarned = duplicateAgentNames.filter((name) => !warnedAbout(name, warnings.join('\n')));
      expect(unwarned, `duplicate agents no plan warned about after cycle ${cycle}`).toEqual([]);
      report.push(`cycle ${cycle}: converged; ${counts.tools} tools, ${counts.agents} agents, ${counts.websites} websites; ${duplicateAgentNames.length} duplicate agents, all warned`);
    }
    console.log(`crash torture, seed ${seed}:\n  ${report.join('\n  ')}`);
    expect(kills, 'real SIGKILLs delivered mid-apply').toBe(TOTAL_KILLS);
  });
});

interface KillOutcome {
  killed: boolean;
  trigger: string;
  result: CliResult;
}

/**
 * Starts an apply and SIGKILLs it at a random moment: mostly once the emulator has seen a random
 * number of this run's requests (so kills land between, during and after calls), sometimes after a
 * random delay that can fall before the first request.
 */
async function applyAndKill(args: string[], remainingRequests: number): Promise<KillOutcome> {
  const before = (await emulator.stats()).requests;
  const child = spawnCli(['apply', '--auto-approve', ...args], { env: emulator.env });
  const done = collect(child, 60_000);
  let exited = false;
  void done.then(() => (exited = true));
  let trigger: string;
  if (random() < 0.2) {
    const delay = Math.floor(random() * 500);
    trigger = `${delay} ms`;
    await sleep(delay);
  } else {
    const target = 1 + Math.floor(random() * remainingRequests * 0.9);
    trigger = `${target} requests`;
    while (!exited && (await emulator.stats()).requests - before < target) await sleep(2);
  }
  const killed = !exited && child.kill('SIGKILL');
  const result = await done;
  return { killed: killed && result.signal === 'SIGKILL', trigger, result };
}

/** A plan's pending warning names the address (`agent.<key>`); the generator's agent keys map to names by index. */
function warnedAbout(agentName: string, output: string): boolean {
  const index = /assistant (\d+)$/.exec(agentName)?.[1];
  if (!index) return false;
  const address = `agent.agent_${index.padStart(5, '0')}`;
  return output.includes(address);
}
