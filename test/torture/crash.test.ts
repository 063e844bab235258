// SIGKILL at random moments (crash torture), sent for real to the built CLI (a child process)
// against the in-process emulator over real HTTP: 20 kills of a 300-resource apply, each followed
// by a rerun. Two lanes run side by side, each with its own emulator and state, ten kills each. A
// lane works in cycles from an empty server and no state: the first apply is killed, the rerun
// that resumes it is killed too, and a last rerun must finish. After every kill the state and
// journal must still read; after every cycle the server must equal the manifest with no duplicate
// agent that a plan did not warn about (apply prints its plan, warnings included, before it runs).
// Then SIGKILLs in the middle of a pruning apply's DELETEs. Kill moments come from a seeded
// generator; the seed is printed, and TORTURE_SEED=<n> replays a run.
import { mkdirSync, writeFileSync } from 'node:fs';
import { setTimeout as delay } from 'node:timers/promises';
import { parse, stringify } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateManifest, resourceCounts, seededRandom } from '../../bench/generate.mjs';
import { assertBuilt, runCli, startCli, type CliResult } from '../support/cli.js';
import { startTestEmulator, type TestEmulator } from '../support/emulator.js';
import { waitFor } from '../support/wait.js';
import { makeWorkspace, serverAgents, type Workspace } from './helpers.js';
import { compareServerWithManifest } from './server-matches.js';

beforeAll(assertBuilt);

const RESOURCES = 300;
const LANES = 2;
const KILLS_PER_LANE = 10;
const KILLS_PER_CYCLE = 2;
/** Cycles end early when an apply finishes before its kill; this bounds the extra cycles. */
const MAX_CYCLES_PER_LANE = 10;
const LATENCY_MS = 10;
const seed = Number(process.env.TORTURE_SEED ?? Math.floor(Math.random() * 1_000_000));

let crashWs: Workspace;
let crashManifestPath: string;
let crashManifestYaml: string;

beforeAll(() => {
  crashWs = makeWorkspace();
  crashManifestPath = crashWs.path('agents.yaml');
  crashManifestYaml = generateManifest({ count: RESOURCES, seed: 300 });
  writeFileSync(crashManifestPath, crashManifestYaml);
});

afterAll(() => crashWs?.remove());

interface LaneResult {
  kills: number;
  agentPostKills: number;
  pendingWarnings: number;
  report: string[];
}

describe(`crash (seed ${seed})`, () => {
  it('survives 20 SIGKILLs mid-apply: state stays readable, reruns converge, no unwarned duplicate agents', async () => {
    const lanes = await Promise.all(Array.from({ length: LANES }, (_, lane) => runLane(lane)));
    const kills = lanes.reduce((n, l) => n + l.kills, 0);
    const agentPostKills = lanes.reduce((n, l) => n + l.agentPostKills, 0);
    const pendingWarnings = lanes.reduce((n, l) => n + l.pendingWarnings, 0);
    console.log(
      `crash torture, seed ${seed}: ${kills} kills, ${agentPostKills} with an agent POST in flight, ${pendingWarnings} pending-create warnings printed\n  ` +
        lanes.flatMap((l) => l.report).join('\n  '),
    );
    expect(kills, 'real SIGKILLs delivered mid-apply').toBe(LANES * KILLS_PER_LANE);
    // 40% of kills aim at an in-flight agent POST; none in 20 would mean the risky path went untested.
    expect(agentPostKills, 'kills while an agent POST was in flight').toBeGreaterThan(0);
  });
});

