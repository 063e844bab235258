// P1 plan (--offline: manifest against state; P7 measures the refresh): no changes and every resource changed, at 100 / 1,000 / 10,000 resources, against the
// floor of a Node process that only reads the file and runs yaml.parseDocument on it.
// The state is made by a real apply of variant 0 to the emulator; variant 1 then changes every
// resource. Runs are interleaved (floor, plan, floor, plan) so noise hits both sides alike.
import process from 'node:process';
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { generateManifest } from '../generate.mjs';
import { applyArgs, emulatorEnv } from '../lib/cli.mjs';
import { startEmulatorProcess } from '../lib/emulator.mjs';
import { expectExit, measure, median } from '../lib/measure.mjs';
import { notMeasuredRow, ratioRow } from '../lib/result.mjs';

const FLOOR_SCRIPT = "require('yaml').parseDocument(require('fs').readFileSync(process.argv[1], 'utf8'))";

export async function benchPlan(ctx) {
  if (!ctx.commands.has('plan')) {
    return [notMeasuredRow({ id: 'P1', scenario: 'P1 plan', target: '≤ 1.15× time to 1,100 resources, ≤ 1.25× at 10,000, ≤ 1.5× RSS', reason: 'plan not yet landed' })];
  }
  const canApply = ctx.commands.has('apply');
  const emulator = canApply ? await startEmulatorProcess(ctx.cli) : undefined;
  const rows = [];
  const medians = {};
  try {
    for (const count of ctx.planSizes) {
      const dir = join(ctx.workDir, `p1-${count}`);
      mkdirSync(dir, { recursive: true });
      const base = join(dir, 'agents.yaml');
      const changed = join(dir, 'agents-changed.yaml');
      const shape = manifestShape(count);
      writeFileSync(base, generateManifest({ count, seed: ctx.seed, variant: 0, ...shape }));
      writeFileSync(changed, generateManifest({ count, seed: ctx.seed, variant: 1, ...shape }));
      const state = join(dir, 'state.json');
      if (emulator) {
        await emulator.reset();
        ctx.log(`  P1 setup: applying ${count} resources to make the state`);
        expectExit(await measure(process.execPath, applyArgs(ctx.cli, { file: base, state, concurrency: 32 }), { env: emulatorEnv(emulator) }), 0, `apply of ${count}`);
        checkSummary(ctx.cli, base, state, { create: 0, update: 0 });
        checkSummary(ctx.cli, changed, state, { create: 0, update: count });
      }
      // Without apply there is no state: every resource is a create, which is still "every resource changed".
      const cases = canApply
        ? [
            { key: 'nochange', label: 'no changes', file: base },
            { key: 'changed', label: 'every resource changed', file: changed },
          ]
        : [{ key: 'changed', label: 'every resource changed (no state: all creates)', file: changed }];
      const samples = Object.fromEntries(cases.map((c) => [c.key, { floorMs: [], floorKb: [], ms: [], kb: [] }]));
      // Small plans take under a second and their floor is noisy: more runs for a steadier median.
      const runs = count <= 1100 ? Math.max(ctx.runs, 11) : ctx.runs;
      for (let i = 0; i < runs; i++) {
        for (const c of cases) {
          const floor = expectExit(await measure(process.execPath, ['-e', FLOOR_SCRIPT, c.file], { cwd: ctx.root }), 0, 'floor');
          const plan = expectExit(await measure(process.execPath, [ctx.cli, 'plan', '--offline', '-f', c.file, '--state', state], { env: { NO_COLOR: '1' } }), 0, `plan of ${count}`);
          const s = samples[c.key];
          s.floorMs.push(floor.ms);
          s.floorKb.push(floor.rssKb);
          s.ms.push(plan.ms);
          s.kb.push(plan.rssKb);
        }
      }
      for (const c of cases) {
        const s = samples[c.key];
        medians[`${c.key}-${count}`] = median(s.ms);
        const label = `P1 plan, ${count.toLocaleString('en-US')} resources${shapeLabel(count)}, ${c.label}`;
        rows.push(
          ratioRow({
            id: `P1-${count}-${c.key}-time`,
            scenario: `${label}: time`,
            unit: 'ms',
            samples: s.ms,
            baseline: median(s.floorMs),
            baselineLabel: 'read + yaml.parseDocument',
            baselineSamples: s.floorMs,
            limit: count <= 1100 ? 1.15 : 1.25,
          }),
        );
        rows.push(
          ratioRow({
            id: `P1-${count}-${c.key}-rss`,
            scenario: `${label}: peak RSS`,
            unit: 'KB',
            samples: s.kb,
            baseline: median(s.floorKb),
            baselineLabel: 'read + yaml.parseDocument',
            baselineSamples: s.floorKb,
            limit: 1.5,
          }),
        );
      }
      if (!canApply)
        rows.push(
          notMeasuredRow({
            id: `P1-${count}-nochange`,
            scenario: `P1 plan, ${count.toLocaleString('en-US')} resources, no changes`,
            target: '≤ 1.25× / ≤ 1.5×',
            reason: 'apply not yet landed, so no state to plan against',
          }),
        );
    }
  } finally {
    await emulator?.stop();
  }
  for (const key of canApply ? ['nochange', 'changed'] : ['changed']) {
    const small = medians[`${key}-1100`];
    const large = medians[`${key}-10000`];
    if (small && large) {
      rows.push(
        ratioRow({
          id: `P1-growth-${key}`,
          scenario: `P1 plan growth 1.1k → 10k (${key === 'nochange' ? 'no changes' : 'every resource changed'})`,
          unit: 'ms',
          samples: [large],
          baseline: small,
          baselineLabel: 'plan time at 1,100',
          limit: 11,
          notes: 'linear growth would be 9.1×',
        }),
      );
    }
  }
  return rows;
}

/** 1,100 is the mid-size case: exactly 1,000 tools and 100 agents. Other sizes keep the generator's mix. */
function manifestShape(count) {
  return count === 1100 ? { agentShare: 1 / 11, websites: 0 } : {};
}

function shapeLabel(count) {
  return count === 1100 ? ' (1,000 tools, 100 agents)' : '';
}

/** Proves the measured plans are the ones we claim: nothing to do, or every resource an update. */
function checkSummary(cli, file, state, expected) {
  let out;
  try {
    out = execFileSync(process.execPath, [cli, 'plan', '--offline', '--json', '-f', file, '--state', state], { encoding: 'utf8', maxBuffer: 1 << 30 });
  } catch (err) {
    throw new Error(`plan --json of ${file} failed: ${err.stderr ?? err.message}`, { cause: err });
  }
  const { summary } = JSON.parse(out);
  if (summary.create !== expected.create || summary.update !== expected.update || summary.forget !== 0) {
    throw new Error(`plan of ${file}: expected ${JSON.stringify(expected)}, got ${JSON.stringify(summary)}`);
  }
}
