// P2 apply: 1,000 tool changes against the emulator.
// - `--latency 25` at concurrency 1, 10 and 32; the ideal is N × 25 ms / c.
// - `--rate-limit 600`; the floor is N / rate = 100 s. Its 429 count comes from the request log.
// Each run starts from a reset emulator and no state, so every run sends the same 1,000 PUTs.
// Two times are kept: the whole process (what a user waits for, start-up and plan included) and
// the network phase seen by the emulator (first request in to last response out).
import process from 'node:process';
import { mkdirSync, writeFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { generateManifest } from '../generate.mjs';
import { applyArgs, emulatorEnv } from '../lib/cli.mjs';
import { networkPhaseMs, startEmulatorProcess } from '../lib/emulator.mjs';
import { expectExit, measure } from '../lib/measure.mjs';
import { absoluteRow, notMeasuredRow, ratioRow } from '../lib/result.mjs';

const LATENCY_MS = 25;
const RATE_PER_MINUTE = 600;

export async function benchApply(ctx) {
  const n = ctx.applyTools;
  if (!ctx.commands.has('apply')) {
    return [
      notMeasuredRow({ id: 'P2', scenario: `P2 apply, ${n} tools, --latency 25, c = 1 / 10 / 32`, target: '≤ 1.15× ideal at c = 10 and 32', reason: 'apply not yet landed' }),
      notMeasuredRow({ id: 'P2-rate', scenario: `P2 apply, ${n} tools, --rate-limit 600`, target: '≤ 1.1× floor', reason: 'apply not yet landed' }),
    ];
  }
  const dir = join(ctx.workDir, 'p2');
  mkdirSync(dir, { recursive: true });
  const file = join(dir, 'agents.yaml');
  writeFileSync(file, generateManifest({ count: n, seed: ctx.seed, agentShare: 0, websites: 0 }));
  const rows = [];

  const latent = await startEmulatorProcess(ctx.cli, { latency: LATENCY_MS });
  try {
    for (const concurrency of ctx.applyConcurrency) {
      const runs = concurrency === 1 ? ctx.serialApplyRuns : ctx.runs;
      const total = [];
      const network = [];
      for (let i = 0; i < runs; i++) {
        const { result, requests } = await oneApply(ctx, latent, file, join(dir, `state-c${concurrency}-${i}.json`), concurrency);
        total.push(result.ms);
        network.push(networkPhaseMs(requests));
      }
      const ideal = (n * LATENCY_MS) / concurrency;
      const limit = concurrency === 1 ? null : 1.15;
      const runsNote = concurrency === 1 && runs < 5 ? `${runs} runs (serial apply takes ~${Math.round((n * LATENCY_MS) / 1000)} s each). ` : '';
      rows.push(ratioRow({ id: `P2-c${concurrency}-total`, scenario: `P2 apply, ${n} tools, --latency 25, c = ${concurrency}: whole process`, unit: 'ms', samples: total, baseline: ideal, baselineLabel: `ideal N×25 ms/c`, limit, notes: `${runsNote}Includes Node start-up, reading the manifest and planning.` }));
      rows.push(ratioRow({ id: `P2-c${concurrency}-network`, scenario: `P2 apply, ${n} tools, --latency 25, c = ${concurrency}: network phase`, unit: 'ms', samples: network, baseline: ideal, baselineLabel: `ideal N×25 ms/c`, limit, notes: 'First request received to last response sent, from the emulator log: the executor alone, without start-up and planning.' }));
    }
  } finally {
    await latent.stop();
  }

  if (ctx.skipRateLimited) {
    rows.push(notMeasuredRow({ id: 'P2-rate', scenario: `P2 apply, ${n} tools, --rate-limit 600`, target: '≤ 1.1× floor', reason: 'skipped (--quick)' }));
    return rows;
  }
  const limited = await startEmulatorProcess(ctx.cli, { rateLimit: RATE_PER_MINUTE });
  try {
    const { result, requests, toolsOnServer } = await oneApply(ctx, limited, file, join(dir, 'state-rate.json'), undefined);
    const tooMany = requests.filter((r) => r.status === 429).length;
    const floorMs = (n / RATE_PER_MINUTE) * 60_000;
    const failed = n - toolsOnServer;
    rows.push(ratioRow({ id: 'P2-rate', scenario: `P2 apply, ${n} tools, --rate-limit 600 (default concurrency)`, unit: 'ms', samples: [result.ms], baseline: floorMs, baselineLabel: 'N / rate', limit: 1.1, notes: `1 run (the floor alone is 100 s). ${tooMany} response${tooMany === 1 ? ' was' : 's were'} 429; ${requests.length} requests in all; ${failed} failed resources.` }));
    rows.push(absoluteRow({ id: 'P2-rate-failed', scenario: 'P2 rate-limited: failed resources', unit: 'resources', samples: [failed], target: '0', met: failed === 0, notes: `429 count: ${tooMany}` }));
  } finally {
    await limited.stop();
  }
  return rows;
}

async function oneApply(ctx, emulator, file, state, concurrency) {
  await emulator.reset();
  rmSync(state, { force: true });
  rmSync(`${state}.journal`, { force: true });
  const result = expectExit(await measure(process.execPath, applyArgs(ctx.cli, { file, state, concurrency }), { env: emulatorEnv(emulator) }), 0, `apply c=${concurrency ?? 'default'}`);
  const requests = await emulator.requests();
  // The emulator follows the public reference: the first PUT of a new tool answers 404 and creates go by POST.
  const created = requests.filter((r) => r.path.startsWith('/v3/ai-agents/tools') && (r.method === 'PUT' || r.method === 'POST') && r.status >= 200 && r.status < 300);
  const toolsOnServer = new Set(created.map((r) => r.body?.name ?? r.path)).size;
  if (toolsOnServer < ctx.applyTools) throw new Error(`apply exited 0 but only ${toolsOnServer} of ${ctx.applyTools} tools were stored`);
  return { result, requests, toolsOnServer };
}
