// The name `agentsync` on the npm registry is not ours (README, "Install"). Bare `npx agentsync`
// downloads a missing package without asking, so on a runner without the vendored tarball a
// workflow would run whatever that name holds, with the API key. Every command users copy (the
// README, docs, examples, the Action, the manifest `init` writes) uses the vendored bin:
// `npx --no-install agentsync` or node_modules/.bin/agentsync, and nothing installs the name from
// the registry.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { STARTER_MANIFEST } from '../../src/core/starter-manifest.js';
import { ROOT } from '../support/cli.js';

function filesUnder(path: string): string[] {
  if (!statSync(path).isDirectory()) return [path];
  return readdirSync(path).flatMap((name) => filesUnder(join(path, name)));
}

const PLACES = ['README.md', 'docs', 'examples', 'action.yml', 'scripts/action'];
const files = PLACES.flatMap((place) => filesUnder(join(ROOT, place))).filter((file) => /\.(md|ya?ml|sh|mjs|rego)$/.test(file));

/** `npx` then `agentsync` with no `--no-install` (or `--no`) between: npx would fetch it. */
const FETCHING_NPX = /\bnpx\s+(?!--no-install\b|--no\b)(?:-[^\s]+\s+)*agentsync\b(?!@)/;
/** An install of the registry's `agentsync` (a path or a tarball is fine). */
const REGISTRY_INSTALL = /\bnpm\s+(?:install|i|add)\s+(?:-[^\s]+\s+)*agentsync(?:@[^\s`]*)?(?=[\s`)]|$)/;

describe('no workflow or doc fetches agentsync from the registry', () => {
  it('scans the files users copy from', () => {
    expect(files.map((f) => relative(ROOT, f))).toEqual(expect.arrayContaining(['README.md', 'action.yml', 'examples/github-actions.yml', 'examples/drift-nightly.yml', 'scripts/action/run.sh']));
  });

  it.each(files.map((file) => [relative(ROOT, file), file]))('%s', (_name, file) => {
    const lines = readFileSync(file, 'utf8').split('\n');
    // The README's warning names the forbidden forms on purpose.
    const offending = lines.filter((line) => (FETCHING_NPX.test(line) || REGISTRY_INSTALL.test(line)) && !/\bnever run\b|\bnot ours\b|from the registry \(/.test(line));
    expect(offending).toEqual([]);
  });

  it('the manifest `agentsync init` writes', () => {
    expect(STARTER_MANIFEST.split('\n').filter((line) => FETCHING_NPX.test(line))).toEqual([]);
  });

  it('the patterns catch what they must', () => {
    expect(FETCHING_NPX.test('      - run: npx agentsync validate')).toBe(true);
    expect(FETCHING_NPX.test('npx -y agentsync plan')).toBe(true);
    expect(FETCHING_NPX.test('npx --no-install agentsync plan')).toBe(false);
    expect(REGISTRY_INSTALL.test('# agentsync (`npm install -D agentsync`, installed by `npm ci`).')).toBe(true);
    expect(REGISTRY_INSTALL.test('npm install --save-dev ./vendor/agentsync-0.1.0.tgz')).toBe(false);
  });
});
