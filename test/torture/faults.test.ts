// Faults: random 503s and dropped connections, a 429 storm, and a latency spike past the client's
// 30 s response timeout. Apply must converge (reruns allowed where the contract says a POST may not
// be retried), the server must end up equal to the manifest, and the attempts per resource, read
// from the emulator's request log, are printed.
import { mkdirSync, writeFileSync } from 'node:fs';
import { setTimeout as delay } from 'node:timers/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateManifest } from '../../bench/generate.mjs';
import type { RequestLogEntry } from '../../src/emulator/index.js';
import { assertBuilt, runCli } from '../support/cli.js';
import { startTestEmulator, type TestEmulator } from '../support/emulator.js';
import { waitFor } from '../support/wait.js';
import { makeWorkspace, type Workspace } from './helpers.js';
import { compareServerWithManifest } from './server-matches.js';

/** Given to apply as `--timeout`; the spike below lasts longer than this. */
const CLIENT_TIMEOUT_MS = 3_000;
const STORM_MS = 4_000;

let ws: Workspace;

beforeAll(() => {
  assertBuilt();
  ws = makeWorkspace();
});

afterAll(() => ws?.remove());

/** Each test has its own emulator, so the three run concurrently and their request logs stay apart. */
async function withEmulator(body: (emulator: TestEmulator) => Promise<void>): Promise<void> {
  const emulator = await startTestEmulator();
  try {
    await body(emulator);
  } finally {
    await emulator.close();
  }
}

function project(name: string, manifestYaml: string): { manifest: string; args: string[] } {
  const dir = ws.path(name);
  mkdirSync(dir);
  const manifest = join(dir, 'agents.yaml');
  writeFileSync(manifest, manifestYaml);
  return { manifest, args: ['-f', manifest, '--state', join(dir, 'state.json')] };
}

/** Which resource a logged request was for: the tool path, the agent's name, or the website path. */
function resourceOf(entry: RequestLogEntry): string | null {
  // The refresh's list calls are retried like any idempotent call, and count as attempts of their own.
  if (entry.method === 'GET' && entry.path.startsWith('/v3/ai-agents/')) return `list ${entry.path}`;
  // A PUT answered 404 is how the client learns that this server creates tools with POST: a probe, not an attempt.
  if (entry.method === 'PUT' && entry.path.startsWith('/v3/ai-agents/tools/') && entry.status !== 404) return `tool ${decodeURIComponent(entry.path.slice(20))}`;
  if (entry.method === 'POST' && entry.path === '/v3/ai-agents/tools') {
    const name = (entry.body as { name?: unknown } | null)?.name;
    return `tool ${typeof name === 'string' ? name : '(body not logged)'}`;
  }
  if (entry.method === 'POST' && entry.path === '/v3/ai-agents/agents') {
    const name = (entry.body as { name?: unknown } | null)?.name;
    return `agent ${typeof name === 'string' ? name : '(body not logged)'}`;
  }
  if (entry.method === 'PATCH' && entry.path.startsWith('/v3/ai-agents/agents/')) return `agent ${entry.path.slice(21)}`;
  if (entry.method === 'POST' && entry.path.includes('/discovered-urls/process')) return `website ${entry.path.split('/')[6] ?? ''}`;
  return null;
}

/** Attempts per resource as a histogram line, e.g. "1 attempt: 250, 2 attempts: 40, 3 attempts: 8". */
function attemptsReport(requests: RequestLogEntry[]): { histogram: string; max: number; byStatus: string } {
  const perResource = new Map<string, number>();
  const statuses = new Map<string, number>();
  for (const entry of requests) {
    const resource = resourceOf(entry);
    if (resource === null) continue;
    perResource.set(resource, (perResource.get(resource) ?? 0) + 1);
    const status = entry.fault === 'drop' ? 'dropped' : String(entry.status);
    statuses.set(status, (statuses.get(status) ?? 0) + 1);
  }
  const histogram = new Map<number, number>();
  for (const n of perResource.values()) histogram.set(n, (histogram.get(n) ?? 0) + 1);
  return {
    histogram: [...histogram]
      .sort(([a], [b]) => a - b)
      .map(([n, count]) => `${n} attempt${n === 1 ? '' : 's'}: ${count}`)
      .join(', '),
    max: Math.max(0, ...perResource.values()),
    byStatus: [...statuses]
      .sort()
      .map(([s, n]) => `${s}×${n}`)
      .join(' '),
  };
}

/** Applies until it succeeds; a run may fail only with resources left to retry, never loop forever. */
async function applyUntilConverged(emulator: TestEmulator, args: string[], maxRuns: number): Promise<{ runs: number; outputs: string[] }> {
  const outputs: string[] = [];
  for (let run = 1; run <= maxRuns; run++) {
    const result = await runCli(['apply', '--auto-approve', ...args], { env: emulator.env, timeoutMs: 120_000 });
    outputs.push(result.stderr, result.stdout);
    expect(result.stderr).not.toMatch(/\n\s+at /);
    if (result.code === 0) return { runs: run, outputs };
    expect(result.code, result.stderr).toBe(1);
  }
  throw new Error(`apply did not converge in ${maxRuns} runs:\n${outputs.slice(-2).join('\n')}`);
}

