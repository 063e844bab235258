// Builds P3's stack floor (bench/stack-floor/validate.mjs) the ways agentsync itself ships.
import console from 'node:console';
import process from 'node:process';
import { chmodSync, copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { execFileSync } from 'node:child_process';
import { build } from 'esbuild';

const require = createRequire(import.meta.url);

/**
 * The floor as the npm package's bin: bundled to `agentsync.cjs` with the bundle's settings
 * (scripts/bundle.mjs), beside a copy of dist/cli/main.cjs, which loads it through the same code
 * cache. Returns the folder; its `agentsync.cjs` run directly is the same floor under Node's own
 * compile cache.
 */
export async function buildStackFloorScript(ctx) {
  const folder = join(ctx.workDir, 'stack-floor');
  mkdirSync(folder, { recursive: true });
  await bundle(ctx, join(folder, 'agentsync.cjs'));
  copyFileSync(ctx.cli, join(folder, 'main.cjs'));
  return folder;
}

/** The floor as a single-file binary built by `node`, from a startup snapshot, as scripts/sea.mjs builds agentsync's. */
export async function buildStackFloorBinary(ctx, node, warmUpManifest) {
  // scripts/sea.mjs also re-signs a macOS binary; the floor is measured where CI runs.
  if (process.platform !== 'linux') throw new Error('the stack floor binary is built on Linux only');
  const folder = join(ctx.workDir, 'stack-floor-sea');
  mkdirSync(folder, { recursive: true });
  const script = join(folder, 'floor.cjs');
  await bundle(ctx, script);
  const blob = join(folder, 'floor.blob');
  const config = join(folder, 'sea-config.json');
  writeFileSync(config, JSON.stringify({ main: script, output: blob, disableExperimentalSEAWarning: true, useSnapshot: true }));
  execFileSync(node, ['--experimental-sea-config', config], { stdio: ['ignore', 'ignore', 'pipe'], env: { ...process.env, AGENTSYNC_STACK_FLOOR_WARM_UP: warmUpManifest } });
  const binary = join(folder, 'agentsync-stack-floor');
  copyFileSync(node, binary);
  chmodSync(binary, 0o755);
  const { inject } = require('postject');
  // postject's ELF reader warns about Node's unnamed note sections (see scripts/sea.mjs); harmless here.
  const warn = console.warn;
  console.warn = () => {};
  try {
    await inject(binary, 'NODE_SEA_BLOB', readFileSync(blob), { sentinelFuse: 'NODE_SEA_FUSE_fce680ab2cc467b6e072b8b5df1996b2' });
  } finally {
    console.warn = warn;
  }
  return binary;
}

function bundle(ctx, outfile) {
  return build({
    bundle: true,
    format: 'cjs',
    platform: 'node',
    target: 'node20',
    logLevel: 'warning',
    entryPoints: [join(ctx.root, 'bench', 'stack-floor', 'validate.mjs')],
    outfile,
    minifyWhitespace: true,
    minifySyntax: true,
  });
}
