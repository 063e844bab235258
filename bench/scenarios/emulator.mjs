// P5 emulator PUT throughput. The emulator's own benchmark, bench/emulator-throughput.mjs, does
// the measuring; this runs it as a child process ctx.runs times and takes the median.
import process from 'node:process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { expectExit, measure } from '../lib/measure.mjs';
import { absoluteRow, notMeasuredRow } from '../lib/result.mjs';

const TARGET = 5000;
/** Seconds per run; 5 runs of 5 s keep the whole bench within its 10 minutes. */
const DURATION_S = 5;

export async function benchEmulator(ctx) {
  const script = join(ctx.root, 'bench', 'emulator-throughput.mjs');
  if (!existsSync(script)) {
    return [notMeasuredRow({ id: 'P5', scenario: 'P5 emulator PUT throughput', target: `≥ ${TARGET.toLocaleString('en-US')} PUT/s`, reason: 'bench/emulator-throughput.mjs not yet landed' })];
  }
  const samples = [];
  let lastOutput = '';
  for (let i = 0; i < ctx.runs; i++) {
    const run = expectExit(await measure(process.execPath, [script, '--duration', String(DURATION_S)], { cwd: ctx.root, keepStdout: true }), 0, 'emulator-throughput');
    lastOutput = run.stdout;
    samples.push(putsPerSecond(run.stdout));
  }
  const value = samples.filter((v) => v !== null);
  if (value.length === 0) throw new Error(`could not read a PUT/s figure from emulator-throughput.mjs output: ${lastOutput.slice(0, 500)}`);
  const row = absoluteRow({ id: 'P5', scenario: 'P5 emulator PUT throughput', unit: 'PUT/s', samples: value, target: `≥ ${TARGET.toLocaleString('en-US')} PUT/s`, met: null });
  row.met = row.median >= TARGET;
  return [row];
}

/** Accepts a JSON object with a PUTs-per-second field, or falls back to the first "N … per second" in the text. */
function putsPerSecond(output) {
  const text = output.trim();
  try {
    // The whole output is one (pretty-printed) JSON object.
    const parsed = JSON.parse(text.slice(text.indexOf('{')));
    for (const key of ['putsPerSecond', 'requestsPerSecond', 'rps', 'throughput']) {
      if (typeof parsed[key] === 'number') return parsed[key];
    }
  } catch {
    // Not JSON: read the text.
  }
  const match = /([\d,.]+)\s*(?:PUTs?|req(?:uests)?)?\s*(?:\/\s*s|per second)/i.exec(text);
  return match ? Number(match[1].replace(/,/g, '')) : null;
}
