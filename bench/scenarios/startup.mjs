// P3 start-up: `agentsync --version` and `validate` of the minimal example against bare `node -e 0`,
// on every runtime the CLI supports: Node 20, 22 and 24 running the npm package's bin, and the
// single-file binary (`npm run sea`). Each runtime is measured against its own `node -e 0` (the
// binary against that of the Node it was built from), in its own interleaved loop (floor, version,
// validate, cold validate, floor, …) so machine noise hits every row of a runtime alike.
// - The goal (issue 30): `validate` at most 1.5× its floor on Node 24 and on the binary. Node 22 is
//   reported against the same 1.5× without being judged; Node 20 (end of life, no compile cache)
//   is reported only.
// - The CLI loads through its code cache (src/io/runtime/code-cache.ts, on every Node) in a cache
//   directory private to this run, warmed by the first, uncounted round: what every run after the
//   first one costs a user. "cold" is the same `validate` with NODE_DISABLE_COMPILE_CACHE=1: the
//   first run after an install or upgrade.
// - The binary is built here with scripts/sea.mjs by the newest of those Nodes (its startup
//   snapshot holds the evaluated CLI; see src/cli/snapshot.ts).
// - The stack floor (bench/stack-floor/validate.mjs, built by bench/lib/stack-floor.mjs) is a
//   `validate` made of commander, yaml and zod/mini alone, run each way agentsync runs: what the
//   libraries themselves cost to start, against which agentsync's own share can be read.
// The Nodes: the one running this harness plus `--nodes a,b`, or the node@22 and node@24 that
// .ci/run caches.
import process from 'node:process';
import { existsSync, mkdirSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { execFileSync, spawnSync } from 'node:child_process';
import { expectExit, measure, median } from '../lib/measure.mjs';
import { notMeasuredRow, ratioRow } from '../lib/result.mjs';
import { buildStackFloorBinary, buildStackFloorScript } from '../lib/stack-floor.mjs';

const LIMIT = 1.5;
/** The runtimes the 1.5× goal is judged on; the binary is judged too. */
const JUDGED_MAJORS = new Set([24]);

export async function benchStartup(ctx) {
  const example = join(ctx.root, 'examples', 'minimal.yaml');
  if (!ctx.commands.has('validate') || !existsSync(example)) {
    return [notMeasuredRow({ id: 'P3-validate', scenario: 'P3 start-up: `agentsync validate -f examples/minimal.yaml`', target: `≤ ${LIMIT}×`, reason: 'validate or examples/minimal.yaml missing' })];
  }
  const nodes = allNodes(ctx);
  const floor = await buildStackFloorScript(ctx);
  const rows = [];
  for (const node of nodes) rows.push(...(await nodeRows(ctx, node, example, floor)));
  rows.push(...(await binaryRows(ctx, nodes.at(-1), example)));
  return rows;
}

/**
 * The bin run by one Node: version, validate with the compile cache, validate without; and the
 * stack floor (bench/stack-floor/validate.mjs) through the same bin and, from Node 22, through
 * Node's own compile cache (`module.enableCompileCache()`, which NODE_COMPILE_CACHE turns on).
 */
async function nodeRows(ctx, node, example, floor) {
  const label = `Node ${node.version}`;
  const key = `node${node.major}`;
  const cacheDir = join(ctx.workDir, `p3-code-cache-${key}`);
  mkdirSync(cacheDir, { recursive: true, mode: 0o700 });
  const warm = { NO_COLOR: '1', NODE_COMPILE_CACHE: cacheDir };
  const cold = { NO_COLOR: '1', NODE_DISABLE_COMPILE_CACHE: '1' };
  const samples = await interleaved(ctx, node.path, [
    { name: 'version', command: node.path, args: [ctx.cli, '--version'], env: warm, what: 'agentsync --version' },
    { name: 'validate', command: node.path, args: [ctx.cli, 'validate', '-f', example], env: warm, what: 'agentsync validate' },
    { name: 'cold', command: node.path, args: [ctx.cli, 'validate', '-f', example], env: cold, what: 'agentsync validate, no code cache' },
    { name: 'stack', command: node.path, args: [join(floor, 'main.cjs'), 'validate', '-f', example], env: warm, what: 'the stack floor through the bin' },
    ...(node.major >= 22
      ? [{ name: 'stackNodeCache', command: node.path, args: [join(floor, 'agentsync.cjs'), 'validate', '-f', example], env: warm, what: "the stack floor under Node's compile cache" }]
      : []),
  ]);
  const judged = JUDGED_MAJORS.has(node.major);
  const common = commonOf(samples, `node -e 0 (${node.version})`);
  const rows = [
    ratioRow({ ...common, id: `P3-version-${key}`, scenario: `P3 start-up (${label}): \`agentsync --version\``, samples: samples.version, limit: null }),
    ratioRow({
      ...common,
      id: `P3-validate-${key}`,
      scenario: `P3 start-up (${label}): \`agentsync validate -f examples/minimal.yaml\``,
      samples: samples.validate,
      limit: judged ? LIMIT : null,
      notes: `With the code cache a previous run wrote (every run but the first).${judged ? '' : node.major === 20 ? ' Node 20 is past its end of life: reported, not judged.' : ` Reported against ≤ ${LIMIT}×, not judged.`}`,
    }),
    ratioRow({
      ...common,
      id: `P3-validate-cold-${key}`,
      scenario: `P3 start-up (${label}): \`validate\`, no code cache`,
      samples: samples.cold,
      limit: null,
      notes: 'NODE_DISABLE_COMPILE_CACHE=1: the first run after an install, or with the cache turned off.',
    }),
    ratioRow({
      ...common,
      id: `P3-stack-floor-${key}`,
      scenario: `P3 stack floor (${label}): commander, yaml and zod/mini validate the same file, through the bin`,
      samples: samples.stack,
      limit: null,
      notes: "bench/stack-floor/validate.mjs: the libraries' own cost, loaded through the same code cache; agentsync's validate cannot start faster than this.",
    }),
  ];
  if (samples.stackNodeCache) {
    rows.push(
      ratioRow({
        ...common,
        id: `P3-stack-floor-node-cache-${key}`,
        scenario: `P3 stack floor (${label}): the same, under Node's compile cache`,
        samples: samples.stackNodeCache,
        limit: null,
        notes: '`node agentsync.cjs` with NODE_COMPILE_CACHE, i.e. module.enableCompileCache(), the mechanism issue 30 names.',
      }),
    );
  }
  return rows;
}

/** The single-file binary built by `node` (scripts/sea.mjs), against that node's `-e 0`. */
async function binaryRows(ctx, node, example) {
  const binary = join(ctx.workDir, 'agentsync-sea');
  const scenario = `P3 start-up (single-file binary, Node ${node.version}): \`agentsync validate -f examples/minimal.yaml\``;
  try {
    ctx.log(`  P3: building the single-file binary with Node ${node.version} …`);
    execFileSync(node.path, ['scripts/sea.mjs', binary], { cwd: ctx.root, stdio: ['ignore', 'ignore', 'pipe'] });
  } catch (err) {
    return [
      notMeasuredRow({
        id: 'P3-validate-binary',
        scenario,
        target: `≤ ${LIMIT}×`,
        reason: `scripts/sea.mjs failed: ${String(err.stderr ?? err.message)
          .trim()
          .split('\n')
          .at(-1)}`,
      }),
    ];
  }
  const env = { NO_COLOR: '1' };
  const floorBinary = await buildStackFloorBinary(ctx, node.path, example).catch((err) => {
    ctx.log(`  P3: the stack floor's binary was not built: ${String(err.message).split('\n')[0]}`);
    return undefined;
  });
  const samples = await interleaved(ctx, node.path, [
    { name: 'version', command: binary, args: ['--version'], env, what: 'binary --version' },
    { name: 'validate', command: binary, args: ['validate', '-f', example], env, what: 'binary validate' },
  ]);
  const common = commonOf(samples, `node -e 0 (${node.version})`);
  const stackScenario = `P3 stack floor (single-file binary, Node ${node.version}): commander, yaml and zod/mini validate the same file`;
  // In a loop of its own: with three 100 MB executables taking turns, this machine's `node -e 0`
  // slowed by half (pages of each are reclaimed between runs), which flattered both binaries.
  const stack = floorBinary ? await interleaved(ctx, node.path, [{ name: 'stack', command: floorBinary, args: ['validate', '-f', example], env, what: "the stack floor's binary" }]) : undefined;
  return [
    ratioRow({ ...common, id: 'P3-version-binary', scenario: `P3 start-up (single-file binary, Node ${node.version}): \`agentsync --version\``, samples: samples.version, limit: null }),
    ratioRow({ ...common, id: 'P3-validate-binary', scenario, samples: samples.validate, limit: LIMIT, notes: "Starts from its startup snapshot (the SEA config's useSnapshot); no compile cache." }),
    stack
      ? ratioRow({
          ...commonOf(stack, `node -e 0 (${node.version})`),
          id: 'P3-stack-floor-binary',
          scenario: stackScenario,
          samples: stack.stack,
          limit: null,
          notes: 'bench/stack-floor/validate.mjs as a binary from a warmed-up snapshot, as scripts/sea.mjs builds agentsync; measured in a loop of its own.',
        })
      : notMeasuredRow({ id: 'P3-stack-floor-binary', scenario: stackScenario, target: '—', reason: 'its binary could not be built here' }),
  ];
}

/** `ctx.runs` counted rounds (after one uncounted round that warms the page cache and the code cache) of the floor and each command. */
async function interleaved(ctx, node, commands) {
  const samples = { floor: [] };
  for (const c of commands) samples[c.name] = [];
  for (let i = 0; i < ctx.runs + 1; i++) {
    const round = [['floor', await measure(node, ['-e', '0'])]];
    for (const c of commands) round.push([c.name, expectExit(await measure(c.command, c.args, { env: c.env }), 0, c.what)]);
    if (i === 0) continue;
    for (const [name, result] of round) samples[name].push(result.ms);
  }
  return samples;
}

function commonOf(samples, baselineLabel) {
  return { unit: 'ms', baseline: median(samples.floor), baselineLabel, baselineSamples: samples.floor };
}

/** The Node running this harness and the others (--nodes, else .ci/run's node@22 and node@24), oldest first, one per version. */
function allNodes(ctx) {
  const listed = ctx.otherNodes ?? ['22', '24'].map((major) => join(homedir(), '.cache', 'agentsync-ci', `node${major}`, 'node_modules', 'node', 'bin', 'node'));
  const nodes = [{ path: process.execPath, version: process.version }];
  for (const path of listed) {
    if (!existsSync(path)) continue;
    const run = spawnSync(path, ['--version'], { encoding: 'utf8' });
    const version = run.status === 0 ? run.stdout.trim() : undefined;
    if (version && !nodes.some((n) => n.version === version)) nodes.push({ path, version });
  }
  if (nodes.length === 1) ctx.log('  P3: no other Node found (pass --nodes /path/to/node22,/path/to/node24 to measure them)');
  for (const node of nodes) node.major = Number(node.version.slice(1).split('.')[0]);
  return nodes.sort((a, b) => a.major - b.major);
}
