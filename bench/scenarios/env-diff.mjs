// P13 diff of two environments: `diff -e us -e eu` over 1,100 resources per side (tools, agents
// and a few websites), each environment on its own emulator process, against `plan -e us -e eu`
// in the same run, which makes the same two refreshes (at once) and nothing else of diff's. The
// comparison must add little to the refreshes: at most 1.2× their time.
import process from 'node:process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { generateManifest } from '../generate.mjs';
import { EMULATOR_API_KEY, startEmulatorProcess } from '../lib/emulator.mjs';
import { expectExit, measure, median } from '../lib/measure.mjs';
import { notMeasuredRow, ratioRow } from '../lib/result.mjs';

const ID = 'P13';
const LIMIT = 1.2;
const COUNT = 1100;
const NAMES = ['us', 'eu'];

export async function benchEnvDiff(ctx) {
  const scenario = `P13 diff of two environments, ${COUNT.toLocaleString('en-US')} resources per side, vs their two refreshes (plan of both)`;
  if (!ctx.commands.has('diff')) return [notMeasuredRow({ id: ID, scenario, target: `≤ ${LIMIT}×`, reason: 'diff not yet landed' })];
  const emulators = [];
  try {
    for (let i = 0; i < NAMES.length; i++) emulators.push(await startEmulatorProcess(ctx.cli));
    const dir = join(ctx.workDir, 'p13');
    mkdirSync(dir, { recursive: true });
    const file = join(dir, 'agents.yaml');
    const resources = generateManifest({ count: COUNT, seed: ctx.seed }).split(/^tools:$/m)[1];
    const environment = (name, i) => `  ${name}: { appId: local, region: ${name}, baseUrl: "${emulators[i].url}", vars: { model: gpt-4o } }`;
    writeFileSync(file, `version: 1\nenvironments:\n${NAMES.map(environment).join('\n')}\ntools:${resources}`);
    // No AGENTSYNC_BASE_URL: it would send both environments to one server.
    const env = { COMETCHAT_API_KEY: EMULATOR_API_KEY, NO_COLOR: '1', AGENTSYNC_BASE_URL: '' };
    ctx.log(`  P13 setup: applying ${COUNT} resources to each of ${NAMES.join(', ')}`);
    expectExit(await measure(process.execPath, [ctx.cli, 'apply', '--auto-approve', '--all-environments', '--concurrency', '32', '-f', file], { env }), 0, 'apply of both environments');
    const selected = NAMES.flatMap((name) => ['-e', name]);
    const times = { plan: [], diff: [] };
    for (let run = 0; run < ctx.runs; run++) {
      // Nothing differs: the plan exits 0, and so does the diff (a difference would only add output).
      times.plan.push(expectExit(await measure(process.execPath, [ctx.cli, 'plan', '-f', file, ...selected, '--detailed-exitcode'], { env }), 0, 'plan of both').ms);
      times.diff.push(expectExit(await measure(process.execPath, [ctx.cli, 'diff', '-f', file, ...selected, '--detailed-exitcode'], { env }), 0, 'diff').ms);
      ctx.log(`  run ${run + 1}/${ctx.runs}: plan ${Math.round(times.plan.at(-1))} ms, diff ${Math.round(times.diff.at(-1))} ms`);
    }
    return [
      ratioRow({
        id: ID,
        scenario,
        unit: 'ms',
        samples: times.diff,
        baseline: median(times.plan),
        baselineLabel: '`plan -e us -e eu`, same run: the two refreshes at once',
        baselineSamples: times.plan,
        limit: LIMIT,
        notes:
          'Whole process; each environment on its own emulator process with its own state. Both make the same GETs (two lists per environment and one paged read per website); diff then compares the two environments instead of printing two plans.',
      }),
    ];
  } finally {
    for (const emulator of emulators) await emulator.stop();
  }
}
