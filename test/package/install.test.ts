// Installable (docs/spec/distribution.md#install-paths, docs/spec/distribution.md#package): `npm
// pack` gives a self-contained tarball (no runtime dependency, so every install here runs with npm
// --offline) that installs globally and runs from any folder, and that a project keeps in its own
// vendor/ folder, depends on, commits, and gets back with `npm ci` in a clean clone, then imports
// `{ … } from 'agentsync'`, with types. Slow (npm installs and a git clone), so each step is one
// test.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { copyFile, mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestEmulator, API_KEY, type TestEmulator } from '../support/emulator.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const INSTALL_TIMEOUT = 240_000;

let dir: string;
let tarball: string;
let version: string;
let manifestBefore: string;
let emu: TestEmulator;

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** npm and the installed bin, with no npm_* variables from an enclosing `npm test` steering them. */
function cleanEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) if (!/^npm_/i.test(key)) env[key] = value;
  // The bin's `#!/usr/bin/env node` must find the node running these tests (Node 20, 22 or 24 in CI).
  return { ...env, PATH: `${dirname(process.execPath)}:${env.PATH ?? ''}`, NO_COLOR: '1', ...extra };
}

function run(command: string, args: string[], cwd: string, env: NodeJS.ProcessEnv = cleanEnv()): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

