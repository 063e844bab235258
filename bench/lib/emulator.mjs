// Starts `agentsync emulator` as its own process (so its work never shares the benchmark
// runner's event loop) and talks to its `/__emulator/*` admin endpoints.
import process from 'node:process';
import { spawn } from 'node:child_process';
import { setTimeout, clearTimeout } from 'node:timers';

export const EMULATOR_API_KEY = 'bench-key';

/**
 * @param {string} cli  path of dist/cli/main.cjs
 * @param {{ latency?: number, rateLimit?: number, failRate?: number, data?: string }} [flags]
 */
export async function startEmulatorProcess(cli, flags = {}) {
  const args = [cli, 'emulator', '--port', '0', '--api-key', EMULATOR_API_KEY];
  if (flags.latency !== undefined) args.push('--latency', String(flags.latency));
  if (flags.rateLimit !== undefined) args.push('--rate-limit', String(flags.rateLimit));
  if (flags.failRate !== undefined) args.push('--fail-rate', String(flags.failRate));
  if (flags.data !== undefined) args.push('--data', flags.data);
  // stderr is drained but not kept: the emulator prints one line per request there.
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'ignore'] });
  const url = await new Promise((resolve, reject) => {
    let seen = '';
    const timer = setTimeout(() => reject(new Error(`emulator did not become ready: ${seen}`)), 20_000);
    child.on('exit', (code) => reject(new Error(`emulator exited ${code} before it was ready: ${seen}`)));
    child.stdout.setEncoding('utf8').on('data', (chunk) => {
      seen += chunk;
      const match = /(http:\/\/[^\s]+\/v3)/.exec(seen);
      if (match) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    });
  });
  const origin = url.replace(/\/v3$/, '');
  return {
    url,
    origin,
    admin: (path, init) => adminCall(origin, path, init),
    reset: async () => {
      await adminCall(origin, '/__emulator/reset', { method: 'POST' });
      await adminCall(origin, '/__emulator/requests', { method: 'DELETE' });
      await adminCall(origin, '/__emulator/stats', { method: 'DELETE' });
    },
    configure: (config) => adminCall(origin, '/__emulator/config', { method: 'POST', body: JSON.stringify(config) }),
    // The log comes in pages of about 1 MB; `next` continues it.
    requests: async () => {
      const all = [];
      for (let after = 0; ;) {
        const page = await adminCall(origin, `/__emulator/requests?after=${after}`);
        all.push(...page.requests);
        if (page.next === undefined) return all;
        after = page.next;
      }
    },
    /** The emulator process's own CPU time so far, in ms (user + system). */
    cpuMs: async () => {
      const { cpuUserMs, cpuSystemMs } = await adminCall(origin, '/__emulator/runtime');
      return cpuUserMs + cpuSystemMs;
    },
    stop: () =>
      new Promise((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

async function adminCall(origin, path, init = {}) {
  const response = await globalThis.fetch(`${origin}${path}`, { ...init, headers: { 'content-type': 'application/json' } });
  const body = await response.json();
  if (!response.ok) throw new Error(`${init.method ?? 'GET'} ${path} → ${response.status}: ${JSON.stringify(body)}`);
  return body;
}

/**
 * The network phase of one apply, from the emulator's log: first arrival to last response.
 * `changesOnly` leaves out the GETs of the refresh, which come before planning, so that the phase
 * is the executor's alone.
 */
export function networkPhaseMs(allRequests, { changesOnly = false } = {}) {
  const requests = changesOnly ? allRequests.filter((r) => r.method !== 'GET') : allRequests;
  if (requests.length === 0) return null;
  const starts = requests.map((r) => Date.parse(r.time));
  const ends = requests.map((r) => Date.parse(r.time) + (r.durationMs ?? 0));
  return Math.max(...ends) - Math.min(...starts);
}