async function runLane(lane: number): Promise<LaneResult> {
  const emulator = await startTestEmulator({ latencyMs: LATENCY_MS });
  const random = seededRandom(seed + lane);
  const counts = resourceCounts(RESOURCES);
  const result: LaneResult = { kills: 0, agentPostKills: 0, pendingWarnings: 0, report: [] };
  try {
    for (let cycle = 0; result.kills < KILLS_PER_LANE && cycle < MAX_CYCLES_PER_LANE; cycle++) {
      const name = `lane ${lane} cycle ${cycle}`;
      await emulator.reset();
      mkdirSync(crashWs.path(`lane-${lane}-cycle-${cycle}`));
      const args = ['-f', crashManifestPath, '--state', crashWs.path(`lane-${lane}-cycle-${cycle}`, 'state.json')];
      const output: string[] = [];
      for (let k = 0; k < KILLS_PER_CYCLE && result.kills < KILLS_PER_LANE; k++) {
        const done = (await emulator.requests()).length;
        const outcome = await applyAndKill(emulator, random, args, Math.max(1, RESOURCES - done), counts.agents);
        output.push(outcome.result.stderr, outcome.result.stdout);
        progress(`${name} attempt ${k}: ${outcome.killed ? `killed after ${outcome.trigger}` : 'finished'}`);
        result.report.push(`${name} attempt ${k}: ${outcome.killed ? `SIGKILL after ${outcome.trigger}` : `finished before the kill (exit ${outcome.result.code})`}`);
        const list = await runCli(['state', 'list', '--json', ...args], { env: emulator.env });
        expect(list.code, `state list after attempt ${k} of ${name}: ${list.stderr}`).toBe(0);
        expect(() => JSON.parse(list.stdout) as unknown).not.toThrow();
        if (!outcome.killed) {
          expect(outcome.result.code, `an apply that was not killed must succeed: ${outcome.result.stderr}`).toBe(0);
          break;
        }
        result.kills++;
        if (outcome.trigger.startsWith('agent POST')) result.agentPostKills++;
      }
      const rerun = await runCli(['apply', '--auto-approve', ...args], { env: emulator.env });
      output.push(rerun.stderr, rerun.stdout);
      expect(rerun.code, `final rerun of ${name}: ${rerun.stderr}\n${rerun.stdout.slice(-2000)}`).toBe(0);
      const settled = await runCli(['plan', '--detailed-exitcode', ...args], { env: emulator.env });
      expect(settled.code, `plan after the rerun of ${name} should have no changes:\n${settled.stdout.slice(0, 2000)}`).toBe(0);

      const { problems, duplicateAgentNames } = await compareServerWithManifest(emulator, crashManifestYaml);
      expect(problems, `server differs from the manifest after ${name}`).toEqual([]);
      const text = output.join('\n');
      result.pendingWarnings += text.split('\n').filter((l) => l.includes('a duplicate may exist')).length;
      const unwarned = duplicateAgentNames.filter((agentName) => !warnedAbout(agentName, text));
      expect(unwarned, `duplicate agents no plan warned about after ${name}`).toEqual([]);
      progress(`${name} converged`);
      result.report.push(`${name}: converged; ${counts.tools} tools, ${counts.agents} agents, ${counts.websites} websites; ${duplicateAgentNames.length} duplicate agents, all warned`);
    }
  } finally {
    await emulator.close();
  }
  return result;
}

const PRUNE_RESOURCES = 200;
const PRUNE_KILLS = 6;

