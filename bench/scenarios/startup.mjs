// P3 start-up: `agentsync --version` and `validate` of the minimal example against bare `node -e 0`.
// Runs are interleaved (floor, version, validate, cold validate, floor, …) so machine noise hits all
// of them alike.
// - The CLI loads through Node's compile cache (src/io/runtime/code-cache.ts; Node 22.1+, none on
//   Node 20) in a cache directory private to this run, warmed by the first, uncounted round: what
//   every run after the first one costs a user.
// - "cold" is the same `validate` with NODE_DISABLE_COMPILE_CACHE=1: the very first run after an
//   install or upgrade, and what a user who turns the cache off gets.
// - The same rows are measured on every other Node the machine has (`--nodes a,b`, or the node@22
//   and node@24 that .ci/run caches), each against its own `node -e 0`. The targets are for the
//   Node the machines run (the one running this harness); the others are reported, not judged.
import process from 'node:process';
import { existsSync, mkdirSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { expectExit, measure, median } from '../lib/measure.mjs';
import { notMeasuredRow, ratioRow } from '../lib/result.mjs';

export async function benchStartup(ctx) {
  const example = join(ctx.root, 'examples', 'minimal.yaml');
  if (!ctx.commands.has('validate') || !existsSync(example)) {
    return [notMeasuredRow({ id: 'P3-validate', scenario: 'P3 start-up: `agentsync validate -f examples/minimal.yaml`', target: '≤ 1.6×', reason: 'validate or examples/minimal.yaml missing' })];
  }
  const rows = await startupRows(ctx, process.execPath, example, { judged: true });
  for (const node of otherNodes(ctx)) rows.push(...(await startupRows(ctx, node.path, example, { judged: false, label: `Node ${node.version}` })));
  return rows;
}

async function startupRows(ctx, node, example, { judged, label }) {
  const cacheDir = join(ctx.workDir, `p3-code-cache-${label ?? 'main'}`.replace(/[^\w.-]/g, '_'));
  mkdirSync(cacheDir, { recursive: true, mode: 0o700 });
  const warm = { NO_COLOR: '1', NODE_COMPILE_CACHE: cacheDir };
  const cold = { NO_COLOR: '1', NODE_DISABLE_COMPILE_CACHE: '1' };
  const samples = { floor: [], version: [], validate: [], cold: [] };
  for (let i = 0; i < ctx.runs + 1; i++) {
    const f = await measure(node, ['-e', '0']);
    const v = expectExit(await measure(node, [ctx.cli, '--version'], { env: warm }), 0, 'agentsync --version');
    const w = expectExit(await measure(node, [ctx.cli, 'validate', '-f', example], { env: warm }), 0, 'agentsync validate');
    const c = expectExit(await measure(node, [ctx.cli, 'validate', '-f', example], { env: cold }), 0, 'agentsync validate, no code cache');
    // The first round warms the page cache and writes the code cache; it is not counted.
    if (i === 0) continue;
    samples.floor.push(f.ms);
    samples.version.push(v.ms);
    samples.validate.push(w.ms);
    samples.cold.push(c.ms);
  }
  const floorMs = median(samples.floor);
  const on = label ? ` (${label})` : '';
  const id = label ? `-${label.replace(/\W+/g, '')}` : '';
  const common = { unit: 'ms', baseline: floorMs, baselineLabel: `${label ?? 'node'} -e 0`, baselineSamples: samples.floor };
  return [
    ratioRow({ ...common, id: `P3-version${id}`, scenario: `P3 start-up${on}: \`agentsync --version\``, samples: samples.version, limit: judged ? 1.5 : null }),
    ratioRow({ ...common, id: `P3-validate${id}`, scenario: `P3 start-up${on}: \`agentsync validate -f examples/minimal.yaml\``, samples: samples.validate, limit: judged ? 1.6 : null, notes: 'With the code cache a previous run wrote (every run but the first).' }),
    ratioRow({ ...common, id: `P3-validate-cold${id}`, scenario: `P3 start-up${on}: \`validate\`, no code cache`, samples: samples.cold, limit: null, notes: 'NODE_DISABLE_COMPILE_CACHE=1: the first run after an install, or with the cache turned off.' }),
  ];
}

/** Other Node binaries to report on: --nodes, else the node@22 and node@24 that .ci/run caches. */
function otherNodes(ctx) {
  const listed = ctx.otherNodes ?? ['22', '24'].map((major) => join(homedir(), '.cache', 'agentsync-ci', `node${major}`, 'node_modules', 'node', 'bin', 'node'));
  const nodes = [];
  for (const path of listed) {
    if (!existsSync(path)) continue;
    const run = spawnSync(path, ['--version'], { encoding: 'utf8' });
    const version = run.status === 0 ? run.stdout.trim() : undefined;
    if (version && version !== process.version) nodes.push({ path, version });
  }
  if (nodes.length === 0) ctx.log('  P3: no other Node found (pass --nodes /path/to/node22,/path/to/node24 to measure them)');
  return nodes;
}
