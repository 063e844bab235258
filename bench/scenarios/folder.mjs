// P12 a manifest in many files: the 1,100-resource manifest of P1 (1,000 tools, 100 agents) cut
// into 200 files (the environments, one file per agent, and 99 files of about ten tools each),
// planned with no changes against the same plan of the one file. Both are written from the same
// parsed document, so they hold the same text but for the `tools:`/`agents:` lines each part repeats.
// Runs are interleaved (one file, folder, one file, folder).
import process from 'node:process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse, stringify } from 'yaml';
import { generateManifest } from '../generate.mjs';
import { applyArgs, emulatorEnv } from '../lib/cli.mjs';
import { startEmulatorProcess } from '../lib/emulator.mjs';
import { expectExit, measure, median } from '../lib/measure.mjs';
import { notMeasuredRow, ratioRow } from '../lib/result.mjs';

const FILES = 200;
const COUNT = 1100;

export async function benchFolder(ctx) {
  if (!ctx.commands.has('plan') || !ctx.commands.has('apply')) {
    return [notMeasuredRow({ id: 'P12', scenario: 'P12 plan of a manifest in 200 files', target: '≤ 1.1× the one file', reason: 'plan or apply not yet landed' })];
  }
  const dir = join(ctx.workDir, 'p12');
  mkdirSync(dir, { recursive: true });
  const document = parse(generateManifest({ count: COUNT, seed: ctx.seed, variant: 0, agentShare: 1 / 11, websites: 0 }));
  const oneFile = join(dir, 'agents.yaml');
  writeFileSync(oneFile, stringify(document));
  const folder = join(dir, 'agents');
  const files = writeParts(folder, document);
  const state = join(dir, 'state.json');
  const emulator = await startEmulatorProcess(ctx.cli);
  try {
    ctx.log(`  P12 setup: applying ${COUNT} resources from ${files} files to make the state`);
    expectExit(await measure(process.execPath, applyArgs(ctx.cli, { file: folder, state, concurrency: 32 }), { env: emulatorEnv(emulator) }), 0, 'apply of the folder');
  } finally {
    await emulator.stop();
  }
  const one = [];
  const many = [];
  const runs = Math.max(ctx.runs, 11);
  for (let i = 0; i < runs; i++) {
    one.push(
      expectExit(await measure(process.execPath, [ctx.cli, 'plan', '--offline', '--detailed-exitcode', '-f', oneFile, '--state', state], { env: { NO_COLOR: '1' } }), 0, 'plan of the one file').ms,
    );
    many.push(
      expectExit(await measure(process.execPath, [ctx.cli, 'plan', '--offline', '--detailed-exitcode', '-f', folder, '--state', state], { env: { NO_COLOR: '1' } }), 0, 'plan of the folder').ms,
    );
  }
  return [
    ratioRow({
      id: 'P12-time',
      scenario: `P12 plan, ${COUNT.toLocaleString('en-US')} resources in ${files} files, no changes: time`,
      unit: 'ms',
      samples: many,
      baseline: median(one),
      baselineLabel: 'the same manifest in one file',
      baselineSamples: one,
      limit: 1.1,
    }),
  ];
}

/** Writes the parts; returns how many files there are. */
function writeParts(folder, document) {
  mkdirSync(join(folder, 'agents'), { recursive: true });
  mkdirSync(join(folder, 'tools'), { recursive: true });
  writeFileSync(join(folder, 'environments.yaml'), stringify({ version: document.version, environments: document.environments }));
  let files = 1;
  for (const [key, agent] of Object.entries(document.agents ?? {})) {
    writeFileSync(join(folder, 'agents', `${key}.yaml`), stringify({ agents: { [key]: agent } }));
    files++;
  }
  const tools = Object.entries(document.tools ?? {});
  const toolFiles = FILES - files;
  for (let i = 0; i < toolFiles; i++) {
    const slice = tools.slice(Math.floor((i * tools.length) / toolFiles), Math.floor(((i + 1) * tools.length) / toolFiles));
    if (slice.length === 0) continue;
    writeFileSync(join(folder, 'tools', `${String(i).padStart(3, '0')}.yaml`), stringify({ tools: Object.fromEntries(slice) }));
    files++;
  }
  for (const key of Object.keys(document)) {
    if (['version', 'environments', 'agents', 'tools'].includes(key)) continue;
    writeFileSync(join(folder, `${key}.yaml`), stringify({ [key]: document[key] }));
    files++;
  }
  return files;
}
