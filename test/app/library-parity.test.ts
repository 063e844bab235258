// The library catches up with the CLI (issue 41, "use cases once"): savePlan, `prune` and `target`
// on plan and apply, and the var overrides of a saved plan, each through src/index.ts against the
// emulator over real HTTP with real files. The CLI and the library share the use cases, so a plan
// file either one writes is one the other applies.
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import * as api from '../../src/index.js';
import { runCli } from '../support/cli.js';
import { startTestEmulator, API_KEY, type TestEmulator } from '../support/emulator.js';

let emu: TestEmulator;
let dir: string;
let env: Record<string, string>;
beforeAll(async () => {
  emu = await startTestEmulator();
});
afterAll(() => emu.close());
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'agentsync-parity-'));
  await emu.reset();
  env = { COMETCHAT_API_KEY: API_KEY, AGENTSYNC_BASE_URL: emu.url };
});
afterEach(() => rm(dir, { recursive: true, force: true }));

const tool = (name: string): string => `  ${name}: { displayName: ${name}, executionText: Working, description: "\${var.greeting} from ${name}", parameters: {} }`;

/** Tools a, b, c and an agent that needs a; `greeting` is a var the CLI's --var (and `vars`) replaces. */
function manifest(tools: readonly string[] = ['a', 'b', 'c'], agent = true): string {
  return [
    'version: 1',
    'environments:',
    '  local: { appId: local, region: us, vars: { greeting: Hello } }',
    ...(tools.length > 0 ? ['tools:', ...tools.map(tool)] : []),
    ...(agent ? ['agents:', '  helper: { name: Helper, integrationType: llm, integrateWith: gpt-4o, actions: [a] }'] : []),
    '',
  ].join('\n');
}

async function project(text = manifest()): Promise<void> {
  await writeFile(join(dir, 'agents.yaml'), text);
}

/** The tools this file's manifests name (the emulator starts with one of its own). */
const toolNames = async (): Promise<string[]> =>
  (await emu.get<{ name: string }[]>('/ai-agents/tools'))
    .map((t) => t.name)
    .filter((name) => /^[a-d]$/.test(name))
    .sort();
const agentNames = async (): Promise<string[]> => (await emu.get<{ name: string }[]>('/ai-agents/agents')).map((a) => a.name).sort();

describe('savePlan', () => {
  it('writes a plan file that applySavedPlan and `agentsync apply FILE` both carry out', async () => {
    await project();
    const saved = await api.savePlan({ cwd: dir, env, out: 'plan.json' });
    expect(saved.planFile).toBe('plan.json');
    expect(saved.plan.summary).toMatchObject({ create: 4 });
    const file = JSON.parse(await readFile(join(dir, 'plan.json'), 'utf8')) as { savedPlan: { kind: string }; changes: unknown[] };
    expect(file.savedPlan.kind).toBe('agentsync-plan');
    expect(file.changes).toHaveLength(4);
    // The CLI accepts what the library saved: the same use case wrote it.
    const applied = await runCli(['apply', 'plan.json'], { cwd: dir, env });
    expect(applied.stderr).toBe('');
    expect(applied.code).toBe(0);
    expect(await agentNames()).toEqual(['Helper']);
    // And the library applies what it saved (a second plan, after a change).
    await project(manifest(['a', 'b', 'c', 'd']));
    await api.savePlan({ cwd: dir, env, out: 'plan.json' });
    const outcome = await api.applySavedPlan({ cwd: dir, env, planFile: 'plan.json' });
    expect(outcome.result.counts.created).toBe(1);
    expect(await toolNames()).toHaveLength(4);
  });

  it('refuses, before the server is read, a target that is the manifest, the state or stdout', async () => {
    await project();
    await api.apply({ cwd: dir, env });
    const state = await readFile(join(dir, '.agentsync', 'local.state.json'), 'utf8');
    await emu.clearRequests();
    await expect(api.savePlan({ cwd: dir, env, out: 'agents.yaml' })).rejects.toMatchObject({ code: 'file_error', message: expect.stringContaining('it is the manifest') });
    await expect(api.savePlan({ cwd: dir, env, out: '.agentsync/local.state.json' })).rejects.toMatchObject({ code: 'file_error', message: expect.stringContaining('the state') });
    await expect(api.savePlan({ cwd: dir, env, out: '-' })).rejects.toMatchObject({ code: 'usage', message: expect.stringContaining('savePlan writes a file') });
    expect(await emu.apiRequests()).toEqual([]);
    expect(await readFile(join(dir, 'agents.yaml'), 'utf8')).toBe(manifest());
    expect(await readFile(join(dir, '.agentsync', 'local.state.json'), 'utf8')).toBe(state);
  });

  it('does not save a plan apply would refuse: a create whose name the server already has', async () => {
    await project();
    await api.apply({ cwd: dir, env });
    await rm(join(dir, '.agentsync'), { recursive: true });
    await expect(api.savePlan({ cwd: dir, env, out: 'plan.json' })).rejects.toMatchObject({ code: 'conflict', message: expect.stringContaining('the plan was not saved to plan.json') });
    await expect(readFile(join(dir, 'plan.json'))).rejects.toMatchObject({ code: 'ENOENT' });
  });
});

