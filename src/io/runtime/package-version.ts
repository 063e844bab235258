// The package version. scripts/bundle.mjs compiles it into every bundle (the single-file binary
// has no package.json beside it, and the bundles read no file for it); tsc's output and the tests
// from src/ find the nearest package.json named agentsync above this module instead.
import { readFileSync } from 'node:fs';

/** Replaced by esbuild's `define` in a bundle; undeclared (so `typeof` is 'undefined') elsewhere. */
declare const __AGENTSYNC_VERSION__: string | undefined;

function findVersion(): string {
  let dir = new URL('.', import.meta.url);
  for (let depth = 0; depth < 6; depth++) {
    try {
      const pkg = JSON.parse(readFileSync(new URL('package.json', dir), 'utf8')) as { name?: string; version?: string };
      if (pkg.name === 'agentsync' && typeof pkg.version === 'string') return pkg.version;
    } catch {
      // No package.json here (or not ours): keep walking up.
    }
    dir = new URL('..', dir);
  }
  return '0.0.0-unknown';
}

export const PACKAGE_VERSION: string = typeof __AGENTSYNC_VERSION__ === 'string' ? __AGENTSYNC_VERSION__ : findVersion();
