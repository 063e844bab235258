// P3 start-up: `agentsync --version` and `validate` of the minimal example against bare `node -e 0`.
// Runs are interleaved (floor, version, validate, floor, …) so machine noise hits all three alike.
import process from 'node:process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { expectExit, measure, median } from '../lib/measure.mjs';
import { notMeasuredRow, ratioRow } from '../lib/result.mjs';

export async function benchStartup(ctx) {
  const example = join(ctx.root, 'examples', 'minimal.yaml');
  const canValidate = ctx.commands.has('validate') && existsSync(example);
  const floor = [];
  const version = [];
  const validate = [];
  for (let i = 0; i < ctx.runs + 1; i++) {
    const f = await measure(process.execPath, ['-e', '0']);
    const v = expectExit(await measure(process.execPath, [ctx.cli, '--version']), 0, 'agentsync --version');
    const w = canValidate ? expectExit(await measure(process.execPath, [ctx.cli, 'validate', '-f', example], { env: { NO_COLOR: '1' } }), 0, 'agentsync validate') : null;
    // The first round warms the page cache and is not counted.
    if (i === 0) continue;
    floor.push(f.ms);
    version.push(v.ms);
    if (w) validate.push(w.ms);
  }
  const floorMs = median(floor);
  const rows = [
    ratioRow({ id: 'P3-version', scenario: 'P3 start-up: `agentsync --version`', unit: 'ms', samples: version, baseline: floorMs, baselineLabel: 'node -e 0', baselineSamples: floor, limit: 1.5 }),
  ];
  rows.push(
    canValidate
      ? ratioRow({ id: 'P3-validate', scenario: 'P3 start-up: `agentsync validate -f examples/minimal.yaml`', unit: 'ms', samples: validate, baseline: floorMs, baselineLabel: 'node -e 0', baselineSamples: floor, limit: 2 })
      : notMeasuredRow({ id: 'P3-validate', scenario: 'P3 start-up: `agentsync validate -f examples/minimal.yaml`', target: '≤ 2×', reason: ctx.commands.has('validate') ? 'examples/minimal.yaml not found' : 'validate not yet landed' }),
  );
  return rows;
}