async function npm(args: string[], cwd: string): Promise<Run> {
  const result = await run('npm', [...args, '--no-audit', '--no-fund', '--loglevel=error'], cwd);
  if (result.code !== 0) throw new Error(`npm ${args.join(' ')} failed (${result.code}):\n${result.stderr}`);
  return result;
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'agentsync-pack-'));
  version = (JSON.parse(await readFile(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;
  // dist/ is already built (npm test builds first), so prepack only finds it current, then sets
  // package.json aside and writes it without install scripts; postpack puts it back.
  manifestBefore = await readFile(join(ROOT, 'package.json'), 'utf8');
  const packed = await npm(['pack', '--json', '--pack-destination', dir, '--prefer-offline'], ROOT);
  const [info] = JSON.parse(packed.stdout) as { filename: string; files: { path: string }[] }[];
  tarball = join(dir, info?.filename ?? 'missing.tgz');
  emu = await startTestEmulator();
}, INSTALL_TIMEOUT);
afterAll(async () => {
  await emu?.close();
  await rm(dir, { recursive: true, force: true });
});

describe('the npm package', () => {
  it('ships the bundles, the types, the schema and the licence; no sources, no source maps, no dependencies', async () => {
    const listing = await run('tar', ['-tzvf', tarball], dir);
    const sizes = new Map(
      listing.stdout
        .split('\n')
        .filter(Boolean)
        .map((line) => line.trim().split(/\s+/))
        .map((fields) => [fields[fields.length - 1] ?? '', Number(fields[2])] as const),
    );
    const files = [...sizes.keys()];
    for (const needed of ['package.json', 'README.md', 'LICENSE', 'CHANGELOG.md', 'agentsync.schema.json', 'dist/cli/main.cjs', 'dist/cli/agentsync.cjs', 'dist/index.js', 'dist/types/index.d.ts']) {
      expect(files).toContain(`package/${needed}`);
    }
    // The vendored dependencies the CLI loads on first use (and the API bundle requires), and the
    // emulator, which only `agentsync emulator` loads.
    for (const bundle of ['package/dist/cli/vendor/undici.cjs', 'package/dist/cli/vendor/pg.cjs', 'package/dist/cli/vendor/emulator.cjs']) expect(files).toContain(bundle);
    expect(files.filter((f) => /^package\/(src|test|bench|scripts|\.ci|vendor)\//.test(f))).toEqual([]);
    expect(files.filter((f) => f.endsWith('.tsbuildinfo') || f.endsWith('.map'))).toEqual([]);
    // Only the bundles are code: tsc's per-module output stays home.
    expect(files.filter((f) => /\.(c?js)$/.test(f)).sort()).toEqual([
      'package/dist/cli/agentsync.cjs',
      'package/dist/cli/main.cjs',
      'package/dist/cli/vendor/emulator.cjs',
      'package/dist/cli/vendor/pg.cjs',
      'package/dist/cli/vendor/undici.cjs',
      'package/dist/index.js',
    ]);
    expect(files.filter((f) => f.endsWith('.d.ts') && !f.startsWith('package/dist/types/'))).toEqual([]);
    expect((await readFile(tarball)).length).toBeLessThan(1_000_000);
    const pkg = JSON.parse((await run('tar', ['-xzOf', tarball, 'package/package.json'], dir)).stdout) as Record<string, unknown>;
    expect(pkg.dependencies ?? {}).toEqual({});
    // No script runs when the package is installed: dist/ is built before packing (prepack), and
    // the clone's `prepare` (which builds dist/ on `npm ci` there) is stripped at pack time, so npm
    // has no install script to warn about (scripts/pack-manifest.mjs).
    const lifecycle = ['preinstall', 'install', 'postinstall', 'preprepare', 'prepare', 'postprepare', 'prepublish'];
    expect(Object.keys((pkg.scripts ?? {}) as Record<string, string>).filter((name) => lifecycle.includes(name))).toEqual([]);
    // The clone's package.json is back as it was, prepare and all, and nothing was left aside.
    expect(await readFile(join(ROOT, 'package.json'), 'utf8')).toBe(manifestBefore);
    expect(JSON.parse(manifestBefore)).toMatchObject({ scripts: { prepare: expect.any(String) } });
    expect(existsSync(join(ROOT, '.package.json.before-pack'))).toBe(false);
    expect(pkg).toMatchObject({ license: 'MIT', engines: { node: expect.stringMatching(/^>=20/) }, types: 'dist/types/index.d.ts', repository: { type: 'git' } });
    const licence = (await run('tar', ['-xzOf', tarball, 'package/LICENSE'], dir)).stdout;
    expect(licence).toMatch(/^MIT License\n\nCopyright \(c\) \d{4} agentsync contributors\n/);
  });

  it(
    'installs globally from the tarball and runs from any folder',
    async () => {
      const prefix = join(dir, 'global');
      // --offline: the tarball is all it needs.
      await npm(['install', '--global', '--offline', '--prefix', prefix, tarball], dir);
      // Nothing but agentsync was installed.
      expect((await run('ls', [join(prefix, 'lib', 'node_modules')], dir)).stdout.split('\n').filter(Boolean)).toEqual(['agentsync']);
      expect((await run('ls', ['-A', join(prefix, 'lib', 'node_modules', 'agentsync')], dir)).stdout).not.toContain('node_modules');
      const elsewhere = join(dir, 'somewhere', 'else');
      await mkdir(elsewhere, { recursive: true });
      // On PATH, as a user's shell finds it.
      const env = cleanEnv({ PATH: `${join(prefix, 'bin')}:${dirname(process.execPath)}:/usr/bin:/bin` });
      const versionRun = await run('agentsync', ['--version'], elsewhere, env);
      expect(versionRun).toEqual({ code: 0, stdout: `${version}\n`, stderr: '' });
      const help = await run('agentsync', ['--help'], elsewhere, env);
      expect(help.code).toBe(0);
      expect(help.stdout).toMatch(/^Usage: agentsync /);
      for (const command of ['validate', 'plan', 'apply', 'state', 'emulator']) expect(help.stdout).toContain(command);
      // The bundled CLI is there too: a starter project validates.
      expect((await run('agentsync', ['init'], elsewhere, env)).code).toBe(0);
      const validate = await run('agentsync', ['validate'], elsewhere, env);
      expect(validate.stderr).toBe('');
      expect(validate.code).toBe(0);
    },
    INSTALL_TIMEOUT,
  );

  it(
    'a project keeps the tarball in vendor/; a clean clone gets it back with npm ci, and imports, plans and applies, typed',
    async () => {
      const project = join(dir, 'project');
      const vendored = `vendor/${basename(tarball)}`;
      await mkdir(join(project, 'vendor'), { recursive: true });
      await copyFile(tarball, join(project, vendored));
      await writeFile(join(project, 'package.json'), JSON.stringify({ name: 'uses-agentsync', private: true, type: 'module' }));
      await writeFile(join(project, '.gitignore'), 'node_modules/\n');
      // At npm's default log level, where it warns of a package's install scripts: it has none.
      const installed = await run('npm', ['install', '--save-dev', '--offline', '--no-audit', '--no-fund', `./${vendored}`], project);
      expect(installed.code, installed.stderr).toBe(0);
      expect(installed.stderr).not.toMatch(/install-scripts|prepare/);
      // The lock names the tarball inside the project, so it holds on any machine that clones it.
      const lock = await readFile(join(project, 'package-lock.json'), 'utf8');
      expect(lock).toContain(`"resolved": "file:${vendored}"`);
      expect(lock).not.toContain('file:..');
      expect(lock).not.toContain(dir);
      expect(JSON.parse(await readFile(join(project, 'package.json'), 'utf8'))).toMatchObject({ devDependencies: { agentsync: `file:${vendored}` } });
      await writeFile(
        join(project, 'agents.yaml'),
        'version: 1\nenvironments:\n  local: { appId: local, region: us }\ntools:\n  lookup: { displayName: Lookup, executionText: Looking, description: Looks up, parameters: {} }\nagents: {}\n',
      );
      await writeFile(
        join(project, 'deploy.mjs'),
        `import { apply, plan, validate, version, UserError } from 'agentsync';
const checked = await validate({ file: 'agents.yaml' });
const before = await plan({ file: 'agents.yaml' });
const applied = await apply({ file: 'agents.yaml' });
const after = await plan({ file: 'agents.yaml' });
console.log(JSON.stringify({ version, valid: checked.valid, before: before.plan.summary, created: applied.result.counts.created, after: after.hasChanges, userError: typeof UserError }));
`,
      );
      // pg comes from the package's own vendor file: a refused connection, not a missing module.
      await writeFile(
        join(project, 'postgres.mjs'),
        `import { plan } from 'agentsync';
await plan({ file: 'agents.yaml', refresh: false, state: 'postgres://agentsync@127.0.0.1:1/agentsync' }).catch((err) => console.log(JSON.stringify({ name: err.name, message: err.message })));
`,
      );
      // Everything else as a user writes it (below), then committed and cloned: the clone is what CI sees.
      const clone = join(dir, 'clone');
      const git = (args: string[], cwd: string) => run('git', ['-c', 'user.name=test', '-c', 'user.email=test@example.invalid', ...args], cwd);
      await writeTypedFiles(project);
      await git(['init', '-q'], project);
      await git(['add', '-A'], project);
      expect((await git(['commit', '-q', '-m', 'agents'], project)).code).toBe(0);
      expect((await git(['clone', '-q', project, clone], dir)).code).toBe(0);
      expect((await run('ls', ['-A', clone], dir)).stdout).not.toContain('node_modules');
      await npm(['ci', '--offline'], clone);

      const versionRun = await run('npx', ['agentsync', '--version'], clone);
      expect(versionRun).toMatchObject({ code: 0, stdout: `${version}\n` });
      const deployed = await run(process.execPath, ['deploy.mjs'], clone, cleanEnv({ COMETCHAT_API_KEY: API_KEY, AGENTSYNC_BASE_URL: emu.url }));
      expect(deployed.stderr).toBe('');
      expect(JSON.parse(deployed.stdout)).toEqual({
        version,
        valid: true,
        before: { create: 1, update: 0, replace: 0, delete: 0, forget: 0, noop: 0 },
        created: 1,
        after: false,
        userError: 'function',
      });
      const postgres = await run(process.execPath, ['postgres.mjs'], clone);
      expect(postgres.stderr).toBe('');
      const refused = JSON.parse(postgres.stdout) as { name: string; message: string };
      expect(refused.name).toBe('UserError');
      expect(refused.message).not.toMatch(/Cannot find|MODULE_NOT_FOUND/);
      expect(refused.message).toContain('127.0.0.1');

      // The types (dist/types) resolve through `exports`, check with skipLibCheck off, and are strict enough to catch a wrong call.
      const tsc = join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
      // One tsc run over both files: the good one is clean, the wrong call is the only error.
      const checked = await run(process.execPath, [tsc, '-p', 'tsconfig.json'], clone);
      expect(checked.stderr).toBe('');
      expect(checked.stdout.trim().split('\n')).toEqual([expect.stringMatching(/^wrong\.ts\(2,14\): error TS2322: Type 'string' is not assignable to type 'boolean/)]);
    },
    INSTALL_TIMEOUT,
  );
});

/** A typed use of the API, a wrong call, and a tsconfig with only Node's types, as a user has them. */
async function writeTypedFiles(project: string): Promise<void> {
  // Only Node's types, as a user has them: a declaration that needs a dev-only @types package fails here.
  await mkdir(join(dir, 'types'));
  await symlink(join(ROOT, 'node_modules', '@types', 'node'), join(dir, 'types', 'node'));
  await writeFile(
    join(project, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: { module: 'NodeNext', moduleResolution: 'NodeNext', target: 'ES2023', strict: true, noEmit: true, skipLibCheck: false, types: ['node'], typeRoots: [join(dir, 'types')] },
      include: ['*.ts'],
    }),
  );
  await writeFile(
    join(project, 'typed.ts'),
    `import { plan, isUserError, type PlanResult, type Diagnostic, type ApplyResult, type DesiredResource } from 'agentsync';
type AgentSpec = Extract<DesiredResource, { type: 'agent' }>['spec'];
export async function changes(file: string): Promise<number> {
  try {
  const result: PlanResult = await plan({ file, environment: 'local', refresh: false });
  const warnings: Diagnostic[] = result.warnings;
  return result.plan.summary.create + result.plan.summary.update + warnings.length;
  } catch (err) {
  if (isUserError(err)) return err.code === 'manifest_invalid' ? -1 : -2;
  throw err;
  }
}
export type Done = ApplyResult['done'][number]['address'];
// The manifest's types are written out in full (zod is not installed): a field's type is still exact.
export function instructions(resources: DesiredResource[]): string[] {
  return resources.flatMap((r) => (r.type === 'agent' && r.spec.instruction !== undefined ? [r.spec.instruction] : []));
}
export const model: AgentSpec['integrationType'] = 'llm';
`,
  );
  await writeFile(join(project, 'wrong.ts'), `import { plan } from 'agentsync';\nawait plan({ refresh: 'yes' });\n`);
}