describe(`crash: a pruning apply (seed ${seed})`, () => {
  it('survives SIGKILLs mid-DELETE: reruns finish the deletes, agents before tools in every run, nothing else deleted', async () => {
    const emulator = await startTestEmulator({ latencyMs: LATENCY_MS });
    const random = seededRandom(seed + 1000);
    try {
      const full = generateManifest({ count: PRUNE_RESOURCES, seed: 301 });
      const { yaml: pruned, removedTools, removedAgentNames } = pruneManifest(full);
      writeFileSync(crashWs.path('prune-full.yaml'), full);
      writeFileSync(crashWs.path('prune-kept.yaml'), pruned);
      const state = ['--state', crashWs.path('prune-state.json')];
      const setup = await runCli(['apply', '--auto-approve', '--concurrency', '16', '-f', crashWs.path('prune-full.yaml'), ...state], { env: emulator.env });
      expect(setup.code, setup.stderr).toBe(0);
      const uidByName = new Map((await serverAgents(emulator)).map((a) => [a.name, a.uid]));
      const removedUids = new Set(removedAgentNames.map((name) => uidByName.get(name)));
      await emulator.clearRequests();

      // The pruned manifest drops most of what the state manages: a mass deletion, allowed in so many words.
      const args = ['apply', '--prune', '--auto-approve', '--allow-mass-delete', '-f', crashWs.path('prune-kept.yaml'), ...state];
      const runs: { from: number; to: number }[] = [];
      const report: string[] = [];
      const outputs: string[] = [];
      let kills = 0;
      for (let attempt = 0; kills < PRUNE_KILLS && attempt < PRUNE_KILLS * 3; attempt++) {
        const from = (await emulator.requests()).length;
        const { child, done } = startCli(args, { env: emulator.env, timeoutMs: 60_000 });
        let exited = false;
        void done.then(() => (exited = true));
        // Aim at a moment with a DELETE in flight: after a random number of this run's DELETEs arrived.
        const target = 1 + Math.floor(random() * 12);
        await waitFor('the trigger', async () => (await emulator.requests()).slice(from).filter((r) => r.method === 'DELETE').length >= target, {
          unless: () => exited,
          timeoutMs: 60_000,
          intervalMs: 2,
        });
        const killed = !exited && child.kill('SIGKILL');
        const result = await done;
        outputs.push(result.stdout);
        runs.push({ from, to: (await emulator.requests()).length });
        if (!(killed && result.signal === 'SIGKILL')) {
          expect(result.code, `an unkilled pruning apply must succeed: ${result.stderr}`).toBe(0);
          report.push(`attempt ${attempt}: finished before DELETE ${target}`);
          break;
        }
        kills++;
        report.push(`attempt ${attempt}: SIGKILL after DELETE ${target} arrived`);
        const list = await runCli(['state', 'list', '--json', '-f', crashWs.path('prune-kept.yaml'), ...state], { env: emulator.env });
        expect(list.code, `state list after kill ${kills}: ${list.stderr}`).toBe(0);
      }
      const from = (await emulator.requests()).length;
      const rerun = await runCli(args, { env: emulator.env });
      expect(rerun.code, `final rerun: ${rerun.stderr}\n${rerun.stdout.slice(-2000)}`).toBe(0);
      outputs.push(rerun.stdout);
      runs.push({ from, to: (await emulator.requests()).length });
      const settled = await runCli(['plan', '--prune', '--detailed-exitcode', '-f', crashWs.path('prune-kept.yaml'), ...state], { env: emulator.env });
      expect(settled.code, `plan after the rerun should have no changes:\n${settled.stdout.slice(0, 2000)}`).toBe(0);

      const { problems } = await compareServerWithManifest(emulator, pruned);
      expect(problems, 'server differs from the pruned manifest').toEqual([]);
      const log = await emulator.requests();
      const deletes = log.filter((r) => r.method === 'DELETE');
      // Only what left the manifest was ever deleted (search_web and every kept resource never were).
      for (const entry of deletes) {
        const [, kind, id] = /^\/v3\/ai-agents\/(tools|agents)\/(.+)$/.exec(entry.path) ?? [];
        if (kind === 'tools') expect(removedTools.has(decodeURIComponent(id ?? '')), `deleted tool ${id}`).toBe(true);
        else expect(removedUids.has(id), `deleted agent ${id}`).toBe(true);
      }
      // Every removed resource got its DELETE, and within each run no agent DELETE followed a tool DELETE.
      expect(new Set(deletes.filter((r) => r.path.includes('/tools/')).map((r) => r.path)).size).toBe(removedTools.size);
      expect(new Set(deletes.filter((r) => r.path.includes('/agents/')).map((r) => r.path)).size).toBe(removedUids.size);
      for (const { from: a, to: b } of runs) {
        const slice = log.slice(a, b).filter((r) => r.method === 'DELETE');
        const firstTool = slice.findIndex((r) => r.path.includes('/tools/'));
        const lastAgent = slice.map((r) => r.path.includes('/agents/')).lastIndexOf(true);
        if (firstTool >= 0 && lastAgent >= 0) expect(lastAgent, 'an agent DELETE after a tool DELETE in one run').toBeLessThan(firstTool);
      }
      // A DELETE whose answer a kill lost is either seen done by the next run's refresh (dropped from
      // the state without a call) or, if the server never got it, sent again (answered 200 or 404).
      const resent = deletes.length - new Set(deletes.map((r) => r.path)).size;
      const seenGone = outputs
        .join('\n')
        .split('\n')
        .filter((line) => line.includes('already deleted on the server; only dropped from the state')).length;
      console.log(
        `crash torture (prune), seed ${seed}: ${kills} kills; lost DELETE answers: ${seenGone} found done by the next refresh, ${resent} sent again; ` +
          `${removedTools.size} tools and ${removedUids.size} agents deleted\n  ${report.join('\n  ')}`,
      );
      expect(kills, 'real SIGKILLs delivered mid-prune').toBeGreaterThan(0);
      expect(seenGone + resent, 'DELETEs whose answer a kill lost, recovered by a rerun').toBeGreaterThan(0);
    } finally {
      await emulator.close();
    }
  });
});