describe('prune and target', () => {
  it('plan and apply with target touch only that address and what it needs', async () => {
    await project();
    const planned = await api.plan({ cwd: dir, env, target: 'agent.helper' });
    expect(planned.plan.changes.map((c) => c.address).sort()).toEqual(['agent.helper', 'tool.a']);
    expect(planned.plan.warnings.join('\n')).toContain('the plan is limited to --target');
    const applied = await api.apply({ cwd: dir, env, target: ['agent.helper'] });
    expect(applied.result.counts.created).toBe(2);
    expect(await toolNames()).toEqual(['a']);
    await expect(api.plan({ cwd: dir, env, target: 'agent.nobody' })).rejects.toMatchObject({ code: 'usage', message: expect.stringContaining('agent.nobody') });
  });

  it('plan and apply with prune delete what left the manifest; without it, it is forgotten', async () => {
    await project();
    await api.apply({ cwd: dir, env });
    await project(manifest(['a', 'b']));
    expect((await api.plan({ cwd: dir, env })).plan.summary).toMatchObject({ forget: 1, delete: 0 });
    expect((await api.plan({ cwd: dir, env, prune: true })).plan.summary).toMatchObject({ forget: 0, delete: 1 });
    const applied = await api.apply({ cwd: dir, env, prune: true });
    expect(applied.result.counts.deleted).toBe(1);
    expect(await toolNames()).toEqual(['a', 'b']);
  });

  it('apply with prune is refused a mass deletion without allowMassDelete, before any call', async () => {
    await project(manifest(['a', 'b', 'c'], false));
    await api.apply({ cwd: dir, env });
    await project(manifest([], false));
    await emu.clearRequests();
    const refused = api.apply({ cwd: dir, env, prune: true, confirm: () => true });
    await expect(refused).rejects.toBeInstanceOf(api.UserError);
    await expect(refused).rejects.toMatchObject({ code: 'refused', message: expect.stringContaining('pass allowMassDelete: true if the deletions are meant') });
    expect(await emu.apiWrites()).toEqual([]);
    expect(await toolNames()).toEqual(['a', 'b', 'c']);
    const allowed = await api.apply({ cwd: dir, env, prune: true, allowMassDelete: true });
    expect(allowed.result.counts.deleted).toBe(3);
    expect(await toolNames()).toEqual([]);
  });

  it('savePlan keeps the scope in the file; applySavedPlan refuses a scope of its own', async () => {
    await project();
    await api.apply({ cwd: dir, env });
    await project(manifest(['a', 'b']));
    await api.savePlan({ cwd: dir, env, prune: true, out: 'plan.json' });
    // A caller without types can still pass them: refused, not ignored.
    const scoped = { cwd: dir, env, planFile: 'plan.json', prune: true } as api.ApplySavedPlanOptions;
    await expect(api.applySavedPlan(scoped)).rejects.toMatchObject({ code: 'usage', message: expect.stringContaining('prune and target belong to the plan') });
    const outcome = await api.applySavedPlan({ cwd: dir, env, planFile: 'plan.json' });
    expect(outcome.result.counts.deleted).toBe(1);
    expect(await toolNames()).toEqual(['a', 'b']);
  });
});

describe('var overrides', () => {
  it('a plan saved with vars is applied only with the same vars, as `apply FILE --var` is', async () => {
    await project(manifest(['a'], false));
    const saved = await api.savePlan({ cwd: dir, env, vars: { greeting: 'Hi' }, out: 'plan.json' });
    expect(JSON.stringify(saved.desired.resources)).toContain('Hi from a');
    await expect(api.applySavedPlan({ cwd: dir, env, planFile: 'plan.json' })).rejects.toMatchObject({
      code: 'plan_stale',
      message: expect.stringContaining('var.greeting is not what the plan was made with'),
    });
    await writeFile(join(dir, 'local.vars.yaml'), 'greeting: Howdy\n');
    await expect(api.applySavedPlan({ cwd: dir, env, planFile: 'plan.json', varFile: 'local.vars.yaml' })).rejects.toMatchObject({ code: 'plan_stale' });
    expect(await toolNames()).toEqual([]);
    // The file first, then vars: the same precedence as --var-file then --var.
    const outcome = await api.applySavedPlan({ cwd: dir, env, planFile: 'plan.json', varFile: 'local.vars.yaml', vars: { greeting: 'Hi' } });
    expect(outcome.result.counts.created).toBe(1);
    // A tool's description is in its nested `tool` object.
    const tools = await emu.get<{ name: string; tool?: { description?: string } }[]>('/ai-agents/tools');
    expect(tools.filter((t) => t.name === 'a').map((t) => t.tool?.description)).toEqual(['Hi from a']);
  });

  it('the CLI applies a plan the library saved with vars when given the same --var', async () => {
    await project(manifest(['a'], false));
    await api.savePlan({ cwd: dir, env, vars: { greeting: 'Hi' }, out: 'plan.json' });
    const without = await runCli(['apply', 'plan.json'], { cwd: dir, env });
    expect(without.code).toBe(1);
    expect(without.stderr).toContain('var.greeting is not what the plan was made with');
    const withVar = await runCli(['apply', 'plan.json', '--var', 'greeting=Hi'], { cwd: dir, env });
    expect(withVar.code).toBe(0);
    expect(await toolNames()).toEqual(['a']);
  });
});
