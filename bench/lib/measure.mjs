// Runs one command as its own child process and measures its wall time, peak RSS and, with GNU
// time, its CPU time (user + system, from the same rusage).
// Peak RSS comes from GNU time (`/usr/bin/time -f %M`), which reads the child's rusage, so the
// figure is the process's own high-water mark and not a sample. Without GNU time a preload
// (rss-probe.mjs) reports `process.resourceUsage().maxRSS` of Node children instead.
import process from 'node:process';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, openSync, closeSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { URL, fileURLToPath } from 'node:url';

const GNU_TIME = '/usr/bin/time';
const hasGnuTime = existsSync(GNU_TIME);
const probe = fileURLToPath(new URL('./rss-probe.mjs', import.meta.url));
const scratch = mkdtempSync(join(tmpdir(), 'agentsync-bench-measure-'));
let counter = 0;

export const rssSource = hasGnuTime ? 'GNU time %M (rusage ru_maxrss of the child)' : 'process.resourceUsage().maxRSS via a --import preload';

/**
 * @param {string} command  usually process.execPath
 * @param {string[]} args
 * @param {{ cwd?: string, env?: NodeJS.ProcessEnv, keepStdout?: boolean }} [options]
 * @returns {Promise<{ ms: number, rssKb: number | null, cpuMs: number | null, code: number | null, signal: string | null, stdout: string, stderr: string }>}
 */
export function measure(command, args, options = {}) {
  const rssFile = join(scratch, `rss-${++counter}`);
  const env = { ...process.env, ...options.env };
  let file = command;
  let argv = args;
  if (hasGnuTime) {
    file = GNU_TIME;
    // Peak RSS last: readRss takes the last figure.
    argv = ['-f', '%U %S %M', '-o', rssFile, command, ...args];
  } else if (command === process.execPath) {
    argv = ['--import', probe, ...args];
    env.AGENTSYNC_BENCH_RSS_FILE = rssFile;
  }
  // Output nobody reads goes to /dev/null, so a large plan is not slowed by a pipe we drain.
  const devNull = options.keepStdout ? undefined : openSync('/dev/null', 'w');
  return new Promise((resolve, reject) => {
    const started = process.hrtime.bigint();
    const child = spawn(file, argv, { cwd: options.cwd, env, stdio: ['ignore', devNull ?? 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout?.setEncoding('utf8').on('data', (chunk) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (code, signal) => {
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      if (devNull !== undefined) closeSync(devNull);
      resolve({ ms, ...readRusage(rssFile), code, signal, stdout, stderr });
    });
  });
}

/** Peak RSS (KB) and, from GNU time's `%U %S %M`, CPU time (ms); the preload reports only the RSS. */
function readRusage(path) {
  if (!existsSync(path)) return { rssKb: null, cpuMs: null };
  const text = readFileSync(path, 'utf8').trim();
  rmSync(path, { force: true });
  // GNU time prefixes "Command exited with non-zero status N" on failure; the figures are last.
  const figures = text.split(/\s+/).map(Number);
  const rss = figures.at(-1);
  const [user, system] = hasGnuTime ? figures.slice(-3, -1) : [];
  const cpuMs = Number.isFinite(user) && Number.isFinite(system) && figures.length >= 3 ? Math.round((user + system) * 1000) : null;
  return { rssKb: Number.isFinite(rss) ? rss : null, cpuMs };
}

export function median(values) {
  const sorted = values.filter((v) => typeof v === 'number' && Number.isFinite(v)).sort((a, b) => a - b);
  if (sorted.length === 0) return null;
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/** Throws with the child's stderr when a measured command failed, so a broken run never becomes a number. */
export function expectExit(result, expected, label) {
  if (result.code !== expected) {
    throw new Error(`${label} exited ${result.code ?? result.signal} (expected ${expected}): ${result.stderr.trim().slice(0, 2000)}`);
  }
  return result;
}

export function cleanupScratch() {
  rmSync(scratch, { recursive: true, force: true });
}
