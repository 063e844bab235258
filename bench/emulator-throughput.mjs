#!/usr/bin/env node
// Measures how many tool PUTs per second the emulator sustains (no latency, loopback).
// The emulator runs from dist/ in a child process so the load generator does not steal its CPU.
// Usage: npm run build && node bench/emulator-throughput.mjs [--duration 10] [--connections 10] [--baseline]
// Prints one JSON object: { putsPerSecond, ... }. The target is ≥ 5,000.
// --baseline also measures a bare node:http server that parses the JSON and echoes it, under the
// same load, so a figure from a busy machine can be read as a share of what node:http itself does.
import { spawn } from 'node:child_process';
import console from 'node:console';
import { existsSync } from 'node:fs';
import process from 'node:process';
import { fileURLToPath, URL } from 'node:url';
import autocannon from 'autocannon';

const TARGET_PUTS_PER_SECOND = 5000;
const API_KEY = 'bench-key';
const DISTINCT_TOOLS = 1000;

const args = process.argv.slice(2);
const option = (name, fallback) => {
  const at = args.indexOf(`--${name}`);
  return at >= 0 && args[at + 1] !== undefined ? Number(args[at + 1]) : fallback;
};
const durationSeconds = option('duration', 10);
const withBaseline = args.includes('--baseline');
const connections = option('connections', 10);

const emulatorModule = fileURLToPath(new URL('../dist/emulator/index.js', import.meta.url));
if (!existsSync(emulatorModule)) {
  console.error('dist/emulator/index.js is missing; run `npm run build` first.');
  process.exit(1);
}

/** Each line on the server's stdin asks for its CPU time so far; it answers with one JSON line. */
const CPU_REPORTER = `
  process.stdin.setEncoding('utf8');
  process.stdin.on('data', () => { const cpu = process.cpuUsage(); process.stdout.write(JSON.stringify(cpu.user + cpu.system) + '\\n'); });
`;

const EMULATOR_SCRIPT = `
  const { startEmulator } = await import(${JSON.stringify(new URL('../dist/emulator/index.js', import.meta.url).href)});
  // putCreates: the load PUTs many names, so PUT must create as well as merge (the seed reading).
  const emulator = await startEmulator({ port: 0, apiKey: ${JSON.stringify(API_KEY)}, quiet: true, putCreates: true });
  process.stdout.write(emulator.url + '\\n');
  process.on('SIGTERM', async () => { await emulator.close(); process.exit(0); });
  ${CPU_REPORTER}
`;

const BARE_NODE_SCRIPT = `
  const { createServer } = await import('node:http');
  const server = createServer((req, res) => {
    const chunks = [];
    req.on('data', (chunk) => chunks.push(chunk));
    req.on('end', () => {
      const text = JSON.stringify({ ...JSON.parse(Buffer.concat(chunks).toString()), _id: 'x' });
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
      res.end(text);
    });
  });
  server.listen(0, '127.0.0.1', () => process.stdout.write('http://127.0.0.1:' + server.address().port + '/v3\\n'));
  process.on('SIGTERM', () => process.exit(0));
  ${CPU_REPORTER}
`;

/** Starts a server script in its own process; resolves with its base URL and a CPU-time probe. */
function startServerChild(script) {
  const child = spawn(process.execPath, ['--input-type=module', '-e', script], { stdio: ['pipe', 'pipe', 'inherit'] });
  const lines = [];
  const waiting = [];
  let buffered = '';
  child.stdout.setEncoding('utf8');
  child.stdout.on('data', (chunk) => {
    buffered += chunk;
    let newline;
    while ((newline = buffered.indexOf('\n')) >= 0) {
      const line = buffered.slice(0, newline).trim();
      buffered = buffered.slice(newline + 1);
      const waiter = waiting.shift();
      if (waiter) waiter(line);
      else lines.push(line);
    }
  });
  const nextLine = () => (lines.length > 0 ? Promise.resolve(lines.shift()) : new Promise((resolve) => waiting.push(resolve)));
  const cpuMicros = async () => {
    child.stdin.write('cpu\n');
    return Number(await nextLine());
  };
  return new Promise((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`server exited early with ${code}`)));
    void nextLine().then((url) => resolve({ child, url, cpuMicros }));
  });
}

function toolBody(name) {
  return JSON.stringify({
    name,
    displayName: `Tool ${name}`,
    executionText: `Running ${name}`,
    description: 'A benchmark tool with one parameter.',
    parameters: { type: 'object', properties: { city: { type: 'string', description: 'City name' } }, required: ['city'] },
  });
}

let counter = 0;

/** Runs the load and also reports the server's own CPU time per request, which a busy machine distorts far less than wall-clock throughput. */
async function measure(script) {
  const { child, url, cpuMicros } = await startServerChild(script);
  try {
    const before = await cpuMicros();
    const result = await load(url);
    const cpuMicrosPerPut = ((await cpuMicros()) - before) / result.requests.total;
    return { result, cpuMicrosPerPut };
  } finally {
    child.kill('SIGTERM');
  }
}

function load(url) {
  return autocannon({
    url,
    connections,
    duration: durationSeconds,
    requests: [
      {
        method: 'PUT',
        headers: { apikey: API_KEY, 'content-type': 'application/json' },
        // Cycle through many tool names so the run mixes creates and merge-updates.
        setupRequest: (request) => {
          const name = `bench_tool_${counter++ % DISTINCT_TOOLS}`;
          return { ...request, path: `/v3/ai-agents/tools/${name}`, body: toolBody(name) };
        },
      },
    ],
  });
}

const { result, cpuMicrosPerPut } = await measure(EMULATOR_SCRIPT);
const baselineRun = withBaseline ? await measure(BARE_NODE_SCRIPT) : undefined;
const baseline = baselineRun?.result;
const putsPerSecond = Math.round(result.requests.average);
const report = {
  putsPerSecond,
  target: TARGET_PUTS_PER_SECOND,
  meetsTarget: putsPerSecond >= TARGET_PUTS_PER_SECOND,
  totalRequests: result.requests.total,
  non2xx: result.non2xx,
  errors: result.errors,
  timeouts: result.timeouts,
  latencyMs: { p50: result.latency.p50, p99: result.latency.p99, max: result.latency.max },
  serverCpuMicrosPerPut: Number(cpuMicrosPerPut.toFixed(1)),
  // What one fully available core would sustain at that CPU cost.
  putsPerSecondPerServerCore: Math.round(1e6 / cpuMicrosPerPut),
  connections,
  durationSeconds,
  node: process.version,
  ...(baseline && {
    baselinePutsPerSecond: Math.round(baseline.requests.average),
    baselineCpuMicrosPerPut: Number(baselineRun.cpuMicrosPerPut.toFixed(1)),
    relativeToBareNode: Number((result.requests.average / baseline.requests.average).toFixed(2)),
  }),
};
console.log(JSON.stringify(report, null, 2));
if (result.non2xx > 0 || result.errors > 0) process.exitCode = 1;
