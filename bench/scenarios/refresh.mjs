// P7 refresh: `plan` reads the server (two list calls) before planning. At 10,000 resources it must
// cost at most 1.15× `plan --offline` plus the two list round trips themselves, measured in the same
// run: the refresh may add its network time, but not much work of its own per resource.
import process from 'node:process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { generateManifest } from '../generate.mjs';
import { applyArgs, emulatorEnv } from '../lib/cli.mjs';
import { EMULATOR_API_KEY, startEmulatorProcess } from '../lib/emulator.mjs';
import { expectExit, measure, median } from '../lib/measure.mjs';
import { notMeasuredRow, ratioRow } from '../lib/result.mjs';

const LIMIT = 1.15;

export async function benchRefresh(ctx) {
  if (!ctx.commands.has('import')) {
    return [notMeasuredRow({ id: 'P7', scenario: 'P7 plan with refresh', target: `≤ ${LIMIT}×`, reason: 'refresh not yet landed' })];
  }
  const count = ctx.planSizes.at(-1);
  const emulator = await startEmulatorProcess(ctx.cli);
  try {
    const dir = join(ctx.workDir, `p7-${count}`);
    mkdirSync(dir, { recursive: true });
    const file = join(dir, 'agents.yaml');
    const state = join(dir, 'state.json');
    writeFileSync(file, generateManifest({ count, seed: ctx.seed, variant: 0 }));
    ctx.log(`  P7 setup: applying ${count} resources`);
    expectExit(await measure(process.execPath, applyArgs(ctx.cli, { file, state, concurrency: 32 }), { env: emulatorEnv(emulator) }), 0, `apply of ${count}`);
    const env = emulatorEnv(emulator);
    const refreshed = [];
    const offline = [];
    const lists = [];
    for (let i = 0; i < ctx.runs; i++) {
      offline.push(expectExit(await measure(process.execPath, [ctx.cli, 'plan', '--offline', '-f', file, '--state', state], { env }), 0, 'plan --offline').ms);
      refreshed.push(expectExit(await measure(process.execPath, [ctx.cli, 'plan', '-f', file, '--state', state], { env }), 0, 'plan').ms);
      lists.push(await listRoundTrips(emulator.url));
    }
    const floor = median(offline) + median(lists);
    return [
      ratioRow({
        id: `P7-${count}`,
        scenario: `P7 plan with refresh, ${count.toLocaleString('en-US')} resources, no changes`,
        unit: 'ms',
        samples: refreshed,
        baseline: floor,
        baselineLabel: 'plan --offline + the two list round trips',
        baselineSamples: offline.map((ms, i) => ms + (lists[i] ?? 0)),
        limit: LIMIT,
        notes: `the two list calls took ${Math.round(median(lists))} ms (fetched and parsed, in parallel, from this process)`,
      }),
    ];
  } finally {
    await emulator.stop();
  }
}

/** Both lists fetched in parallel and parsed, as plan does: the network part of a refresh. */
async function listRoundTrips(url) {
  const started = performance.now();
  await Promise.all(
    ['/ai-agents/tools', '/ai-agents/agents'].map(async (path) => {
      const response = await globalThis.fetch(`${url}${path}`, { headers: { apikey: EMULATOR_API_KEY } });
      JSON.parse(await response.text());
    }),
  );
  return performance.now() - started;
}
