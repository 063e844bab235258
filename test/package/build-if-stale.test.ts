// scripts/build.mjs --if-stale, in a project of its own: the real script, with a tsc and a bundle
// step that only write their outputs and log that they ran, so each case takes milliseconds instead
// of a 20 s build. What is checked is the decision: build, or say dist/ is up to date.
import { spawnSync } from 'node:child_process';
import { appendFileSync, copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT } from '../support/cli.js';
import { BUILD_OUTPUTS } from '../../scripts/build-outputs.mjs';

let project: string;
const path = (file: string): string => join(project, file);
const write = (file: string, text: string): void => {
  mkdirSync(dirname(path(file)), { recursive: true });
  writeFileSync(path(file), text);
};
/** The steps that ran, in order, since the last call. */
const ran = (): string[] => {
  const log = readFileSync(path('steps.log'), 'utf8').split('\n').filter(Boolean);
  writeFileSync(path('steps.log'), '');
  return log;
};
const build = (...args: string[]) => spawnSync(process.execPath, [path('scripts/build.mjs'), ...args], { cwd: project, encoding: 'utf8' });

beforeAll(() => {
  project = mkdtempSync(join(tmpdir(), 'agentsync-build-'));
  mkdirSync(path('scripts'));
  for (const script of ['build.mjs', 'build-outputs.mjs']) copyFileSync(join(ROOT, 'scripts', script), path(`scripts/${script}`));
  for (const file of ['package.json', 'package-lock.json', 'tsconfig.json', 'tsconfig.build.json', 'scripts/bundle-plugins.mjs', 'scripts/public-types.mjs']) write(file, `${file}\n`);
  write('src/index.ts', 'export const one = 1;\n');
  writeFileSync(path('steps.log'), '');
  // The steps: tsc fails when FAIL_TSC exists; the bundle writes every output.
  const log = JSON.stringify(path('steps.log'));
  write('node_modules/typescript/bin/tsc', `const fs = require('node:fs'); fs.appendFileSync(${log}, 'tsc\\n'); if (fs.existsSync(${JSON.stringify(path('FAIL_TSC'))})) process.exit(2);\n`);
  write(
    'scripts/bundle.mjs',
    `import { appendFileSync, mkdirSync, writeFileSync } from 'node:fs'; import { dirname, join } from 'node:path';\n` +
      `appendFileSync(${log}, 'bundle\\n');\n` +
      `for (const file of ${JSON.stringify(BUILD_OUTPUTS)}) { mkdirSync(dirname(join(${JSON.stringify(project)}, file)), { recursive: true }); writeFileSync(join(${JSON.stringify(project)}, file), ''); }\n`,
  );
});
afterAll(() => rmSync(project, { recursive: true, force: true }));

describe('scripts/build.mjs --if-stale', () => {
  it('builds the first time, then says dist/ is up to date while nothing changed', () => {
    const first = build('--if-stale');
    expect(first.status).toBe(0);
    expect(first.stderr).toContain('Building dist/');
    expect(ran()).toEqual(['tsc', 'bundle']);
    const again = build('--if-stale');
    expect(again.status).toBe(0);
    expect(again.stderr).toContain('dist/ is up to date');
    expect(again.stderr).not.toContain('Building dist/');
    expect(ran()).toEqual([]);
    // Both lines go to stderr: stdout is `npm pack --json`'s, which runs the build as prepack.
    expect(first.stdout + again.stdout).toBe('');
  });

  it('builds again after a source, a build script or the lock changed, by content', () => {
    for (const file of ['src/index.ts', 'scripts/bundle-plugins.mjs', 'package-lock.json']) {
      appendFileSync(path(file), '// edited\n');
      expect(build('--if-stale').status).toBe(0);
      expect(ran(), file).toEqual(['tsc', 'bundle']);
    }
    // A new file under src/ counts too.
    write('src/new.ts', 'export {};\n');
    build('--if-stale');
    expect(ran()).toEqual(['tsc', 'bundle']);
  });

  it('builds again when an output is missing', () => {
    rmSync(path('dist/index.js'));
    build('--if-stale');
    expect(ran()).toEqual(['tsc', 'bundle']);
  });

  it('a failed build exits with its code and is not recorded, so the next run builds', () => {
    write('FAIL_TSC', '');
    appendFileSync(path('src/index.ts'), '// broken\n');
    expect(build('--if-stale').status).toBe(2);
    expect(ran()).toEqual(['tsc']);
    rmSync(path('FAIL_TSC'));
    expect(build('--if-stale').status).toBe(0);
    expect(ran()).toEqual(['tsc', 'bundle']);
  });

  it('without --if-stale it always builds', () => {
    build('--if-stale');
    ran();
    expect(build().status).toBe(0);
    expect(ran()).toEqual(['tsc', 'bundle']);
  });
});
