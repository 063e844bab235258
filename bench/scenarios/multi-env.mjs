// P9 many environments: one apply of three environments (`--all-environments`), each 1,000 tools
// on its own emulator process at `--latency 25`, against the same apply of one environment alone,
// interleaved in the same run. The environments run concurrently (default --parallel 4), each with
// its own client, so the target is that three cost at most 1.3× one.
import process from 'node:process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { generateManifest } from '../generate.mjs';
import { EMULATOR_API_KEY, networkPhaseMs, startEmulatorProcess } from '../lib/emulator.mjs';
import { expectExit, measure, median } from '../lib/measure.mjs';
import { notMeasuredRow, ratioRow } from '../lib/result.mjs';

const LATENCY_MS = 25;
const ID = 'P9';
const TARGET = '≤ 1.3× one environment';
const NAMES = ['us', 'eu', 'in'];

export async function benchMultiEnv(ctx) {
  const n = ctx.applyTools;
  const scenario = `P9 apply, 3 environments × ${n} tools, --latency 25: all at once vs one alone`;
  if (!ctx.commands.has('apply')) return [notMeasuredRow({ id: ID, scenario, target: TARGET, reason: 'apply not yet landed' })];
  const dir = join(ctx.workDir, 'p7');
  const emulators = [];
  const times = { one: [], three: [] };
  const network = { one: [], three: [] };
  try {
    for (let i = 0; i < NAMES.length; i++) emulators.push(await startEmulatorProcess(ctx.cli, { latency: LATENCY_MS }));
    const tools = generateManifest({ count: n, seed: ctx.seed, agentShare: 0, websites: 0 }).split(/^tools:$/m)[1];
    const environment = (name, i) => `  ${name}: { appId: local, region: us, baseUrl: "${emulators[i].url}" }`;
    const files = {
      one: writeManifest(join(dir, 'one'), `version: 1\nenvironments:\n${environment(NAMES[0], 0)}\ntools:${tools}`),
      three: writeManifest(join(dir, 'three'), `version: 1\nenvironments:\n${NAMES.map(environment).join('\n')}\ntools:${tools}`),
    };
    // No AGENTSYNC_BASE_URL: it would send every environment to one server.
    const env = { COMETCHAT_API_KEY: EMULATOR_API_KEY, NO_COLOR: '1', AGENTSYNC_BASE_URL: '' };
    for (let run = 0; run < ctx.runs; run++) {
      for (const which of ['one', 'three']) {
        for (const emulator of emulators) await emulator.reset();
        const file = files[which];
        rmSync(join(file, '..', '.agentsync'), { recursive: true, force: true });
        const args = [ctx.cli, 'apply', '--auto-approve', '-f', file, ...(which === 'three' ? ['--all-environments'] : [])];
        const result = expectExit(await measure(process.execPath, args, { env }), 0, `apply of ${which} environment(s)`);
        const used = which === 'three' ? emulators : emulators.slice(0, 1);
        for (const emulator of used) await expectAllCreated(emulator, n);
        // First request in to last response out, over every server the apply used.
        const phase = networkPhaseMs((await Promise.all(used.map((emulator) => emulator.requests()))).flat());
        times[which].push(result.ms);
        network[which].push(phase);
        ctx.log(`  run ${run + 1}/${ctx.runs} ${which}: ${Math.round(result.ms)} ms (network phase ${Math.round(phase)} ms)`);
      }
    }
  } finally {
    for (const emulator of emulators) await emulator.stop();
  }
  return [
    ratioRow({
      id: ID,
      scenario,
      unit: 'ms',
      samples: times.three,
      baseline: median(times.one),
      baselineLabel: 'one environment alone, same run',
      baselineSamples: times.one,
      limit: 1.3,
      notes: 'Whole process, default --concurrency (per environment) and --parallel 4; each environment has its own emulator process, state file, lock and client.',
    }),
    ratioRow({
      id: `${ID}-network`,
      scenario: `P9 apply, 3 environments × ${n} tools, --latency 25: network phase`,
      unit: 'ms',
      samples: network.three,
      baseline: median(network.one),
      baselineLabel: 'one environment alone, same run',
      baselineSamples: network.one,
      limit: null,
      notes: 'First request received to last response sent, over every emulator the apply used: the concurrency of the environments, without start-up and planning.',
    }),
  ];
}

function writeManifest(folder, text) {
  mkdirSync(folder, { recursive: true });
  const file = join(folder, 'agents.yaml');
  writeFileSync(file, text);
  return file;
}

/** Every tool is on its server. */
async function expectAllCreated(emulator, n) {
  const response = await globalThis.fetch(`${emulator.url}/ai-agents/tools`, { headers: { apikey: EMULATOR_API_KEY } });
  const names = new Set((await response.json()).map((tool) => tool.name).filter((name) => name.startsWith('tool_')));
  if (names.size < n) throw new Error(`apply exited 0 but only ${names.size} of ${n} tools are on ${emulator.url}`);
}
