// P10 fmt: `agentsync fmt --check` of manifests of 600 tools, 2,400 tools and about 10 MB, each
// tool with quoted strings to normalise and an unsorted `required` list, so every tool is edited.
// fmt must be linear (issue 20: 600 tools took 1.7 s and 2,400 took 17 s): each larger file's time
// is compared with the 600-tool time scaled by the size ratio. Target: ≤ 1.5× that line.
import process from 'node:process';
import { mkdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expectExit, measure, median } from '../lib/measure.mjs';
import { ratioRow } from '../lib/result.mjs';

const ID = 'P10';
const SMALL = 600;
const LARGE = 2_400;
/** Tools in a file just under the 10 MiB manifest limit, at ~415 bytes a tool. */
const HUGE = 24_500;

function fmtManifest(tools) {
  const lines = ['version: 1', 'environments:', '  bench:', '    appId: local', '    region: us', 'tools:'];
  for (let i = 0; i < tools; i++) {
    lines.push(
      `  lookup_${i}:`,
      `    displayName: 'Lookup ${i}'`,
      `    executionText: "Looking up ${i}"   # said while it runs`,
      `    description: 'Looks up order ${i} and returns its status to the caller'`,
      '    parameters:',
      '      type: object',
      '      properties:',
      `        order_id: { type: string, description: 'the order number' }`,
      `        customer: { type: string, description: "the customer's email" }`,
      '      required: [order_id, customer]',
    );
  }
  lines.push('agents:', '  helper:', '    name: Helper', '    integrationType: llm', '    integrateWith: gpt-4o', "    instruction: 'Help.'", '    tools: [lookup_1, lookup_0]');
  return lines.join('\n') + '\n';
}

export async function benchFmt(ctx) {
  const dir = join(ctx.workDir, 'p10');
  mkdirSync(dir, { recursive: true });
  const sizes = {};
  const times = {};
  for (const [name, tools, runs] of [
    ['small', SMALL, ctx.runs],
    ['large', LARGE, ctx.runs],
    ['huge', HUGE, Math.min(ctx.runs, 2)],
  ]) {
    const file = join(dir, `${name}.yaml`);
    writeFileSync(file, fmtManifest(tools));
    sizes[name] = statSync(file).size;
    times[name] = [];
    for (let i = 0; i < runs; i++) {
      // --check exits 1: every file here has something to normalise, and nothing is written.
      const run = expectExit(await measure(process.execPath, [ctx.cli, 'fmt', '--check', file], { keepStdout: true }), 1, `fmt --check of ${tools} tools`);
      // Exit 1 is also a refusal (a file over the limit): only a listed file is a formatted one.
      if (run.stdout.trim() !== file) throw new Error(`fmt --check of ${tools} tools did not format: ${run.stderr.trim().slice(0, 300)}`);
      times[name].push(run.ms);
      ctx.log(`  ${tools} tools (${(sizes[name] / 1e6).toFixed(1)} MB) run ${i + 1}/${runs}: ${Math.round(times[name].at(-1))} ms`);
    }
  }
  const line = (name) => median(times.small) * (sizes[name] / sizes.small);
  const row = (name, tools, label) =>
    ratioRow({
      id: `${ID}-fmt-${name}`,
      scenario: `P10 fmt --check, ${label}: time against 600 tools scaled by size`,
      unit: 'ms',
      samples: times[name],
      baseline: line(name),
      baselineLabel: `600 tools (${Math.round(median(times.small))} ms) × ${(sizes[name] / sizes.small).toFixed(1)}, the size ratio`,
      baselineSamples: times.small,
      limit: 1.5,
      notes: `${tools.toLocaleString('en-US')} tools, ${(sizes[name] / 1e6).toFixed(1)} MB; every tool has quoting to normalise and a list to sort. Linear is ≤ 1×; start-up makes the small file relatively slow.`,
    });
  return [row('large', LARGE, '2,400 tools'), row('huge', HUGE, '≈10 MB')];
}
