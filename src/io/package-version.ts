// The package version, from the nearest package.json named agentsync above this module. Walking up
// works from src/ (tests), dist/ (tsc output) and the bundled dist/cli/ and dist/chunks/ alike.
import { readFileSync } from 'node:fs';

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

export const PACKAGE_VERSION = findVersion();
