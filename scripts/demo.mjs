#!/usr/bin/env node
// `npm run demo`: the whole loop with no account, key or network. Starts the emulator in this
// process on a free port, runs the real CLI (`apply`, then `plan`) as a child process against the
// root agents.yaml, and keeps the state in a temporary folder so the repository stays clean.
// It lives in scripts/, not src/: it is for people trying the repository, not for users of the
// package, so it is not built into dist/ beside the CLI.
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import process from 'node:process';
import { fileURLToPath, URL } from 'node:url';
import { DEFAULT_API_KEY, startEmulator } from '../dist/emulator/index.js';

const root = fileURLToPath(new URL('../', import.meta.url));
const cli = fileURLToPath(new URL('../dist/cli/main.cjs', import.meta.url));

/** @param {readonly string[]} args @param {NodeJS.ProcessEnv} env @returns {Promise<number>} */
function run(args, env) {
  process.stdout.write(`\n$ agentsync ${args.join(' ')}\n\n`);
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [cli, ...args], { stdio: 'inherit', env, cwd: root });
    child.on('error', reject);
    child.on('exit', (code, signal) => resolve(code ?? (signal ? 1 : 0)));
  });
}

/** @returns {Promise<number>} */
async function main() {
  const apiKey = DEFAULT_API_KEY;
  const emulator = await startEmulator({ port: 0, apiKey });
  const stateDir = await mkdtemp(join(tmpdir(), 'agentsync-demo-'));
  process.stdout.write(`Emulator running at ${emulator.url} (state in ${stateDir})\n`);
  const env = { ...process.env, COMETCHAT_API_KEY: apiKey, AGENTSYNC_BASE_URL: emulator.url };
  const common = ['--file', 'agents.yaml', '--env', 'local', '--state', join(stateDir, 'local.state.json')];
  try {
    // --wait: the website declared by URL is crawled and indexed before the plan runs.
    const applied = await run(['apply', '--auto-approve', '--wait', ...common], env);
    if (applied !== 0) return applied;
    return await run(['plan', ...common], env);
  } finally {
    await emulator.close();
    await rm(stateDir, { recursive: true, force: true });
  }
}

process.exitCode = await main();
