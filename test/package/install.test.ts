// Installable (CONTRACT §9.3): `npm pack` gives a tarball that installs globally and runs from any
// folder, and that a project can depend on and `import { … } from 'agentsync'`, with types. Slow
// (two npm installs, from the local npm cache when it can), so each step is one test.
import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFixture, TEST_API_KEY, type EmulatorFixture } from '../io/api/emulator-fixture.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const INSTALL_TIMEOUT = 240_000;

let dir: string;
let tarball: string;
let version: string;
let emu: EmulatorFixture;

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
  const result = await run('npm', [...args, '--no-audit', '--no-fund', '--prefer-offline', '--loglevel=error'], cwd);
  if (result.code !== 0) throw new Error(`npm ${args.join(' ')} failed (${result.code}):\n${result.stderr}`);
  return result;
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'agentsync-pack-'));
  version = (JSON.parse(await readFile(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;
  // dist/ is already built (npm test builds first); --ignore-scripts keeps pack from building again.
  const packed = await npm(['pack', '--ignore-scripts', '--json', '--pack-destination', dir], ROOT);
  const [info] = JSON.parse(packed.stdout) as { filename: string; files: { path: string }[] }[];
  tarball = join(dir, info?.filename ?? 'missing.tgz');
  emu = await startFixture();
}, INSTALL_TIMEOUT);
afterAll(async () => {
  await emu?.close();
  await rm(dir, { recursive: true, force: true });
});

describe('the npm package', () => {
  it('ships what the bin and the API need, and none of the sources or tests', async () => {
    const listing = await run('tar', ['-tzf', tarball], dir);
    const files = listing.stdout.split('\n').filter(Boolean);
    for (const needed of ['package/package.json', 'package/README.md', 'package/dist/cli/main.cjs', 'package/dist/cli/main.js', 'package/dist/index.js', 'package/dist/index.d.ts', 'package/dist/io/state/pg/store.js']) {
      expect(files).toContain(needed);
    }
    // The bundled CLI and the vendored dependencies it loads on first use.
    for (const bundle of ['package/dist/cli/agentsync.cjs', 'package/dist/cli/vendor/undici.cjs', 'package/dist/cli/vendor/pg.cjs']) expect(files).toContain(bundle);
    expect(files.filter((f) => /^package\/(src|test|bench|scripts|\.ci)\//.test(f))).toEqual([]);
    expect(files.filter((f) => f.endsWith('.tsbuildinfo'))).toEqual([]);
  });

  it('installs globally from the tarball and runs from any folder', async () => {
    const prefix = join(dir, 'global');
    await npm(['install', '--global', '--prefix', prefix, tarball], dir);
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
  }, INSTALL_TIMEOUT);

  it('is a typed library: a project that depends on it imports, plans and applies', async () => {
    const project = join(dir, 'project');
    await mkdir(project);
    await writeFile(join(project, 'package.json'), JSON.stringify({ name: 'uses-agentsync', private: true, type: 'module', dependencies: { agentsync: `file:${tarball}` } }));
    await npm(['install'], project);
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
    const deployed = await run(process.execPath, ['deploy.mjs'], project, cleanEnv({ COMETCHAT_API_KEY: TEST_API_KEY, AGENTSYNC_BASE_URL: emu.url }));
    expect(deployed.stderr).toBe('');
    expect(JSON.parse(deployed.stdout)).toEqual({ version, valid: true, before: { create: 1, update: 0, delete: 0, forget: 0, noop: 0 }, created: 1, after: false, userError: 'function' });

    // The types resolve through `exports`, check with skipLibCheck off, and are strict enough to catch a wrong call.
    const tsc = join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
    // Only Node's types, as a user has them: a declaration that needs a dev-only @types package fails here.
    await mkdir(join(dir, 'types'));
    await symlink(join(ROOT, 'node_modules', '@types', 'node'), join(dir, 'types', 'node'));
    await writeFile(
      join(project, 'tsconfig.json'),
      JSON.stringify({ compilerOptions: { module: 'NodeNext', moduleResolution: 'NodeNext', target: 'ES2023', strict: true, noEmit: true, skipLibCheck: false, types: ['node'], typeRoots: [join(dir, 'types')] }, include: ['*.ts'] }),
    );
    await writeFile(
      join(project, 'typed.ts'),
      `import { plan, isUserError, type PlanResult, type Diagnostic, type ApplyResult } from 'agentsync';
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
`,
    );
    // One tsc run over both files: the good one is clean, the wrong call is the only error.
    await writeFile(join(project, 'wrong.ts'), `import { plan } from 'agentsync';\nawait plan({ refresh: 'yes' });\n`);
    const checked = await run(process.execPath, [tsc, '-p', 'tsconfig.json'], project);
    expect(checked.stderr).toBe('');
    expect(checked.stdout.trim().split('\n')).toEqual([expect.stringMatching(/^wrong\.ts\(2,14\): error TS2322: Type 'string' is not assignable to type 'boolean/)]);
  }, INSTALL_TIMEOUT);
});
