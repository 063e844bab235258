#!/usr/bin/env node
// `npm run bench`: builds first (the npm script does), then measures the built CLI as child
// processes and writes BENCHMARKS.md and bench/results.json.
//
//   node bench/run.mjs [--quick] [--only P1,P2,P3,P5,P6,P7,P8,P9,P10,P11,P12,P13] [--runs N] [--sizes 100,1100,10000]
//                    [--nodes /path/to/node22,/path/to/node24]
//
// --quick is for working on the harness: fewer runs, sizes 100 and 1,100, no 100 s rate-limited run.
// It does not write BENCHMARKS.md or results.json unless --write is given too.
// With --only (and without --quick, or with --write), the other scenarios keep their last rows.
// --render rewrites BENCHMARKS.md (or --out FILE) from bench/results.json and bench/misses.md without measuring.
// BENCHMARKS.md is the table, then what limits each missed target (bench/misses.md, hand-written,
// one section per row id or id prefix); the long history is bench/analysis.md, linked, not included.
import process from 'node:process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { availableCommands } from './lib/cli.mjs';
import { cleanupScratch, rssSource } from './lib/measure.mjs';
import { explainMisses, machineInfo, parseMisses, writeMarkdown, writeResults } from './lib/report.mjs';
import { notMeasuredRow } from './lib/result.mjs';
import { benchApply } from './scenarios/apply.mjs';
import { benchEmulator } from './scenarios/emulator.mjs';
import { benchExport } from './scenarios/export.mjs';
import { benchFmt } from './scenarios/fmt.mjs';
import { benchFolder } from './scenarios/folder.mjs';
import { benchKbRefresh } from './scenarios/kb-refresh.mjs';
import { benchMultiEnv } from './scenarios/multi-env.mjs';
import { benchPlan } from './scenarios/plan.mjs';
import { benchStartup } from './scenarios/startup.mjs';
import { benchStateBackend } from './scenarios/state-backend.mjs';
import { benchRefresh } from './scenarios/refresh.mjs';
import { benchEnvDiff } from './scenarios/env-diff.mjs';

const root = dirname(dirname(fileURLToPath(import.meta.url)));
const argv = process.argv.slice(2);
const flag = (name) => argv.includes(name);
const option = (name) => {
  const at = argv.indexOf(name);
  return at >= 0 ? argv[at + 1] : undefined;
};
const quick = flag('--quick');
const only = new Set((option('--only') ?? 'P3,P1,P2,P5,P6,P7,P8,P9,P10,P11,P12,P13').split(','));
const runs = Number(option('--runs') ?? (quick ? 3 : 5));

if (flag('--render')) {
  const saved = JSON.parse(readFileSync(join(root, 'bench', 'results.json'), 'utf8'));
  const out = option('--out') ?? join(root, 'BENCHMARKS.md');
  writeMarkdown(out, { ...saved, misses: readMisses(saved.rows) });
  process.stderr.write(`Rewrote ${out} from bench/results.json.\n`);
  process.exit(0);
}

const cli = join(root, 'dist', 'cli', 'main.cjs');
if (!existsSync(cli)) {
  process.stderr.write('dist/cli/main.cjs is missing: run `npm run build` first (npm run bench does).\n');
  process.exit(1);
}

const workDir = mkdtempSync(join(tmpdir(), 'agentsync-bench-'));
const ctx = {
  root,
  cli,
  workDir,
  runs,
  seed: 42,
  commands: availableCommands(cli),
  otherNodes: option('--nodes')?.split(','),
  planSizes: option('--sizes')?.split(',').map(Number) ?? (quick ? [100, 1100] : [100, 1100, 10000]),
  applyTools: 1000,
  applyConcurrency: [1, 10, 32],
  serialApplyRuns: quick ? 1 : runs,
  skipRateLimited: quick,
  log: (line) => process.stderr.write(`${line}\n`),
};

