// Issue 40's data loss: a team keeps its manifest in an agents/ folder, someone runs `agentsync init`
// there, and the next `apply --prune --auto-approve` planned the folder's resources away. The
// manifest location is never ambiguous now (docs/spec/manifest.md#a-manifest-in-many-files), and
// init writes nothing beside an agents/ folder. The emulator's request log is the judge.
import { existsSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { TestEmulator } from '../support/emulator.js';
import { appContents, openLab, writesOf, type Lab } from './lifecycle-fixture.js';

const TOOLS = ['lookup', 'refund', 'track', 'cancel', 'escalate', 'survey'];

/** The team's manifest in three parts: 6 tools and 3 agents, 9 resources. */
async function writeFolderManifest(lab: Lab): Promise<void> {
  await mkdir(lab.path('agents'), { recursive: true });
  await writeFile(lab.path('agents/environments.yaml'), 'version: 1\nenvironments:\n  local: { appId: local, region: us }\n');
  const tools = TOOLS.map((name) => `  ${name}: { displayName: ${name}, executionText: Working, description: "does ${name} for a customer", parameters: {} }`);
  await writeFile(lab.path('agents/tools.yaml'), ['tools:', ...tools].join('\n') + '\n');
  const agents = ['support', 'billing', 'triage'].map(
    (key, i) => `  ${key}: { name: "${key} desk", integrationType: llm, integrateWith: gpt-4o, instruction: "Help.", actions: [${TOOLS.slice(i * 2, i * 2 + 2).join(', ')}] }`,
  );
  await writeFile(lab.path('agents/agents.yaml'), ['agents:', ...agents].join('\n') + '\n');
}

/** What `init` wrote before it looked for an agents/ folder: a starter with one environment, local. */
const STARTER = [
  'version: 1',
  'environments:',
  '  local: { appId: local, region: us }',
  'tools:',
  '  hello: { displayName: Hello, executionText: Working, description: "says hello to the user", parameters: {} }',
  'agents:',
  '  greeter: { name: Greeter, integrationType: llm, integrateWith: gpt-4o, instruction: "Greet.", actions: [hello] }',
].join('\n');

const AMBIGUOUS = 'Error: both agents.yaml and an agents/ folder are here, and either could be the manifest; pass -f agents.yaml or -f agents (or set AGENTSYNC_MANIFEST) to say which\n';

describe('the agents/ folder is never silently shadowed', () => {
  let lab: Lab;
  let emu: TestEmulator;
  let run: (args: string[], env?: NodeJS.ProcessEnv) => ReturnType<Lab['cli']>;
  /** The server once the 9 resources are applied. */
  let applied: Awaited<ReturnType<typeof appContents>>;
  beforeAll(async () => {
    lab = await openLab();
    emu = await lab.emulator();
    run = (args, env) => lab.cli(emu, args, env);
  });
  afterAll(() => lab.close());
  beforeEach(async () => {
    await Promise.all(
      ['agents', 'agents.yaml', '.agentsync', 'agentsync.schema.json', '.gitignore'].map((name) => import('node:fs/promises').then((fs) => fs.rm(lab.path(name), { recursive: true, force: true }))),
    );
    await emu.reset();
    await writeFolderManifest(lab);
    const first = await run(['apply', '--auto-approve']);
    expect(first.code, first.stderr).toBe(0);
    expect(first.stdout).toContain('Apply complete: 9 created, 0 updated, 0 forgotten.');
    applied = await appContents(emu);
    await emu.clearRequests();
  });

  it('issue 40: 9 resources applied from agents/, then init, then apply --prune --auto-approve deletes nothing', async () => {
    const init = await run(['init']);
    expect(init.code).toBe(1);
    expect(init.stderr).toBe('Error: agents/ is already a manifest here (read when there is no agents.yaml); init would write a second one beside it, so it wrote nothing\n');
    expect(existsSync(lab.path('agents.yaml'))).toBe(false);
    expect(existsSync(lab.path('agentsync.schema.json'))).toBe(false);

    const validate = await run(['validate']);
    expect(validate.code, validate.stderr).toBe(0);
    const apply = await run(['apply', '--prune', '--auto-approve']);
    expect(apply.code, apply.stderr).toBe(0);
    expect(apply.stdout).toContain('No changes.');
    expect(await writesOf(emu)).toEqual([]);
    expect(await appContents(emu)).toEqual(applied);
    expect(applied.agents).toHaveLength(3);
  });

  it('init names the folder it found in the folder it was given', async () => {
    const init = await run(['init', '.']);
    expect(init.code).toBe(1);
    expect(init.stderr).toMatch(/^Error: agents\/ is already a manifest here/);
    const elsewhere = await run(['init', 'sub']);
    expect(elsewhere.code, elsewhere.stderr).toBe(0);
    expect(existsSync(lab.path('sub/agents.yaml'))).toBe(true);
    await import('node:fs/promises').then((fs) => fs.rm(lab.path('sub'), { recursive: true }));
  });

  it('an agents.yaml beside the folder (written by hand, or by an older init) makes every command refuse, naming both', async () => {
    await writeFile(lab.path('agents.yaml'), STARTER);
    for (const args of [['validate'], ['lint'], ['plan'], ['plan', '--json'], ['apply', '--prune', '--auto-approve'], ['state', 'list'], ['import'], ['kb', 'status']]) {
      const result = await run(args);
      expect(result.code, args.join(' ')).toBe(1);
      expect(result.stderr, args.join(' ')).toBe(AMBIGUOUS);
    }
    const json = await run(['plan', '--json']);
    expect(JSON.parse(json.stdout)).toMatchObject({ error: { code: 'usage' } });
    expect(await writesOf(emu)).toEqual([]);
    expect(await appContents(emu)).toEqual(applied);
  });

  it('-f and AGENTSYNC_MANIFEST are explicit and win over the ambiguity', async () => {
    await writeFile(lab.path('agents.yaml'), STARTER);
    const folder = await run(['plan', '-f', 'agents']);
    expect(folder.code, folder.stderr).toBe(0);
    expect(folder.stdout).toContain('No changes.');
    const named = await run(['plan'], { AGENTSYNC_MANIFEST: 'agents' });
    expect(named.code, named.stderr).toBe(0);
    expect(named.stdout).toContain('No changes.');
    const file = await run(['validate', '-f', 'agents.yaml']);
    expect(file.code, file.stderr).toBe(0);
    // fmt given its files needs no default manifest.
    const fmt = await run(['fmt', '--check', 'agents.yaml']);
    expect(fmt.stderr).not.toContain('either could be the manifest');
  });

  it('the shadowing manifest named with -f is stopped by the mass-deletion guard instead', async () => {
    await writeFile(lab.path('agents.yaml'), STARTER);
    const apply = await run(['apply', '-f', 'agents.yaml', '--prune', '--auto-approve']);
    expect(apply.code).toBe(1);
    expect(apply.stdout).toContain('Plan: 2 to create, 0 to update, 9 to delete, 0 to forget.');
    expect(apply.stdout).toContain('Warning: this plan deletes 9 of the 9 resources agentsync manages in environment "local" from the server; check that this is the right manifest');
    expect(apply.stderr).toBe(
      'Error: apply would delete 9 of the 9 resources agentsync manages in environment "local" from the server; nothing was changed. Check that this is the right manifest, and pass --allow-mass-delete if the deletions are meant\n',
    );
    expect(await writesOf(emu)).toEqual([]);
  });
});
