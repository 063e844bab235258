#!/usr/bin/env node
// Records what a user sees of every manifest in examples/: `plan --offline`, then against a fresh
// emulator `apply`, `plan` and `export`, each as text and as --json, with the exit code. Run it on
// two commits and compare the folders byte for byte (`diff -r before after`): a refactoring that
// changes nothing a user sees leaves them identical.
//
//   node scripts/compare-outputs.mjs OUT_DIR    (after `npm run build`)
//
// The emulator's URL, the temporary folder, call timings and the ids the emulator makes up are
// replaced by fixed words, since they change from run to run.
import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import process from 'node:process';
import { fileURLToPath, URL } from 'node:url';
import { parse } from 'yaml';
import { readFileSync } from 'node:fs';
import { DEFAULT_API_KEY, startEmulator } from '../dist/emulator/index.js';

const root = fileURLToPath(new URL('../', import.meta.url));
const cli = fileURLToPath(new URL('../dist/cli/main.cjs', import.meta.url));

/** @param {readonly string[]} args @param {NodeJS.ProcessEnv} env @returns {Promise<{ code: number, stdout: string, stderr: string }>} */
function run(args, env) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [cli, ...args], { env, cwd: root });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (code, signal) => resolve({ code: code ?? (signal ? 1 : 0), stdout, stderr }));
  });
}

/** @param {string} text @param {Record<string, string>} words */
function stable(text, words) {
  let out = text;
  for (const [from, to] of Object.entries(words)) out = out.split(from).join(to);
  // What differs from run to run by nature: call timings and the ids the emulator makes up.
  return out
    .replace(/\b\d+ ms\)/g, 'N ms)')
    .replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, 'UUID')
    .replace(/batch-\d+-(\d+)/g, 'batch-T-$1');
}

/** @param {string} file @returns {string} the manifest's first environment */
function firstEnvironment(file) {
  const manifest = parse(readFileSync(join(root, 'examples', file), 'utf8'));
  return Object.keys(manifest?.environments ?? { prod: {} })[0] ?? 'prod';
}

/** @param {string} out @param {string} file */
async function recordExample(out, file) {
  const env = firstEnvironment(file);
  const dir = await mkdtemp(join(tmpdir(), 'agentsync-compare-'));
  const emulator = await startEmulator({ port: 0, apiKey: DEFAULT_API_KEY });
  const words = { [emulator.url]: 'EMULATOR', [dir]: 'TMP' };
  const base = { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0', COMETCHAT_API_KEY: DEFAULT_API_KEY, LANGGRAPH_TOKEN: 'compare-token' };
  const online = { ...base, AGENTSYNC_BASE_URL: emulator.url };
  const common = ['--file', `examples/${file}`, '--env', env, '--state', join(dir, 'state.json')];
  const steps = [
    ['plan-offline', ['plan', '--offline', ...common], base],
    ['plan-offline-json', ['plan', '--offline', '--json', ...common], base],
    ['plan-before', ['plan', ...common], online],
    ['apply', ['apply', '--auto-approve', ...common], online],
    ['plan-after', ['plan', ...common], online],
    ['plan-after-json', ['plan', '--json', ...common], online],
    ['apply-again-json', ['apply', '--auto-approve', '--json', ...common], online],
    ['export', ['export', '--file', `examples/${file}`, '--env', env], online],
  ];
  try {
    for (const [name, args, envVars] of steps) {
      const result = await run(args, envVars);
      const text = `exit ${result.code}\n--- stdout\n${result.stdout}--- stderr\n${result.stderr}`;
      await writeFile(join(out, `${file}.${name}.txt`), stable(text, words));
    }
  } finally {
    await emulator.close();
    await rm(dir, { recursive: true, force: true });
  }
}

const out = process.argv[2];
if (out === undefined) {
  process.stderr.write('usage: node scripts/compare-outputs.mjs OUT_DIR\n');
  process.exit(2);
}
await mkdir(out, { recursive: true });
const examples = (await readdir(join(root, 'examples'))).filter((name) => /\.ya?ml$/.test(name) && !/nightly|github-actions/.test(name)).sort();
for (const file of examples) await recordExample(out, file);
process.stdout.write(`${examples.length} examples recorded in ${out}\n`);
