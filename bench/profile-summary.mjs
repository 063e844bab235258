#!/usr/bin/env node
// Summarizes a V8 CPU profile (from `node --cpu-prof`): self time per function and per package,
// so BENCHMARKS.md can say what limits a scenario with evidence rather than a guess.
//
//   node --cpu-prof --cpu-prof-dir=/tmp/prof dist/cli/main.cjs plan -f big.yaml
//   node bench/profile-summary.mjs /tmp/prof/CPU.*.cpuprofile [--top 25]
import { readFileSync } from 'node:fs';
import process from 'node:process';

const args = process.argv.slice(2);
const topAt = args.indexOf('--top');
const top = topAt >= 0 ? Number(args[topAt + 1]) : 25;
const file = args.find((a, i) => !a.startsWith('--') && i !== topAt + 1);
if (!file) {
  process.stderr.write('usage: node bench/profile-summary.mjs <file.cpuprofile> [--top N]\n');
  process.exit(1);
}

const profile = JSON.parse(readFileSync(file, 'utf8'));
const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const selfUs = new Map();
// timeDeltas[i] is the time before samples[i]; attribute it to that sample's node.
profile.samples.forEach((id, i) => selfUs.set(id, (selfUs.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0)));
const totalUs = profile.endTime - profile.startTime;

/** Where a function lives: a package in node_modules, our dist/ tree, Node's internals, or V8. */
function bucket(url) {
  if (!url) return '(native / V8)';
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (pkg) return pkg[1];
  const ours = /\/dist\/(.+)$/.exec(url);
  if (ours) return `agentsync ${ours[1].split('/').slice(0, 2).join('/')}`;
  if (url.startsWith('node:')) return 'node internals';
  return url;
}

const functions = new Map();
const buckets = new Map();
for (const [id, us] of selfUs) {
  const node = byId.get(id);
  const frame = node.callFrame;
  const name = `${frame.functionName || '(anonymous)'} ${bucket(frame.url)}:${frame.lineNumber + 1}`;
  const key = frame.functionName === '(garbage collector)' ? '(garbage collector)' : frame.functionName === '(idle)' ? '(idle)' : name;
  functions.set(key, (functions.get(key) ?? 0) + us);
  const b = ['(garbage collector)', '(idle)', '(program)'].includes(frame.functionName) ? frame.functionName : bucket(frame.url);
  buckets.set(b, (buckets.get(b) ?? 0) + us);
}

const ms = (us) => (us / 1000).toFixed(1).padStart(8);
const pct = (us) => `${((100 * us) / totalUs).toFixed(1).padStart(5)}%`;
process.stdout.write(`profile ${file}: ${(totalUs / 1000).toFixed(0)} ms wall\n\nself time by package:\n`);
for (const [name, us] of [...buckets].sort((a, b) => b[1] - a[1]).slice(0, 15)) process.stdout.write(`${ms(us)} ms ${pct(us)}  ${name}\n`);
process.stdout.write(`\ntop ${top} functions by self time:\n`);
for (const [name, us] of [...functions].sort((a, b) => b[1] - a[1]).slice(0, top)) process.stdout.write(`${ms(us)} ms ${pct(us)}  ${name}\n`);
