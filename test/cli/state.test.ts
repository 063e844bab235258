// `agentsync state list | show | rm`, through the built CLI as a child process.
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { assertBuilt, runCli, type CliResult } from '../support/cli.js';
import type { JournalEntry } from '../../src/core/state.js';
import { createFileStateStore, type StateTarget } from '../../src/io/state/index.js';
import { StateChild, withTempDir } from '../io/state/helpers.js';

beforeAll(assertBuilt);

let cleanup: (() => Promise<void>) | undefined;
afterEach(async () => {
  await cleanup?.();
  cleanup = undefined;
});

function cli(cwd: string, ...args: string[]): Promise<CliResult> {
  return runCli(args, { cwd });
}

const LOCAL: StateTarget = { environment: 'local', appId: 'local', region: 'us' };
const entries: JournalEntry[] = [
  { op: 'applied', address: 'tool.get_weather', type: 'tool', remoteId: '64f0aa', spec: { name: 'get_weather', displayName: 'Get weather' }, appliedAt: '2026-01-01T00:00:00.000Z' },
  { op: 'applied', address: 'agent.support', type: 'agent', remoteId: 'uid-support', spec: { name: 'Support' }, appliedAt: '2026-01-01T00:00:00.000Z' },
  { op: 'pending', address: 'agent.new', type: 'agent', since: '2026-01-02T00:00:00.000Z' },
];

async function project(environments: Record<string, StateTarget> = { local: LOCAL }) {
  const tmp = await withTempDir();
  cleanup = tmp.cleanup;
  const envYaml = Object.entries(environments)
    .map(([name, t]) => `  ${name}:\n    appId: ${t.appId}\n    region: ${t.region}\n`)
    .join('');
  await writeFile(path.join(tmp.dir, 'agents.yaml'), `version: 1\nenvironments:\n${envYaml}tools: {}\n`);
  return tmp.dir;
}

async function seedState(statePath: string, target: StateTarget, records: JournalEntry[] = entries): Promise<void> {
  const session = await createFileStateStore(statePath).open(target);
  for (const entry of records) await session.record(entry);
  await session.close();
}

