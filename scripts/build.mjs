// Builds dist/: tsc (the per-module output and the declarations), then the bundles
// (scripts/bundle.mjs).
//
//   node scripts/build.mjs              always builds (npm run build)
//   node scripts/build.mjs --if-stale   builds only if dist/ was not built from the files as they are
//
// `npm ci` in a clone builds, through package.json's `prepare` (CONTRACT §1: after `npm ci`,
// `npx agentsync --help` works). That script runs this only where scripts/build.mjs exists, so in
// the packed package, which has no scripts/, it does nothing: a folder or git install of the package
// never tries to build without the tools to (test/package/install.test.ts runs it there). The
// scripts that need a built dist/ (npm test, test:torture, test:e2e, demo, bench, sea, and
// `prepack` for npm pack and npm publish) run `--if-stale` too: after `npm ci` they, or a second
// test run with nothing edited, find the 15–20 s build already done.
// A build records a digest of every file it reads (its inputs below, by content) and only after it
// succeeded; a failed or interrupted build leaves no record, so the next run builds.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import process from 'node:process';
import { fileURLToPath } from 'node:url';
import { BUILD_OUTPUTS } from './build-outputs.mjs';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const INPUTS = [
  'src',
  'scripts/build.mjs',
  'scripts/build-outputs.mjs',
  'scripts/bundle.mjs',
  'scripts/bundle-plugins.mjs',
  'scripts/public-types.mjs',
  'package.json',
  'package-lock.json',
  'tsconfig.json',
  'tsconfig.build.json',
];
// Under node_modules, not dist/: nothing that packs or tags dist/ may pick it up, and `npm ci`
// starts without it.
const RECORD = join(ROOT, 'node_modules', '.cache', 'agentsync', 'build-inputs.sha256');

const onlyIfStale = process.argv.includes('--if-stale');
const digest = inputsDigest();

if (onlyIfStale && isCurrent(digest)) {
  process.stderr.write('dist/ is up to date (built from these sources); `npm run build` rebuilds it.\n');
} else {
  // One line per build, so a reader (and the README walk's test) can tell a build from a skip. Both
  // lines go to stderr: stdout is `npm pack --json`'s, which runs this as prepack.
  process.stderr.write('Building dist/ (tsc, then the bundles) …\n');
  rmSync(RECORD, { force: true });
  run(join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc'), ['-p', 'tsconfig.build.json']);
  run(join(ROOT, 'scripts', 'bundle.mjs'), []);
  // The digest taken before the build: a file edited while it ran makes the next --if-stale build again.
  try {
    mkdirSync(dirname(RECORD), { recursive: true });
    writeFileSync(RECORD, `${digest}\n`);
  } catch (err) {
    // The build itself succeeded; without the record the next --if-stale run simply builds again.
    process.stderr.write(`could not record the build in ${relative(ROOT, RECORD)} (${err.code ?? err.message}); the next --if-stale run builds again\n`);
  }
}

function isCurrent(expected) {
  if (BUILD_OUTPUTS.some((file) => !existsSync(join(ROOT, file)))) return false;
  try {
    return readFileSync(RECORD, 'utf8').trim() === expected;
  } catch {
    return false;
  }
}

/** sha256 over every input file's path and bytes, in a fixed order. */
function inputsDigest() {
  const hash = createHash('sha256');
  for (const file of INPUTS.flatMap((input) => filesUnder(join(ROOT, input))).sort()) {
    hash.update(relative(ROOT, file)).update('\0').update(readFileSync(file)).update('\0');
  }
  return hash.digest('hex');
}

function filesUnder(path) {
  if (!existsSync(path)) return [];
  if (!statSync(path).isDirectory()) return [path];
  return readdirSync(path, { withFileTypes: true }).flatMap((entry) => filesUnder(join(path, entry.name)));
}

function run(script, args) {
  const result = spawnSync(process.execPath, [script, ...args], { cwd: ROOT, stdio: 'inherit' });
  if (result.status !== 0) process.exit(result.status ?? 1);
}
