// Bundles the CLI after tsc. The `agentsync` bin, dist/cli/main.cjs, is src/cli/main.ts: a few
// lines that load the bundles below through V8's code cache (src/io/code-cache.ts); tsc's ESM
// dist/cli/main.js does the same, a little slower to start. Start-up is mostly compiling code, and one cached CommonJS file compiles
// far faster than a few hundred ES modules (zod alone is ~60); see BENCHMARKS.md (P3).
// - dist/cli/agentsync.cjs: the CLI (src/cli/entry.ts) with zod, yaml and commander;
// - dist/cli/vendor/{undici,pg}.cjs: the two large dependencies only some commands need, loaded on
//   first use, so `validate` or `plan --offline` never read them.
// CommonJS, because Node 20 can cache compiled code only for scripts (vm.Script), not ES modules.
// tsc's per-module output stays in dist/ for the library entry and the types: dist/index.js
// (`import … from 'agentsync'`, see package.json `exports`) is not bundled, so a project that
// imports it shares zod, yaml, undici and pg with its own dependency tree and never loads commander
// or the CLI. test/package/ checks both the tarball and that import.
import { rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { build } from 'esbuild';

const require = createRequire(import.meta.url);
const VENDORED = ['undici', 'pg'];

// Earlier builds split ES module chunks into dist/chunks; drop them and the previous vendor files.
rmSync('dist/chunks', { recursive: true, force: true });
rmSync('dist/cli/vendor', { recursive: true, force: true });

const common = { bundle: true, format: 'cjs', platform: 'node', target: 'node20', logLevel: 'warning', outExtension: { '.js': '.cjs' } };

const cli = await build({
  ...common,
  entryPoints: { agentsync: 'src/cli/entry.ts' },
  outdir: 'dist/cli',
  sourcemap: true,
  plugins: [vendorAsSeparateFiles(), childProcessOnFirstUse(), builtinImportsAsRequire()],
  metafile: true,
  // package-version.ts finds package.json from its own URL; in the bundle that is the bundle's.
  define: { 'import.meta.url': '__agentsyncBundleUrl' },
  banner: { js: 'var __agentsyncBundleUrl = require("node:url").pathToFileURL(__filename).href;' },
});

assertNoDynamicImport(cli.metafile);

// The bin itself: CommonJS too, because an ES module entry costs Node ~10 ms more to start.
await build({
  ...common,
  entryPoints: { main: 'src/cli/main.ts' },
  outdir: 'dist/cli',
  define: { 'import.meta.url': '__agentsyncBundleUrl' },
  banner: { js: 'var __agentsyncBundleUrl = require("node:url").pathToFileURL(__filename).href;' },
});

const vendor = await build({
  ...common,
  entryPoints: Object.fromEntries(VENDORED.map((name) => [name, require.resolve(name)])),
  outdir: 'dist/cli/vendor',
  metafile: true,
});
assertNoDynamicImport(vendor.metafile);

/**
 * esbuild keeps `await import('node:readline/promises')` as an import() in CommonJS output, and an
 * import() cannot run in a script compiled from V8's code cache on Node 20 (the callback that loads
 * it is lost). Such an import instead loads a one-line module that requires the builtin, so it stays
 * lazy and becomes a require.
 */
function builtinImportsAsRequire() {
  return {
    name: 'builtin-imports-as-require',
    setup(build) {
      build.onResolve({ filter: /^node:/ }, (args) => (args.kind === 'dynamic-import' ? { path: args.path, namespace: 'builtin-as-require' } : undefined));
      build.onLoad({ filter: /.*/, namespace: 'builtin-as-require' }, (args) => ({ contents: `module.exports = require(${JSON.stringify(args.path)});\n`, loader: 'js' }));
    },
  };
}

/** The check for the rule above: a build that would fail at run time fails here instead. */
function assertNoDynamicImport(metafile) {
  for (const [file, input] of Object.entries(metafile.inputs)) {
    for (const imported of input.imports) {
      if (imported.kind === 'dynamic-import' && imported.external) throw new Error(`${file}: import('${imported.path}') would stay an import() in the CommonJS bundle; see builtinImportsAsRequire`);
    }
  }
}

/**
 * commander requires node:child_process when it loads, for subcommands that are separate programs,
 * which agentsync has none of. Loading it pulls in net, dgram and streams: ~3 ms of every start.
 * This hands commander an object that loads the real module only if a property is ever read.
 */
function childProcessOnFirstUse() {
  return {
    name: 'child-process-on-first-use',
    setup(build) {
      build.onResolve({ filter: /^(node:)?child_process$/ }, (args) =>
        args.importer.includes('node_modules/commander/') ? { path: 'child_process', namespace: 'on-first-use' } : undefined,
      );
      build.onLoad({ filter: /.*/, namespace: 'on-first-use' }, () => ({
        contents: 'let real;\nmodule.exports = new Proxy({}, { get: (_, key) => (real ??= require("node:child_process"))[key] });\n',
        loader: 'js',
      }));
    },
  };
}

/** `import … from 'undici'` in the CLI becomes require('./vendor/undici.cjs'), run when first needed. */
function vendorAsSeparateFiles() {
  return {
    name: 'vendor-as-separate-files',
    setup(build) {
      build.onResolve({ filter: new RegExp(`^(${VENDORED.join('|')})$`) }, (args) => ({ path: `./vendor/${args.path}.cjs`, external: true }));
    },
  };
}
