#!/usr/bin/env node
// A/B of built CLIs on the apply benchmarks, interleaved in one run: how issue 21 decided which
// machinery to keep (BENCHMARKS.md, "Machinery kept or removed"). Build each variant, copy its
// dist/cli somewhere, and name them; the first is the reference every ratio is taken against.
//
//   node bench/ab.mjs --builds base=/tmp/ab/base/cli/main.cjs,nowindow=/tmp/ab/nowindow/cli/main.cjs \
//                     [--scenario p2|p6|rate] [--concurrency 10,32] [--runs 5] [--tools 1000]
//
// p2: the P2 apply (1,000 tool creates, emulator --latency 25) at each concurrency, file state.
// p6: the same at the default concurrency with the state in a throwaway PostgreSQL (fsync on).
// rate: the P2 rate-limited apply (--rate-limit 600 per minute; 100 s a run at 1,000 tools).
// Reports, per build, the medians of the whole process, the network phase (from the emulator's
// log) and the client's CPU (GNU time), and their ratio to the first build's.
import process from 'node:process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateManifest } from './generate.mjs';
import { applyArgs, emulatorEnv } from './lib/cli.mjs';
import { networkPhaseMs, startEmulatorProcess } from './lib/emulator.mjs';
import { expectExit, measure, median } from './lib/measure.mjs';

const argv = process.argv.slice(2);
const option = (name, fallback) => {
  const at = argv.indexOf(name);
  return at >= 0 ? argv[at + 1] : fallback;
};
const builds = option('--builds', '')
  .split(',')
  .filter(Boolean)
  .map((pair) => {
    const [name, cli] = pair.split('=');
    return { name, cli };
  });
if (builds.length < 2) throw new Error('--builds needs at least two name=path/to/main.cjs pairs');
const scenario = option('--scenario', 'p2');
const runs = Number(option('--runs', '5'));
const tools = Number(option('--tools', '1000'));
const concurrencies = scenario === 'p2' ? option('--concurrency', '10,32').split(',').map(Number) : [undefined];

const dir = mkdtempSync(join(tmpdir(), 'agentsync-ab-'));
const file = join(dir, 'agents.yaml');
writeFileSync(file, generateManifest({ count: tools, seed: 42, agentShare: 0, websites: 0 }));

let postgres;
if (scenario === 'p6') {
  const { startPostgres } = await import('../test/support/postgres.mjs');
  postgres = await startPostgres({ durable: true });
}
const emulator = await startEmulatorProcess(builds[0].cli, scenario === 'rate' ? { rateLimit: 600 } : { latency: 25 });
try {
  for (const concurrency of concurrencies) {
    const samples = Object.fromEntries(builds.map((b) => [b.name, { whole: [], network: [], cpu: [], throttled: [] }]));
    for (let i = 0; i < runs; i++) {
      // Rotating the order spreads drifting machine load over every build alike.
      for (const build of rotate(builds, i)) {
        await emulator.reset();
        let state = join(dir, `state-${build.name}-${i}.json`);
        if (postgres) {
          state = postgres.url();
          await postgres.admin("DELETE FROM agentsync_journal WHERE key = 'bench'; DELETE FROM agentsync_states WHERE key = 'bench'", postgres.database).catch(() => undefined);
        }
        const run = expectExit(await measure(process.execPath, applyArgs(build.cli, { file, state, concurrency }), { env: emulatorEnv(emulator) }), 0, `apply (${build.name})`);
        const requests = await emulator.requests();
        const s = samples[build.name];
        s.whole.push(run.ms);
        s.network.push(networkPhaseMs(requests, { changesOnly: true }));
        if (run.cpuMs !== null) s.cpu.push(run.cpuMs);
        s.throttled.push(requests.filter((r) => r.status === 429).length);
        if (scenario === 'rate') process.stderr.write(`  ${build.name} run ${i + 1}: ${Math.round(run.ms)} ms, ${s.throttled.at(-1)} answers 429\n`);
      }
    }
    const ref = samples[builds[0].name];
    const label = concurrency === undefined ? scenario : `${scenario} c=${concurrency}`;
    for (const build of builds) {
      const s = samples[build.name];
      const cell = (key) => `${Math.round(median(s[key]))} ms (${(median(s[key]) / median(ref[key])).toFixed(3)}×)`;
      const cpu = s.cpu.length > 0 ? `, client CPU ${cell('cpu')}` : '';
      process.stdout.write(`${label} ${build.name}: whole ${cell('whole')}, network ${cell('network')}${cpu}, 429s ${median(s.throttled)} (${runs} runs)\n`);
    }
  }
} finally {
  await emulator.stop();
  await postgres?.stop();
  rmSync(dir, { recursive: true, force: true });
}

function rotate(list, by) {
  const at = by % list.length;
  return [...list.slice(at), ...list.slice(0, at)];
}