const scenarios = [
  { id: 'P3', name: 'start-up', run: benchStartup },
  { id: 'P1', name: 'plan', run: benchPlan },
  { id: 'P2', name: 'apply', run: benchApply },
  { id: 'P5', name: 'emulator throughput', run: benchEmulator },
  { id: 'P6', name: 'PostgreSQL state', run: benchStateBackend },
  { id: 'P7', name: 'plan with refresh', run: benchRefresh },
  { id: 'P8', name: 'export', run: benchExport },
  { id: 'P9', name: 'many environments', run: benchMultiEnv },
  { id: 'P10', name: 'fmt', run: benchFmt },
  { id: 'P11', name: 'knowledge-base refresh', run: benchKbRefresh },
  { id: 'P12', name: 'a manifest in many files', run: benchFolder },
  { id: 'P13', name: 'diff of two environments', run: benchEnvDiff },
];

const started = Date.now();
const rows = [];
try {
  for (const scenario of scenarios.filter((s) => only.has(s.id))) {
    const t0 = Date.now();
    ctx.log(`${scenario.id} ${scenario.name} …`);
    try {
      const produced = await scenario.run(ctx);
      rows.push(...produced);
      for (const row of produced) ctx.log(`  ${row.scenario}: ${row.median ?? '—'} ${row.unit} ratio ${row.ratio ?? '—'} met ${row.met ?? '—'} ${row.notes}`);
    } catch (err) {
      // A scenario that breaks is reported as such, never turned into a number.
      ctx.log(`  ${scenario.id} failed: ${err.stack ?? err}`);
      rows.push(notMeasuredRow({ id: scenario.id, scenario: `${scenario.id} ${scenario.name}`, target: '', reason: `the run failed: ${String(err.message ?? err).split('\n')[0]}` }));
    }
    ctx.log(`  (${((Date.now() - t0) / 1000).toFixed(1)} s)`);
  }
} finally {
  rmSync(workDir, { recursive: true, force: true });
  cleanupScratch();
}

const durationS = (Date.now() - started) / 1000;
const machine = machineInfo();
const date = new Date().toISOString();
if (!quick || flag('--write')) {
  // Each row says which run measured it, so a partial run (--only) does not lend its date and run
  // count to the rows it kept.
  for (const row of rows) row.measured ??= { date, runs };
  const all = option('--only') ? inTableOrder([...keptRows(), ...rows]) : rows;
  writeResults(join(root, 'bench', 'results.json'), { machine, date, durationS: Math.round(durationS), runs, seed: ctx.seed, rssSource, rows: all });
  writeMarkdown(join(root, 'BENCHMARKS.md'), { machine, date, durationS, runs, seed: ctx.seed, rows: all, misses: readMisses(all), rssSource });
  ctx.log(`Wrote BENCHMARKS.md and bench/results.json in ${Math.round(durationS)} s.`);
} else {
  ctx.log(`Quick run done in ${Math.round(durationS)} s (nothing written; add --write to keep it).`);
}

/**
 * With --only, the scenarios not run keep their rows from the last results.json, in table order,
 * so one scenario can be measured again without the rest.
 */
function keptRows() {
  const file = join(root, 'bench', 'results.json');
  if (!existsSync(file)) return [];
  const saved = JSON.parse(readFileSync(file, 'utf8'));
  return saved.rows.filter((row) => !only.has(row.id.split('-')[0])).map((row) => ({ ...row, measured: row.measured ?? { date: saved.date, runs: saved.runs } }));
}

function inTableOrder(list) {
  const order = scenarios.map((s) => s.id);
  return list.sort((a, b) => order.indexOf(a.id.split('-')[0]) - order.indexOf(b.id.split('-')[0]));
}

/**
 * The hand-written part of BENCHMARKS.md: what limits each missed target. Says on stderr which
 * missed rows it does not explain yet, and which of its sections no longer match a missed row.
 */
function readMisses(rows) {
  const file = join(root, 'bench', 'misses.md');
  const text = existsSync(file) ? readFileSync(file, 'utf8') : '';
  const sections = parseMisses(text);
  const groups = explainMisses(rows, sections);
  for (const group of groups.filter((g) => g.text === undefined)) process.stderr.write(`bench/misses.md does not explain the miss of ${group.rows[0].id} yet.\n`);
  const used = new Set(groups.map((g) => g.section));
  for (const section of sections.filter((s) => !used.has(s))) process.stderr.write(`bench/misses.md: "## ${section.keys.join(', ')}" matches no missed row now; remove it if the target is met.\n`);
  return text;
}
