// `npm run sea`: agentsync as one file that needs no Node.js and no node_modules, a Node single
// executable application (https://nodejs.org/api/single-executable-applications.html):
// 1. esbuild bundles the CLI (src/cli/entry.ts) with its dependencies into one CommonJS script (a
//    SEA can require builtins only), with the version compiled in, and undici, pg and the emulator
//    into three more;
// 2. `node --experimental-sea-config` runs it once and turns the result into a blob holding a V8
//    startup snapshot (`useSnapshot`, src/cli/snapshot.ts): the binary starts with the CLI already
//    evaluated instead of compiling and running it (BENCHMARKS.md, P3). A snapshot replaces
//    `useCodeCache` (Node ignores the code cache when both are set). Every function of the script
//    (esbuild lifts those of lazily imported modules to its top level) is in the snapshot that each
//    start deserialises, called or not, so what only some commands load is not in it: undici and
//    pg (the commands that reach a server or PostgreSQL) and the emulator (the `emulator` command)
//    are assets of the binary, compiled when first used (fromAssets below);
// 3. postject injects the blob into a copy of the running node binary.
// The binary is for the platform that builds it: agentsync-linux-x64 here, agentsync-darwin-arm64 on
// a Mac (its signature is removed before the injection and an ad-hoc one added after), and
// agentsync-win32-x64.exe on Windows. Release builds for each come from running this on each kind of
// runner (see "Single-file binary" in README.md).
// Usage: node scripts/sea.mjs [OUTPUT]  (default: ./agentsync-<platform>-<arch>[.exe])
import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, copyFileSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { basename, join, resolve } from 'node:path';
import console from 'node:console';
import process from 'node:process';
import { build } from 'esbuild';
import { asciiOnly, assertNoDynamicImport, builtinImportsAsRequire, childProcessOnFirstUse, http2OnFirstConnect, undiciPoolOnly, versionDefine } from './bundle-plugins.mjs';

const require = createRequire(import.meta.url);
const { inject } = require('postject');
const VENDORED = ['undici', 'pg'];
const EMULATOR = 'src/emulator/index.ts';

const windows = process.platform === 'win32';
const mac = process.platform === 'darwin';
const output = resolve(process.argv[2] ?? `agentsync-${process.platform}-${process.arch}${windows ? '.exe' : ''}`);
// One working folder per output, so two builds (two test runs) never share a blob.
const work = join('dist', 'sea', `${process.pid}`);
rmSync(work, { recursive: true, force: true });
mkdirSync(work, { recursive: true });