/** Every other agent leaves the manifest, with every tool that no remaining agent names. */
function pruneManifest(yaml: string): { yaml: string; removedTools: Set<string>; removedAgentNames: string[] } {
  const doc = parse(yaml) as { agents: Record<string, { name: string; actions?: string[] }>; tools: Record<string, unknown> };
  const removedAgentNames: string[] = [];
  Object.keys(doc.agents).forEach((key, i) => {
    if (i % 2 === 1) return;
    removedAgentNames.push((doc.agents[key] as { name: string }).name);
    delete doc.agents[key];
  });
  const used = new Set(Object.values(doc.agents).flatMap((a) => a.actions ?? []));
  const removedTools = new Set(Object.keys(doc.tools).filter((name) => !used.has(name)));
  for (const name of removedTools) delete doc.tools[name];
  return { yaml: stringify(doc), removedTools, removedAgentNames };
}

const started = Date.now();
/** Live progress on stderr, so a slow machine shows where the time goes. */
function progress(line: string): void {
  process.stderr.write(`[crash ${((Date.now() - started) / 1000).toFixed(1)} s] ${line}\n`);
}

interface KillOutcome {
  killed: boolean;
  trigger: string;
  result: CliResult;
}

/**
 * Starts an apply and SIGKILLs it at a random moment, one of three kinds:
 * - after a random delay, which can fall before the first request;
 * - once the emulator has seen a random number of this run's requests (between, during or after calls);
 * - once a random one of the agent POSTs has arrived, while it is still in flight: the moment a
 *   create's result can be lost, so the rerun's plan must warn about a possible duplicate.
 */
async function applyAndKill(emulator: TestEmulator, random: () => number, args: string[], remainingRequests: number, agents: number): Promise<KillOutcome> {
  const before = await emulator.requests();
  const seenBefore = before.length;
  const agentPostsBefore = before.filter(isAgentPost).length;
  const { child, done } = startCli(['apply', '--auto-approve', ...args], { env: emulator.env, timeoutMs: 60_000 });
  let exited = false;
  void done.then(() => (exited = true));
  let trigger: string;
  const kind = random();
  if (kind < 0.15) {
    const pause = Math.floor(random() * 500);
    trigger = `${pause} ms`;
    // A kill at a random moment is the subject: this wait is the randomness, not a guess at timing.
    await delay(pause);
  } else if (kind < 0.55 && agentPostsBefore < agents) {
    const target = 1 + Math.floor(random() * (agents - agentPostsBefore));
    trigger = `agent POST ${target} arrived`;
    await waitFor('the trigger', async () => (await emulator.requests()).filter(isAgentPost).length - agentPostsBefore >= target, { unless: () => exited, timeoutMs: 60_000, intervalMs: 2 });
  } else {
    const target = 1 + Math.floor(random() * remainingRequests * 0.9);
    trigger = `${target} requests`;
    await waitFor('the trigger', async () => (await emulator.requests()).length - seenBefore >= target, { unless: () => exited, timeoutMs: 60_000, intervalMs: 2 });
  }
  const killed = !exited && child.kill('SIGKILL');
  const result = await done;
  return { killed: killed && result.signal === 'SIGKILL', trigger, result };
}

function isAgentPost(entry: { method: string; path: string }): boolean {
  return entry.method === 'POST' && entry.path === '/v3/ai-agents/agents';
}

/**
 * Whether a plan (plan itself, or the plan apply prints before it runs) warned that this agent may
 * be duplicated. The generator's agent keys map to names by index.
 */
function warnedAbout(agentName: string, output: string): boolean {
  const index = /assistant (\d+)$/.exec(agentName)?.[1];
  if (!index) return false;
  const address = `agent.agent_${index.padStart(5, '0')}`;
  return output.split('\n').some((line) => line.includes(address) && line.includes('a duplicate may exist'));
}
