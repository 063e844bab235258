// Bundles the CLI after tsc: one ESM entry (dist/cli/main.js, the `agentsync` bin) and the demo,
// with each lazily imported command split into its own chunk. Loading one file instead of a few
// hundred small modules (zod alone is ~60) cuts start-up time by a quarter or more; see
// BENCHMARKS.md. tsc's per-module output stays in dist/ for the library entry and the types:
// dist/index.js (`import … from 'agentsync'`, see package.json `exports`) is not bundled, so a
// project that imports it shares zod, yaml, undici and pg with its own dependency tree, and it never
// loads commander or the CLI. test/package/ checks both the tarball and that import.
import { rmSync } from 'node:fs';
import { build } from 'esbuild';

// Chunk names carry content hashes; drop the previous build's so they do not pile up.
rmSync('dist/chunks', { recursive: true, force: true });

await build({
  entryPoints: { 'cli/main': 'src/cli/main.ts', 'cli/demo': 'src/cli/demo.ts' },
  outdir: 'dist',
  chunkNames: 'chunks/[name]-[hash]',
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  sourcemap: true,
  logLevel: 'warning',
  // Bundled CommonJS dependencies (yaml, commander, undici) call require() for node builtins.
  banner: { js: "import { createRequire as __agentsyncCreateRequire } from 'node:module'; const require = __agentsyncCreateRequire(import.meta.url);" },
});