describe('agentsync state', () => {
  it('lists addresses with type and remote id, as text and as JSON', async () => {
    const dir = await project();
    await seedState(path.join(dir, '.agentsync', 'local.state.json'), LOCAL);
    const text = await cli(dir, 'state', 'list');
    expect(text).toMatchObject({ code: 0, stderr: '' });
    expect(text.stdout.split('\n')).toEqual([
      'agent.support     agent  uid-support',
      'tool.get_weather  tool   64f0aa',
      'agent.new         agent  (pending create since 2026-01-02T00:00:00.000Z; it may exist on the server)',
      '',
    ]);
    const json = await cli(dir, 'state', 'list', '--json');
    const parsed = JSON.parse(json.stdout) as Record<string, unknown>;
    expect(parsed).toMatchObject({ formatVersion: 1, exists: true, environment: 'local', serial: 1 });
    expect(parsed.resources).toEqual([
      { address: 'agent.support', type: 'agent', remoteId: 'uid-support', appliedAt: '2026-01-01T00:00:00.000Z' },
      { address: 'tool.get_weather', type: 'tool', remoteId: '64f0aa', appliedAt: '2026-01-01T00:00:00.000Z' },
    ]);
    expect(parsed.pending).toEqual([{ address: 'agent.new', type: 'agent', action: 'create', since: '2026-01-02T00:00:00.000Z' }]);
    expect(json.stdout).not.toContain('salt');
  });

  it('says so when nothing was applied yet', async () => {
    const dir = await project();
    expect(await cli(dir, 'state', 'list')).toMatchObject({ code: 0, stdout: '', stderr: expect.stringContaining('nothing has been applied yet') });
    expect(JSON.parse((await cli(dir, 'state', 'list', '--json')).stdout)).toMatchObject({ exists: false, resources: [], pending: [] });
    expect(await cli(dir, 'state', 'show', 'tool.x')).toMatchObject({ code: 1, stderr: expect.stringContaining('no state at') });
  });

  it('shows one entry, and refuses an unknown or malformed address', async () => {
    const dir = await project();
    await seedState(path.join(dir, '.agentsync', 'local.state.json'), LOCAL);
    const show = await cli(dir, 'state', 'show', 'tool.get_weather');
    expect(show.code).toBe(0);
    expect(show.stdout).toContain('# tool.get_weather\ntype      = tool\nremoteId  = 64f0aa\n');
    expect(show.stdout).toContain('"displayName": "Get weather"');
    const json = JSON.parse((await cli(dir, 'state', 'show', 'agent.support', '--json')).stdout) as unknown;
    expect(json).toEqual({ address: 'agent.support', type: 'agent', remoteId: 'uid-support', spec: { name: 'Support' }, appliedAt: '2026-01-01T00:00:00.000Z' });
    expect((await cli(dir, 'state', 'show', 'agent.new')).stdout).toContain('never confirmed');

    const unknown = await cli(dir, 'state', 'show', 'tool.nope');
    expect(unknown).toMatchObject({ code: 1, stdout: '' });
    expect(unknown.stderr).toBe(`Error: tool.nope is not in ${path.join('.agentsync', 'local.state.json')}; \`agentsync state list\` shows the addresses it holds\n`);
    expect((await cli(dir, 'state', 'show', 'nope')).stderr).toContain('is not an address');
  });

  it('rm forgets one entry, keeps the previous version as backup, and refuses unknown addresses', async () => {
    const dir = await project();
    const statePath = path.join(dir, '.agentsync', 'local.state.json');
    await seedState(statePath, LOCAL);
    const before = await readFile(statePath, 'utf8');
    const rm = await cli(dir, 'state', 'rm', 'agent.support');
    expect(rm.code).toBe(0);
    expect(rm.stdout).toContain('Removed agent.support (remote id uid-support)');
    expect(rm.stdout).toContain('still exists on the server');
    const after = JSON.parse(await readFile(statePath, 'utf8')) as { serial: number; resources: Record<string, unknown> };
    expect(Object.keys(after.resources)).toEqual(['tool.get_weather']);
    expect(after.serial).toBe(2);
    expect(await readFile(`${statePath}.backup`, 'utf8')).toBe(before);

    const again = await cli(dir, 'state', 'rm', 'agent.support', '--json');
    expect(again.code).toBe(1);
    expect(JSON.parse(again.stdout)).toMatchObject({ error: { code: 'usage' } });
    expect(JSON.parse((await cli(dir, 'state', 'rm', 'agent.new', '--json')).stdout)).toEqual({
      removed: { address: 'agent.new', type: 'agent', remoteId: null },
    });
  });

  it('rm exits 1 and names the holder while another process holds the lock', async () => {
    const dir = await project();
    const statePath = path.join(dir, '.agentsync', 'local.state.json');
    await seedState(statePath, LOCAL);
    const before = await readFile(statePath, 'utf8');
    const holder = new StateChild('hold', statePath);
    try {
      const { pid } = await holder.waitFor((e) => e.event === 'locked');
      const rm = await cli(dir, 'state', 'rm', 'tool.get_weather');
      expect(rm.code).toBe(1);
      expect(rm.stderr).toMatch(new RegExp(`^Error: state locked by pid ${pid as number} on .+ since \\d{4}-`));
      expect(await readFile(statePath, 'utf8')).toBe(before);
    } finally {
      await holder.kill();
    }
  });

  it("needs -e when the manifest has several environments, and uses that environment's state", async () => {
    const dir = await project({ us: { environment: 'us', appId: 'app-us', region: 'us' }, eu: { environment: 'eu', appId: 'app-eu', region: 'eu' } });
    await seedState(path.join(dir, '.agentsync', 'eu.state.json'), { environment: 'eu', appId: 'app-eu', region: 'eu' });
    const ambiguous = await cli(dir, 'state', 'list');
    expect(ambiguous).toMatchObject({ code: 1, stderr: expect.stringContaining('several environments; choose an environment with -e: us, eu') });
    expect((await cli(dir, 'state', 'list', '-e', 'eu')).stdout).toContain('tool.get_weather');
    expect((await cli(dir, 'state', 'list', '-e', 'us')).stderr).toContain('nothing has been applied yet');
    expect((await cli(dir, 'state', 'list', '-e', 'in')).stderr).toContain('unknown environment "in"');
  });

  it('refuses the state of one environment for another, leaving it unchanged', async () => {
    const dir = await project({ us: { environment: 'us', appId: 'app-us', region: 'us' }, eu: { environment: 'eu', appId: 'app-eu', region: 'eu' } });
    const euState = path.join(dir, '.agentsync', 'eu.state.json');
    await seedState(euState, { environment: 'eu', appId: 'app-eu', region: 'eu' });
    const bytes = await readFile(euState);
    for (const command of [['list'], ['rm', 'tool.get_weather']]) {
      const run = await cli(dir, 'state', ...command, '-e', 'us', '--state', euState);
      expect(run.code).toBe(1);
      expect(run.stderr).toContain(`state file ${euState} cannot be used: it belongs to environment "eu"`);
      expect(run.stderr).toContain("pass this environment's own state file with --state (by default .agentsync/us.state.json beside the manifest)");
      expect(run.stderr).not.toContain('.backup');
      expect(await readFile(euState)).toEqual(bytes);
    }
  });

  it('reads a --state file without a manifest, and refuses a damaged one naming the backup', async () => {
    const dir = await project();
    const statePath = path.join(dir, 'elsewhere', 'x.state.json');
    await mkdir(path.dirname(statePath));
    await seedState(statePath, LOCAL);
    const outside = path.join(dir, 'elsewhere');
    expect((await cli(outside, 'state', 'list', '--state', statePath)).stdout).toContain('agent.support');
    expect((await cli(outside, 'state', 'list')).stderr).toContain('cannot read manifest agents.yaml');

    await writeFile(statePath, '{"version": 1, "lin');
    const damaged = await cli(outside, 'state', 'list', '--state', statePath, '--json');
    expect(damaged.code).toBe(1);
    expect(JSON.parse(damaged.stdout)).toMatchObject({ error: { code: 'state_invalid', backup: `${statePath}.backup` } });
    expect(damaged.stderr).toContain(`cp ${statePath}.backup ${statePath}`);
    expect(damaged.stderr).not.toContain('    at '); // no stack trace
    expect(await readFile(statePath, 'utf8')).toBe('{"version": 1, "lin');
  });
});
