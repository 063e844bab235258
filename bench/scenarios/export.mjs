// P8 export: `agentsync export` of an app of 10,000 resources (9,000 tools, 1,000 agents, as
// bench/generate-app.mjs lays them out in an emulator data file) against `plan --offline` of the
// exported file with the state `import` made from it (no changes). Both read and write the same
// amount of manifest; export adds the two list calls and the YAML writing, plan the parsing and
// validation. Runs are interleaved so noise hits both alike. Target: export ≤ 1.5× the plan.
import process from 'node:process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { generateAppData, headerSecret } from '../generate-app.mjs';
import { startEmulatorProcess, EMULATOR_API_KEY } from '../lib/emulator.mjs';
import { expectExit, measure, median } from '../lib/measure.mjs';
import { notMeasuredRow, ratioRow } from '../lib/result.mjs';

const ID = 'P8';
const COUNT = 10_000;
const TARGET = '≤ 1.5× plan --offline';

export async function benchExport(ctx) {
  const scenario = `P8 export, ${COUNT.toLocaleString('en-US')} resources: time`;
  if (!ctx.commands.has('export') || !ctx.commands.has('import')) {
    return [notMeasuredRow({ id: ID, scenario, target: TARGET, reason: 'export not yet landed' })];
  }
  const dir = join(ctx.workDir, 'p7');
  mkdirSync(dir, { recursive: true });
  const data = join(dir, 'app.json');
  const app = generateAppData({ count: COUNT, seed: ctx.seed });
  writeFileSync(data, JSON.stringify(app));
  const emulator = await startEmulatorProcess(ctx.cli, { data });
  const manifest = join(dir, 'agents.yaml');
  writeFileSync(manifest, `version: 1\nenvironments:\n  bench:\n    appId: local\n    region: us\n    baseUrl: "${emulator.url}"\n`);
  const exported = join(dir, 'exported.yaml');
  const state = join(dir, 'state.json');
  // The secrets the export names (every tenth agent's header), so the plan can resolve the file.
  const secrets = {};
  app.agents.forEach((agent, i) => {
    if (agent.integrationMeta?.headers) secrets[`AGENT_ASSISTANT_${String(i + 1).padStart(5, '0')}_HEADERS_AUTHORIZATION`] = headerSecret(i + 1);
  });
  const env = { COMETCHAT_API_KEY: EMULATOR_API_KEY, NO_COLOR: '1', ...secrets };
  const exportArgs = [ctx.cli, 'export', '-f', manifest, '--out', exported, '--force'];
  const planArgs = [ctx.cli, 'plan', '--offline', '-f', exported, '--state', state];
  const times = { export: [], plan: [] };
  try {
    expectExit(await measure(process.execPath, exportArgs, { env }), 0, 'export (setup)');
    expectExit(await measure(process.execPath, [ctx.cli, 'import', '-f', exported, '--state', state], { env }), 0, 'import of the export');
    const check = expectExit(await measure(process.execPath, [...planArgs, '--json'], { env, keepStdout: true }), 0, 'plan --offline of the export');
    const { summary } = JSON.parse(check.stdout);
    if (summary.noop !== COUNT || summary.create + summary.update + summary.forget !== 0) throw new Error(`the exported file does not plan as no changes: ${JSON.stringify(summary)}`);
    for (let i = 0; i < ctx.runs; i++) {
      times.export.push(expectExit(await measure(process.execPath, exportArgs, { env }), 0, 'export').ms);
      times.plan.push(expectExit(await measure(process.execPath, planArgs, { env }), 0, 'plan --offline').ms);
      ctx.log(`  run ${i + 1}/${ctx.runs}: export ${Math.round(times.export.at(-1))} ms, plan --offline ${Math.round(times.plan.at(-1))} ms`);
    }
  } finally {
    await emulator.stop();
  }
  const size = readFileSync(exported).length;
  return [
    ratioRow({
      id: `${ID}-export-time`,
      scenario,
      unit: 'ms',
      samples: times.export,
      baseline: median(times.plan),
      baselineLabel: 'plan --offline of the exported file (no changes)',
      baselineSamples: times.plan,
      limit: 1.5,
      notes: `the exported manifest is ${(size / 1e6).toFixed(1)} MB; export reads the two lists from an emulator process`,
    }),
  ];
}
