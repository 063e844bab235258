// The esbuild pieces that scripts/bundle.mjs (the npm package) and scripts/sea.mjs (the single-file
// binary) share.
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { URL } from 'node:url';
import ts from 'typescript';

/** The version every bundle has compiled in (src/io/runtime/package-version.ts), from package.json. */
export function versionDefine() {
  const { version } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
  return { __AGENTSYNC_VERSION__: JSON.stringify(version) };
}

/**
 * esbuild keeps `await import('node:readline/promises')` as an import() in CommonJS output, and an
 * import() cannot run in a script compiled from V8's code cache on Node 20 (the callback that loads
 * it is lost), nor in a single executable application. Such an import instead loads a one-line
 * module that requires the builtin, so it stays lazy and becomes a require.
 */
export function builtinImportsAsRequire() {
  return {
    name: 'builtin-imports-as-require',
    setup(build) {
      build.onResolve({ filter: /^node:/ }, (args) => (args.kind === 'dynamic-import' ? { path: args.path, namespace: 'builtin-as-require' } : undefined));
      build.onLoad({ filter: /.*/, namespace: 'builtin-as-require' }, (args) => ({ contents: `module.exports = require(${JSON.stringify(args.path)});\n`, loader: 'js' }));
    },
  };
}

/** The check for the rule above: a build that would fail at run time fails here instead. */
export function assertNoDynamicImport(metafile) {
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
export function childProcessOnFirstUse() {
  return builtinStandIn(
    'child-process-on-first-use',
    'child_process',
    'node_modules/commander/',
    () => 'let real;\nmodule.exports = new Proxy({}, { get: (_, key) => (real ??= require("node:child_process"))[key] });\n',
  );
}

/**
 * undici's Pool loads its HTTP/2 client, which requires node:http2 (and with it tls and http) when
 * it loads, for the protocol constants it names. agentsync never speaks HTTP/2 (undici does only
 * when asked to), so this hands undici those constants, copied from the building Node, and a
 * `connect` that loads the real module if it is ever called: ~10 ms off every command that reads
 * the server.
 */
export function http2OnFirstConnect() {
  return builtinStandIn('http2-on-first-connect', 'http2', 'node_modules/undici/', async () => {
    const { constants } = await import('node:http2');
    return `let real;\nmodule.exports = { constants: ${JSON.stringify(constants)}, connect: (...args) => (real ??= require("node:http2")).connect(...args) };\n`;
  });
}

/** Hands the files of one package (`importerPath` in their path) `contents()` wherever they require `builtin`. */
function builtinStandIn(name, builtin, importerPath, contents) {
  return {
    name,
    setup(build) {
      build.onResolve({ filter: new RegExp(`^(node:)?${builtin}$`) }, (args) => (args.importer.includes(importerPath) ? { path: builtin, namespace: name } : undefined));
      build.onLoad({ filter: /.*/, namespace: name }, async () => ({ contents: await contents(), loader: 'js' }));
    },
  };
}

/**
 * `undici` is undici's Pool alone, the one thing agentsync uses of it. undici's index also loads
 * fetch, WebSocket, the cookie and cache code and Node's own copy of undici: about 70 ms at every
 * start of a command that reads the server (BENCHMARKS.md, "Start-up of the commands that read the
 * server"). For the npm package's vendor file and the single executable alike.
 */
export function undiciPoolOnly() {
  const pool = createRequire(import.meta.url).resolve('undici/lib/dispatcher/pool.js');
  return {
    name: 'undici-pool-only',
    setup(build) {
      build.onResolve({ filter: /^undici$/ }, () => ({ path: 'undici', namespace: 'undici-pool-only' }));
      build.onLoad({ filter: /.*/, namespace: 'undici-pool-only' }, () => ({
        contents: `module.exports = { Pool: require(${JSON.stringify(pool)}) };\n`,
        loader: 'js',
        resolveDir: import.meta.dirname,
      }));
    },
  };
}

/**
 * Makes a bundle ASCII: V8 holds a script with a single other character as a two-byte string, which
 * doubles what the compile cache hashes at every start and what the binary's snapshot keeps
 * (BENCHMARKS.md, P3). esbuild escapes strings but keeps comments as written (an em dash in zod's,
 * a § in ours), so each such character in a comment becomes `?`, one for one, which keeps every
 * column of the source map. Any other character left (in a String.raw template) fails the build.
 */
export function asciiOnly(file) {
  const code = readFileSync(file, 'utf8');
  if (!/[\u0080-\uffff]/.test(code)) return;
  const source = ts.createSourceFile(file, code, ts.ScriptTarget.Latest, true, ts.ScriptKind.JS);
  const comments = new Map();
  const collect = (ranges) => ranges?.forEach((range) => comments.set(range.pos, range.end));
  const visit = (node) => {
    collect(ts.getLeadingCommentRanges(code, node.pos));
    collect(ts.getTrailingCommentRanges(code, node.end));
    ts.forEachChild(node, visit);
  };
  visit(source);
  let ascii = code;
  for (const [pos, end] of comments) ascii = ascii.slice(0, pos) + ascii.slice(pos, end).replace(/[\u0080-\uffff]/g, '?') + ascii.slice(end);
  const left = /[\u0080-\uffff]/.exec(ascii);
  if (left) throw new Error(`${file}: ${JSON.stringify(left[0])} on line ${ascii.slice(0, left.index).split('\n').length} is outside a comment; write it as an escape in the source`);
  writeFileSync(file, ascii);
}
