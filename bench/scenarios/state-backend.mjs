// P6 state backend: the same 1,000-tool apply (`--latency 25`, default concurrency) with the state
// in PostgreSQL and in a file, in the same run, interleaved. The server is a throwaway one started
// with initdb/pg_ctl (test/support/postgres.mjs) with fsync on, so a commit costs what it would in
// production on this disk. The target: PostgreSQL state costs at most 1.15× the file's time.
import process from 'node:process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startPostgres } from '../../test/support/postgres.mjs';
import { generateManifest } from '../generate.mjs';
import { applyArgs, emulatorEnv } from '../lib/cli.mjs';
import { startEmulatorProcess } from '../lib/emulator.mjs';
import { expectExit, measure, median } from '../lib/measure.mjs';
import { notMeasuredRow, ratioRow } from '../lib/result.mjs';

const LATENCY_MS = 25;
const ID = 'P6';
const TARGET = '≤ 1.15× file state';

export async function benchStateBackend(ctx) {
  const n = ctx.applyTools;
  const scenario = `P6 apply, ${n} tools, --latency 25: PostgreSQL state vs file state`;
  let server;
  try {
    server = await startPostgres({ durable: true });
  } catch (err) {
    return [notMeasuredRow({ id: ID, scenario, target: TARGET, reason: `no PostgreSQL server could be started (${String(err.message).split('\n')[0]})` })];
  }
  const dir = join(ctx.workDir, 'p6');
  mkdirSync(dir, { recursive: true });
  const file = join(dir, 'agents.yaml');
  writeFileSync(file, generateManifest({ count: n, seed: ctx.seed, agentShare: 0, websites: 0 }));
  const url = server.url();
  const emulator = await startEmulatorProcess(ctx.cli, { latency: LATENCY_MS });
  const times = { file: [], postgres: [] };
  try {
    for (let i = 0; i < ctx.runs; i++) {
      for (const backend of ['file', 'postgres']) {
        await emulator.reset();
        const state = backend === 'file' ? join(dir, `state-${i}.json`) : url;
        if (backend === 'file') rmSync(state, { force: true });
        // Same key every run: empty it so every run sends the same 1,000 PUTs.
        else await server.admin("DELETE FROM agentsync_journal WHERE key = 'bench'; DELETE FROM agentsync_states WHERE key = 'bench'", server.database).catch(() => undefined);
        const result = expectExit(await measure(process.execPath, applyArgs(ctx.cli, { file, state }), { env: emulatorEnv(emulator) }), 0, `apply with ${backend} state`);
        times[backend].push(result.ms);
        ctx.log(`  run ${i + 1}/${ctx.runs} ${backend}: ${Math.round(result.ms)} ms`);
      }
    }
  } finally {
    await emulator.stop();
    await server.stop();
  }
  return [
    ratioRow({
      id: ID,
      scenario,
      unit: 'ms',
      samples: times.postgres,
      baseline: median(times.file),
      baselineLabel: 'file state, same run',
      baselineSamples: times.file,
      limit: 1.15,
      notes: 'Whole process, default concurrency; PostgreSQL 15 on 127.0.0.1 with fsync on. Each result is a committed journal row; concurrent results share one INSERT.',
    }),
  ];
}