try {
  const { assets, emulatorInputs } = await buildAssets();
  const script = join(work, 'agentsync.cjs');
  const bundled = await build({
    bundle: true,
    format: 'cjs',
    platform: 'node',
    target: 'node20',
    logLevel: 'warning',
    entryPoints: ['src/cli/entry.ts'],
    outfile: script,
    metafile: true,
    plugins: [childProcessOnFirstUse(), builtinImportsAsRequire(), fromAssets()],
    // A smaller script is a smaller snapshot to deserialise at every start (2.5 MB less; renaming
    // identifiers as well saved no more time).
    minifyWhitespace: true,
    minifySyntax: true,
    define: {
      ...versionDefine(),
      'import.meta.url': '__agentsyncBundleUrl',
      __AGENTSYNC_SEA_SNAPSHOT__: 'true',
      // The snapshot's warm-up runs validate on the manifest P3 measures (src/cli/snapshot.ts).
      __AGENTSYNC_WARM_UP_MANIFEST__: JSON.stringify(readFileSync('examples/minimal.yaml', 'utf8')),
    },
    // In a SEA, __filename is the binary itself: nothing is read beside it.
    banner: { js: 'var __agentsyncBundleUrl = require("node:url").pathToFileURL(__filename).href;' },
  });
  assertNoDynamicImport(bundled.metafile);
  assertSharedModulesAreStateless(Object.keys(bundled.metafile.inputs), emulatorInputs);
  asciiOnly(script);

  const blob = join(work, 'sea-prep.blob');
  const config = join(work, 'sea-config.json');
  writeFileSync(config, JSON.stringify({ main: script, output: blob, disableExperimentalSEAWarning: true, useSnapshot: true, assets }));
  const blobBuild = spawnSync(process.execPath, ['--experimental-sea-config', config], { stdio: ['ignore', 'ignore', 'pipe'], encoding: 'utf8' });
  process.stderr.write(withoutKnownNoise(blobBuild.stderr ?? ''));
  if (blobBuild.status !== 0) throw new Error(`node --experimental-sea-config failed (${blobBuild.status ?? blobBuild.signal})`);

  rmSync(output, { force: true });
  copyFileSync(process.execPath, output);
  chmodSync(output, 0o755);
  if (mac) execFileSync('codesign', ['--remove-signature', output]);
  // postject's ELF reader (LIEF) warns once per note section of Node's binary that has no name in
  // the section-name table ("Can't find string offset for section name '.note.100'", nine times).
  // It only reads those sections and injects fine (nodejs/postject#83; test/package/sea.test.ts runs
  // the result); its messages go through console.warn, so only these are dropped.
  const warn = console.warn;
  console.warn = (...args) => {
    if (!/^warning: Can't find string offset for section name '\.note[\w.]*'$/.test(String(args[0]))) warn(...args);
  };
  try {
    await inject(output, 'NODE_SEA_BLOB', readFileSync(blob), {
      sentinelFuse: 'NODE_SEA_FUSE_fce680ab2cc467b6e072b8b5df1996b2',
      ...(mac ? { machoSegmentName: 'NODE_SEA' } : {}),
    });
  } finally {
    console.warn = warn;
  }
  if (mac) execFileSync('codesign', ['--sign', '-', output]);
  process.stdout.write(`${output}\n`);
} finally {
  rmSync(work, { recursive: true, force: true });
}

/** undici (its Pool) and pg as the npm package has them (scripts/bundle.mjs), and the emulator: the binary's assets, by name. */
async function buildAssets() {
  const folder = join(work, 'assets');
  const common = { bundle: true, format: 'cjs', platform: 'node', target: 'node20', logLevel: 'warning', outdir: folder, outExtension: { '.js': '.cjs' }, metafile: true };
  const vendor = await build({ ...common, entryPoints: { undici: 'undici', pg: require.resolve('pg') }, plugins: [undiciPoolOnly(), http2OnFirstConnect()] });
  const emulator = await build({ ...common, entryPoints: { emulator: EMULATOR }, plugins: [builtinImportsAsRequire()] });
  const assets = {};
  for (const { metafile } of [vendor, emulator]) {
    assertNoDynamicImport(metafile);
    for (const file of Object.keys(metafile.outputs)) {
      asciiOnly(file);
      assets[basename(file)] = file;
    }
  }
  return { assets, emulatorInputs: Object.keys(emulator.metafile.inputs) };
}

/**
 * `import … from 'undici'` (or 'pg'), and the CLI's `import('…/emulator/index.js')`, in the binary's
 * script: compiles and runs the asset when the importing module is first evaluated, which is never
 * while the snapshot is built (a snapshot is built before the binary has assets). No code cache:
 * the binary rejected one made by the Node that builds it (`cachedDataRejected`), and compiling
 * undici's Pool at the first connection costs no more than the snapshot's copy cost every start
 * (`plan` against the emulator: no slower).
 */
function fromAssets() {
  const emulator = resolve(EMULATOR).replace(/\.ts$/, '.js');
  return {
    name: 'from-assets',
    setup(build) {
      build.onResolve({ filter: new RegExp(`^(${VENDORED.join('|')})$`) }, (args) => ({ path: `vendor/${args.path}`, namespace: 'from-assets' }));
      build.onResolve({ filter: /\/emulator\/index\.js$/ }, (args) => (resolve(args.resolveDir, args.path) === emulator ? { path: 'emulator', namespace: 'from-assets' } : undefined));
      build.onLoad({ filter: /.*/, namespace: 'from-assets' }, (args) => ({
        contents: [
          'const { getAsset } = require("node:sea");',
          'const { Script } = require("node:vm");',
          `const filename = ${JSON.stringify(`agentsync/${args.path}.cjs`)};`,
          `const source = "(function (exports, require, module, __filename, __dirname) {" + getAsset(${JSON.stringify(`${basename(args.path)}.cjs`)}, "utf8") + "\\n})";`,
          'const asset = { exports: {} };',
          'new Script(source, { filename }).runInThisContext().call(asset.exports, asset.exports, require, asset, filename, ".");',
          'module.exports = asset.exports;',
        ].join('\n'),
        loader: 'js',
      }));
    },
  };
}

/**
 * The emulator's asset bundles its own copy of what it imports from outside src/emulator/, so the
 * binary holds two instances of each such module that the script holds too. That is safe for
 * src/core/'s pure functions and constant tables, not for a class (an `instanceof` on the CLI's
 * side would miss the asset's instances) nor for a top-level `let` (state the two sides would not
 * share): a module with either fails the build.
 */
function assertSharedModulesAreStateless(scriptInputs, assetInputs) {
  const script = new Set(scriptInputs);
  for (const file of assetInputs) {
    if (!script.has(file)) continue;
    if (!file.startsWith('src/core/') || /^(export )?((abstract )?class|let) /m.test(readFileSync(file, 'utf8'))) {
      throw new Error(`${file} is in both the binary's script and the emulator's asset, as two instances; only src/core/ modules with no class and no top-level let may be`);
    }
  }
}

/**
 * What Node prints while it builds the blob, less two known messages: the SEA feature's
 * ExperimentalWarning, and the snapshot builder's note that node:async_hooks is "not yet fully
 * verified" in a snapshot. The CLI creates its AsyncLocalStorage (io/api/outside-text.ts) while the
 * snapshot is built but never enters it there (cli/snapshot.ts), so no async state is captured; the
 * binary's tests run commands whose secret scopes use it.
 */
function withoutKnownNoise(text) {
  return text
    .replace(/^\(node:\d+\) ExperimentalWarning: Single executable application is an experimental feature[^\n]*\n/m, '')
    .replace(
      /^\(node:\d+\) Warning: It's not yet fully verified whether built-in module "node:async_hooks" works in user snapshot builder scripts\.\n(?:[^\n(]*\n)*?\(Use `node --trace-warnings[^\n]*\n/m,
      '',
    );
}
