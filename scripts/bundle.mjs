// Bundles after tsc, so that the npm package needs no runtime dependency at all (docs/spec/distribution.md#package).
// - dist/cli/agentsync.cjs: the CLI (src/cli/entry.ts) with zod, yaml, commander and diff. The
//   `agentsync` bin, dist/cli/main.cjs, is src/cli/main.ts: a few lines that load it through V8's
//   code cache (src/io/runtime/code-cache.ts). Start-up is mostly compiling code, and one CommonJS
//   file compiles far faster than a few hundred ES modules (zod alone is ~60); see BENCHMARKS.md (P3).
// - dist/cli/vendor/{undici,pg}.cjs: the two large dependencies only some commands need, loaded on
//   first use, so `validate` or `plan --offline` never read them.
// - dist/index.js: the programmatic API (`import … from 'agentsync'`, src/index.ts), one ES module
//   with zod, yaml and diff inside; it loads undici and pg from the CLI's vendor files above, so
//   they ship once. It never contains commander or the CLI.
// - dist/types/: the API's declarations, with no reference to a package the user does not have
//   (scripts/public-types.mjs).
// tsc's per-module output stays in dist/ for the tests and `npm run demo`; the package
// ships only the bundles (package.json `files`). test/package/ checks the tarball and the import.
import { rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { resolve } from 'node:path';
import { build } from 'esbuild';
import { asciiOnly, assertNoDynamicImport, builtinImportsAsRequire, childProcessOnFirstUse, http2OnFirstConnect, undiciPoolOnly, versionDefine } from './bundle-plugins.mjs';
import { writePublicTypes } from './public-types.mjs';

const require = createRequire(import.meta.url);
const VENDORED = ['undici', 'pg'];

// Earlier builds split ES module chunks into dist/chunks; drop them and the previous vendor files.
rmSync('dist/chunks', { recursive: true, force: true });
rmSync('dist/cli/vendor', { recursive: true, force: true });

const common = { bundle: true, format: 'cjs', platform: 'node', target: 'node20', logLevel: 'warning', outExtension: { '.js': '.cjs' } };
const define = versionDefine();

const cli = await build({
  ...common,
  entryPoints: { agentsync: 'src/cli/entry.ts' },
  outdir: 'dist/cli',
  // For AGENTSYNC_DEBUG=1 in a clone; the package leaves the maps out (they outweigh the code).
  sourcemap: true,
  minifyWhitespace: true,
  minifySyntax: true,
  plugins: [vendorAsSeparateFiles('./vendor'), emulatorAsSeparateFile('./vendor/emulator.cjs'), childProcessOnFirstUse(), builtinImportsAsRequire()],
  metafile: true,
  // The startup snapshot is the single-file binary's alone (scripts/sea.mjs, cli/snapshot.ts).
  define: { ...define, 'import.meta.url': '__agentsyncBundleUrl', __AGENTSYNC_SEA_SNAPSHOT__: 'false' },
  banner: { js: 'var __agentsyncBundleUrl = require("node:url").pathToFileURL(__filename).href;' },
});

assertNoDynamicImport(cli.metafile);
// With the flag false the snapshot code is dead and esbuild leaves it out; make sure it did.
if (Object.values(cli.metafile.outputs).some((output) => 'src/cli/snapshot.ts' in output.inputs)) throw new Error('the npm CLI bundle must not contain src/cli/snapshot.ts');
asciiOnly('dist/cli/agentsync.cjs');

// The bin itself: CommonJS too, because an ES module entry costs Node ~10 ms more to start.
await build({
  ...common,
  entryPoints: { main: 'src/cli/main.ts' },
  outdir: 'dist/cli',
  define: { ...define, 'import.meta.url': '__agentsyncBundleUrl' },
  banner: { js: 'var __agentsyncBundleUrl = require("node:url").pathToFileURL(__filename).href;' },
});

// The emulator, in a file of its own that only `agentsync emulator` loads: every other command's
// start reads (and has the compile cache check) a script a third smaller (BENCHMARKS.md, P3). It
// shares no module state with the CLI (it imports only wire types and url-glob from core/).
const emulator = await build({
  ...common,
  entryPoints: { emulator: 'src/emulator/index.ts' },
  outdir: 'dist/cli/vendor',
  minifyWhitespace: true,
  minifySyntax: true,
  plugins: [vendorAsSeparateFiles('.'), builtinImportsAsRequire()],
  metafile: true,
  define,
});
assertNoDynamicImport(emulator.metafile);
asciiOnly('dist/cli/vendor/emulator.cjs');

const vendor = await build({
  ...common,
  // `undici` goes through undiciPoolOnly: the vendor file is its Pool, not its index.
  entryPoints: { undici: 'undici', pg: require.resolve('pg') },
  plugins: [undiciPoolOnly(), http2OnFirstConnect()],
  outdir: 'dist/cli/vendor',
  metafile: true,
});
assertNoDynamicImport(vendor.metafile);
for (const name of VENDORED) asciiOnly(`dist/cli/vendor/${name}.cjs`);

const api = await build({
  bundle: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  logLevel: 'warning',
  entryPoints: { index: 'src/index.ts' },
  outdir: 'dist',
  metafile: true,
  define,
  plugins: [vendorFromCliFiles('./cli/vendor')],
  // A CommonJS module inside an ES module bundle (yaml's Node build) requires builtins through this.
  banner: { js: 'import { createRequire as __agentsyncCreateRequire } from "node:module";\nconst require = __agentsyncCreateRequire(import.meta.url);' },
});
const cliInApi = Object.keys(api.metafile.inputs).filter((input) => input.includes('node_modules/commander/') || input.startsWith('src/cli/commands/'));
if (cliInApi.length > 0) throw new Error(`the API bundle must not contain the CLI: ${cliInApi.join(', ')}`);

// tsc's map described the per-module dist/index.js this bundle replaced.
rmSync('dist/index.js.map', { force: true });

writePublicTypes('dist/index.d.ts', 'dist/types');

/** `import … from 'undici'` in the CLI becomes require('./vendor/undici.cjs'), run when first needed. */
function vendorAsSeparateFiles(folder) {
  return {
    name: 'vendor-as-separate-files',
    setup(build) {
      build.onResolve({ filter: new RegExp(`^(${VENDORED.join('|')})$`) }, (args) => ({ path: `${folder}/${args.path}.cjs`, external: true }));
    },
  };
}

/**
 * The CLI's `import('../../emulator/index.js')` becomes require('./vendor/emulator.cjs'), run when
 * `agentsync emulator` starts (a require, as builtinImportsAsRequire makes of a builtin's import()).
 */
function emulatorAsSeparateFile(file) {
  const emulator = resolve('src/emulator/index.ts').replace(/\.ts$/, '.js');
  return {
    name: 'emulator-as-separate-file',
    setup(build) {
      build.onResolve({ filter: /\/emulator\/index\.js$/ }, (args) => (resolve(args.resolveDir, args.path) === emulator ? { path: file, namespace: 'emulator-file' } : undefined));
      build.onLoad({ filter: /.*/, namespace: 'emulator-file' }, (args) => ({ contents: `module.exports = require(${JSON.stringify(args.path)});\n`, loader: 'js' }));
      build.onResolve({ filter: /^\.\/vendor\/emulator\.cjs$/ }, (args) => ({ path: args.path, external: true }));
    },
  };
}

/**
 * The same files for the API's ES module: an ES module cannot name the exports of esbuild's
 * CommonJS output (Node sees only `default`), so each import becomes a small module that requires
 * the file and re-exports the names the package has.
 */
function vendorFromCliFiles(folder) {
  return {
    name: 'vendor-from-cli-files',
    setup(build) {
      build.onResolve({ filter: new RegExp(`^(${VENDORED.join('|')})$`) }, (args) => ({ path: args.path, namespace: 'vendor-require' }));
      build.onLoad({ filter: /.*/, namespace: 'vendor-require' }, (args) => {
        // The names the vendor file built above exports (for undici, its Pool alone).
        const names = Object.keys(require(`../dist/cli/vendor/${args.path}.cjs`)).filter((name) => name !== 'default' && /^[A-Za-z_$][\w$]*$/.test(name));
        return {
          contents: [
            'import { createRequire } from "node:module";',
            `const vendored = createRequire(import.meta.url)(${JSON.stringify(`${folder}/${args.path}.cjs`)});`,
            'export default vendored;',
            `export const { ${names.join(', ')} } = vendored;`,
          ].join('\n'),
          loader: 'js',
          resolveDir: 'dist',
        };
      });
    },
  };
}