describe.concurrent('faults', () => {
  it('converges under a 0.2 fail rate (503s and dropped connections)', async ({ expect }) =>
    withEmulator(async (emulator) => {
      const yaml = generateManifest({ count: 150, seed: 21 });
      const { args } = project('fail-rate', yaml);
      await emulator.reset();
      await emulator.configure({ failRate: 0.2, failMode: 'mixed' });
      let converged;
      try {
        converged = await applyUntilConverged(emulator, args, 8);
      } finally {
        await emulator.configure({ failRate: 0 });
      }
      const report = attemptsReport(await emulator.requests());
      console.log(`fail-rate 0.2: converged in ${converged.runs} apply run(s); attempts per resource: ${report.histogram}; responses: ${report.byStatus}`);
      const settled = await runCli(['plan', '--detailed-exitcode', ...args], { env: emulator.env });
      expect(settled.code, settled.stdout).toBe(0);
      const { problems, duplicateAgentNames } = await compareServerWithManifest(emulator, yaml);
      expect(problems).toEqual([]);
      // A dropped POST never reached the emulator's handler, so any duplicate here would be a real bug.
      expect(duplicateAgentNames).toEqual([]);
    }));

  it('rides out a 429 storm in one run', async ({ expect }) =>
    withEmulator(async (emulator) => {
      const yaml = generateManifest({ count: 60, seed: 22 });
      const { args } = project('storm', yaml);
      await emulator.reset();
      // The storm: once the apply is under way, the limit drops to 60 a minute (one token a second)
      // for 4 s while 16 requests are in flight, then lifts. Most of those requests get a 429.
      const done = runCli(['apply', '--auto-approve', '--concurrency', '16', ...args], { env: emulator.env, timeoutMs: 120_000 });
      try {
        // After the refresh's two list calls, once the first writes are in flight.
        await waitFor('four requests', async () => (await emulator.stats()).requests >= 4, { intervalMs: 2, timeoutMs: 60_000 });
        await emulator.configure({ rateLimitPerMinute: 60 });
        // The storm's length is the subject: the client must ride out STORM_MS of 429s.
        await delay(STORM_MS);
      } finally {
        await emulator.configure({ rateLimitPerMinute: null });
      }
      const result = await done;
      const requests = await emulator.requests();
      const report = attemptsReport(requests);
      const tooMany = requests.filter((r) => r.status === 429).length;
      console.log(`429 storm: exit ${result.code}; ${tooMany} responses were 429; attempts per resource: ${report.histogram}`);
      expect(result.code, result.stderr).toBe(0);
      // The client pauses every call at the first 429, so only what was already in flight gets one.
      expect(tooMany, 'the storm must really happen').toBeGreaterThanOrEqual(3);
      const { problems, duplicateAgentNames } = await compareServerWithManifest(emulator, yaml);
      expect(problems).toEqual([]);
      expect(duplicateAgentNames).toEqual([]);
    }));

  it(
    `converges after a latency spike past the client's ${CLIENT_TIMEOUT_MS / 1000} s timeout`,
    async ({ expect }) =>
      withEmulator(async (emulator) => {
        // Tools and websites only: a PUT that timed out is retried, while an agent POST that timed out
        // is (rightly) left pending for a warned rerun, which the crash suite covers.
        const yaml = generateManifest({ count: 30, seed: 23, agentShare: 0 });
        const { args } = project('spike', yaml);
        await emulator.reset();
        await emulator.configure({ latencyMs: CLIENT_TIMEOUT_MS + 2_000 });
        const done = runCli(['apply', '--auto-approve', '--concurrency', '4', '--timeout', String(CLIENT_TIMEOUT_MS / 1000), ...args], { env: emulator.env, timeoutMs: 150_000 });
        try {
          // The first four requests hang past the timeout; everything after them is fast again.
          await waitFor('four requests', async () => (await emulator.stats()).requests >= 4, { timeoutMs: 60_000 });
        } finally {
          await emulator.configure({ latencyMs: 0 });
        }
        const first = await done;
        const converged = first.code === 0 ? { runs: 1 } : await applyUntilConverged(emulator, args, 3);
        const report = attemptsReport(await emulator.requests());
        console.log(`latency spike: first run exit ${first.code}, converged after ${converged.runs} run(s); attempts per resource: ${report.histogram}`);
        expect(report.max, 'the spiked requests were retried').toBeGreaterThanOrEqual(2);
        const { problems } = await compareServerWithManifest(emulator, yaml);
        expect(problems).toEqual([]);
      }),
    170_000,
  );
});
