// P2 apply: 1,000 tool changes against the emulator.
// - `--latency 25` at concurrency 1, 10 and 32; the ideal is N × 25 ms / c.
// - `--rate-limit 600`; the floor is N / rate = 100 s. Its 429 count comes from the request log.
// Each run starts from a reset emulator and no state, so every run sends the same 1,000 creates.
// Two times are kept: the whole process (what a user waits for, start-up and plan included) and
// the network phase seen by the emulator (first change request in to last response out).
// Two CPU figures say whose work it is on a shared machine: the client's per call (the apply
// process's user + system CPU less that of a `plan` of the same manifest against the same empty
// server, so start-up, reading and planning cancel out; divided by the change requests sent) and
// the emulator's per request (from its /__emulator/runtime).
import process from 'node:process';
import { mkdirSync, writeFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { generateManifest } from '../generate.mjs';
import { applyArgs, emulatorEnv } from '../lib/cli.mjs';
import { median } from '../lib/measure.mjs';
import { networkPhaseMs, startEmulatorProcess } from '../lib/emulator.mjs';
import { expectExit, measure } from '../lib/measure.mjs';
import { absoluteRow, notMeasuredRow, ratioRow } from '../lib/result.mjs';

const LATENCY_MS = 25;
const RATE_PER_MINUTE = 600;
/** Largest network-phase ratio to the ideal N × 25 ms / c (issue 14); none at c = 1. */
const NETWORK_LIMITS = { 10: 1.05, 32: 1.1 };
const CLIENT_CPU_TARGET_MS = 0.3;

export async function benchApply(ctx) {
  const n = ctx.applyTools;
  if (!ctx.commands.has('apply')) {
    return [
      notMeasuredRow({ id: 'P2', scenario: `P2 apply, ${n} tools, --latency 25, c = 1 / 10 / 32`, target: '≤ 1.05× / 1.10× ideal at c = 10 / 32', reason: 'apply not yet landed' }),
      notMeasuredRow({ id: 'P2-rate', scenario: `P2 apply, ${n} tools, --rate-limit 600`, target: '≤ 1.1× floor', reason: 'apply not yet landed' }),
    ];
  }
  const dir = join(ctx.workDir, 'p2');
  mkdirSync(dir, { recursive: true });
  const file = join(dir, 'agents.yaml');
  writeFileSync(file, generateManifest({ count: n, seed: ctx.seed, agentShare: 0, websites: 0 }));
  const rows = [];

  const latent = await startEmulatorProcess(ctx.cli, { latency: LATENCY_MS });
  const clientCpu = [];
  const emulatorCpu = [];
  const cpuNotes = [];
  try {
    for (const concurrency of ctx.applyConcurrency) {
      const runs = concurrency === 1 ? ctx.serialApplyRuns : ctx.runs;
      const total = [];
      const network = [];
      const perCall = [];
      for (let i = 0; i < runs; i++) {
        const run = await oneApply(ctx, latent, file, join(dir, `state-c${concurrency}-${i}.json`), concurrency);
        total.push(run.result.ms);
        network.push(networkPhaseMs(run.requests, { changesOnly: true }));
        if (run.clientCpuPerCallMs !== null) perCall.push(run.clientCpuPerCallMs);
        emulatorCpu.push(run.emulatorCpuPerRequestMs);
      }
      clientCpu.push(...perCall);
      if (perCall.length > 0) cpuNotes.push(`c = ${concurrency}: ${median(perCall).toFixed(2)} ms`);
      const ideal = (n * LATENCY_MS) / concurrency;
      const limit = NETWORK_LIMITS[concurrency] ?? null;
      const runsNote = concurrency === 1 && runs < 5 ? `${runs} runs (serial apply takes ~${Math.round((n * LATENCY_MS) / 1000)} s each). ` : '';
      rows.push(
        ratioRow({
          id: `P2-c${concurrency}-total`,
          scenario: `P2 apply, ${n} tools, --latency 25, c = ${concurrency}: whole process`,
          unit: 'ms',
          samples: total,
          baseline: ideal,
          baselineLabel: `ideal N×25 ms/c`,
          limit: null,
          notes: `${runsNote}Informational: includes Node start-up, reading the manifest and planning (start-up is its own lever).`,
        }),
      );
      rows.push(
        ratioRow({
          id: `P2-c${concurrency}-network`,
          scenario: `P2 apply, ${n} tools, --latency 25, c = ${concurrency}: network phase`,
          unit: 'ms',
          samples: network,
          baseline: ideal,
          baselineLabel: `ideal N×25 ms/c`,
          limit,
          notes: 'First change request received to last response sent, from the emulator log: the executor alone, without start-up, the refresh GETs and planning.',
        }),
      );
    }
  } finally {
    await latent.stop();
  }
  rows.push(
    clientCpu.length === 0
      ? notMeasuredRow({
          id: 'P2-client-cpu',
          scenario: `P2 apply, ${n} tools: client CPU per call`,
          target: `≤ ${CLIENT_CPU_TARGET_MS} ms`,
          reason: "needs GNU time (/usr/bin/time) for the child processes' CPU",
        })
      : absoluteRow({
          id: 'P2-client-cpu',
          scenario: `P2 apply, ${n} tools: client CPU per call`,
          unit: 'ms/call',
          samples: clientCpu,
          target: `≤ ${CLIENT_CPU_TARGET_MS} ms`,
          met: median(clientCpu) <= CLIENT_CPU_TARGET_MS,
          notes: `(apply CPU − CPU of a plan of the same manifest) / change requests sent, user + system, every run at every concurrency; median by concurrency: ${cpuNotes.join(', ')}.`,
        }),
  );
  rows.push(
    absoluteRow({
      id: 'P2-emulator-cpu',
      scenario: `P2 apply, ${n} tools: emulator CPU per request`,
      unit: 'ms/request',
      samples: emulatorCpu,
      target: '—',
      met: null,
      notes: 'Informational: the emulator shares the cores with the client; its CPU (process.cpuUsage via /__emulator/runtime) during each apply, per request it answered.',
    }),
  );

  if (ctx.skipRateLimited) {
    rows.push(notMeasuredRow({ id: 'P2-rate', scenario: `P2 apply, ${n} tools, --rate-limit 600`, target: '≤ 1.1× floor', reason: 'skipped (--quick)' }));
    return rows;
  }
  const limited = await startEmulatorProcess(ctx.cli, { rateLimit: RATE_PER_MINUTE });
  try {
    const { result, requests, toolsOnServer } = await oneApply(ctx, limited, file, join(dir, 'state-rate.json'), undefined, { cpuBaseline: false });
    const tooMany = requests.filter((r) => r.status === 429).length;
    const floorMs = (n / RATE_PER_MINUTE) * 60_000;
    const failed = n - toolsOnServer;
    rows.push(
      ratioRow({
        id: 'P2-rate',
        scenario: `P2 apply, ${n} tools, --rate-limit 600 (default concurrency)`,
        unit: 'ms',
        samples: [result.ms],
        baseline: floorMs,
        baselineLabel: 'N / rate',
        limit: 1.1,
        notes: `1 run (the floor alone is 100 s). ${tooMany} response${tooMany === 1 ? ' was' : 's were'} 429; ${requests.length} requests in all; ${failed} failed resources.`,
      }),
    );
    rows.push(
      absoluteRow({ id: 'P2-rate-failed', scenario: 'P2 rate-limited: failed resources', unit: 'resources', samples: [failed], target: '0', met: failed === 0, notes: `429 count: ${tooMany}` }),
    );
  } finally {
    await limited.stop();
  }
  return rows;
}

async function oneApply(ctx, emulator, file, state, concurrency, { cpuBaseline = true } = {}) {
  await emulator.reset();
  rmSync(state, { force: true });
  rmSync(`${state}.journal`, { force: true });
  const env = emulatorEnv(emulator);
  // The same start-up, manifest, refresh and plan as the apply, against the same empty server.
  const plan = cpuBaseline ? expectExit(await measure(process.execPath, [ctx.cli, 'plan', '-f', file, '--state', state], { env }), 0, 'plan (CPU baseline)') : { cpuMs: null };
  if (cpuBaseline) await emulator.reset();
  const emulatorBefore = await emulator.cpuMs();
  const result = expectExit(await measure(process.execPath, applyArgs(ctx.cli, { file, state, concurrency }), { env }), 0, `apply c=${concurrency ?? 'default'}`);
  const emulatorCpuMs = (await emulator.cpuMs()) - emulatorBefore;
  const requests = await emulator.requests();
  const changes = requests.filter((r) => r.method !== 'GET').length;
  const clientCpuPerCallMs = result.cpuMs !== null && plan.cpuMs !== null && changes > 0 ? (result.cpuMs - plan.cpuMs) / changes : null;
  // The emulator follows the public reference: the first PUT of a new tool answers 404 and creates go by POST.
  const created = requests.filter((r) => r.path.startsWith('/v3/ai-agents/tools') && (r.method === 'PUT' || r.method === 'POST') && r.status >= 200 && r.status < 300);
  const toolsOnServer = new Set(created.map((r) => r.body?.name ?? r.path)).size;
  if (toolsOnServer < ctx.applyTools) throw new Error(`apply exited 0 but only ${toolsOnServer} of ${ctx.applyTools} tools were stored`);
  return { result, requests, toolsOnServer, clientCpuPerCallMs, emulatorCpuPerRequestMs: emulatorCpuMs / Math.max(1, requests.length) };
}
