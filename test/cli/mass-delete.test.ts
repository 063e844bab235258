// A plan that takes more than half of what the state manages (and at least 3) out of it warns; an
// apply that would delete them on the server (--prune) refuses under --auto-approve or a saved plan
// unless --allow-mass-delete, and asks with the count otherwise (docs/spec/plan-and-apply.md#mass-deletion).
// In process against the emulator; its request log says whether anything was sent.
import { readFile, rm, writeFile } from 'node:fs/promises';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { runCli } from '../support/cli.js';
import { API_KEY, startTestEmulator, type TestEmulator } from '../support/emulator.js';
import { openLab, writesOf, type Lab } from './lifecycle-fixture.js';

/** Tools t1..tN and one agent using them: N + 1 resources. */
function manifestOf(tools: number, environments = '  local: { appId: local, region: us }'): string {
  const names = Array.from({ length: tools }, (_, i) => `t${i + 1}`);
  const lines = ['version: 1', 'environments:', environments, 'tools:'];
  for (const name of names) lines.push(`  ${name}: { displayName: ${name}, executionText: Working, description: "does ${name} for a customer", parameters: {} }`);
  lines.push('agents:', `  helper: { name: Helper, integrationType: llm, integrateWith: gpt-4o, instruction: "Help.", actions: [${names.join(', ')}] }`);
  return lines.join('\n') + '\n';
}

const DELETES = 'this plan deletes 3 of the 5 resources agentsync manages in environment "local" from the server; check that this is the right manifest';
const FORGETS = 'this plan forgets 3 of the 5 resources agentsync manages in environment "local" (they stay on the server, unmanaged); check that this is the right manifest';
const REFUSAL =
  'Error: apply would delete 3 of the 5 resources agentsync manages in environment "local" from the server; nothing was changed. Check that this is the right manifest, and pass --allow-mass-delete if the deletions are meant\n';

describe('a plan that removes most of the state', () => {
  let lab: Lab;
  let emu: TestEmulator;
  let run: (args: string[], options?: { stdin?: string; tty?: boolean }) => ReturnType<Lab['cli']>;
  beforeAll(async () => {
    lab = await openLab();
    emu = await lab.emulator();
    run = (args, options = {}) =>
      options.tty === true
        ? runCli(args, { cwd: lab.dir, env: { COMETCHAT_API_KEY: API_KEY, AGENTSYNC_BASE_URL: emu.url }, stdin: options.stdin ?? '', tty: { stdin: true, stdout: true, stderr: true } })
        : lab.cli(emu, args);
  });
  afterAll(() => lab.close());
  beforeEach(async () => {
    await rm(lab.path('.agentsync'), { recursive: true, force: true });
    await emu.reset();
    await writeFile(lab.path('agents.yaml'), manifestOf(4));
    const applied = await run(['apply', '--auto-approve']);
    expect(applied.code, applied.stderr).toBe(0);
    // Three of the five leave the manifest.
    await writeFile(lab.path('agents.yaml'), manifestOf(1));
    await emu.clearRequests();
  });

  it('plan warns with the count in text, JSON and markdown; below the threshold it does not', async () => {
    const text = await run(['plan', '--prune']);
    expect(text.code, text.stderr).toBe(0);
    const lines = text.stdout.trimEnd().split('\n');
    expect(lines.at(-1)).toBe('Plan: 0 to create, 1 to update, 3 to delete, 0 to forget.');
    expect(lines.at(-3)).toBe(`Warning: ${DELETES}`);
    const forget = await run(['plan']);
    expect(forget.stdout).toContain(`Warning: ${FORGETS}\n`);

    const json = await run(['plan', '--prune', '--json']);
    expect(json.code, json.stderr).toBe(0);
    expect(JSON.parse(json.stdout)).toMatchObject({ massRemoval: { removed: 3, deleted: 3, managed: 5, message: DELETES } });
    expect(json.stderr).toBe(`Warning: ${DELETES}\n`);
    const markdown = await run(['plan', '--prune', '--format', 'markdown']);
    expect(markdown.stdout).toContain(`> [!CAUTION]\n> ${DELETES}`);

    // Two of five: an ordinary plan, no warning anywhere.
    await writeFile(lab.path('agents.yaml'), manifestOf(2));
    const small = await run(['plan', '--prune', '--json']);
    expect(JSON.parse(small.stdout)).not.toHaveProperty('massRemoval');
    expect(small.stderr).toBe('');
    expect((await run(['plan', '--prune'])).stdout).not.toContain('Warning:');
    expect(await writesOf(emu)).toEqual([]);
  });

  it('apply --prune --auto-approve refuses before any call; --allow-mass-delete deletes', async () => {
    const refused = await run(['apply', '--prune', '--auto-approve']);
    expect(refused.code).toBe(1);
    expect(refused.stdout).toContain(`Warning: ${DELETES}\n`);
    expect(refused.stderr).toBe(REFUSAL);
    const json = await run(['apply', '--prune', '--auto-approve', '--json']);
    expect(json.code).toBe(1);
    expect(JSON.parse(json.stdout)).toMatchObject({ error: { code: 'refused', massRemoval: { removed: 3, deleted: 3, managed: 5 } } });
    expect(await writesOf(emu)).toEqual([]);

    const allowed = await run(['apply', '--prune', '--auto-approve', '--allow-mass-delete']);
    expect(allowed.code, allowed.stderr).toBe(0);
    expect(allowed.stdout).toContain('Apply complete: 0 created, 1 updated, 3 deleted, 0 forgotten.');
    expect((await writesOf(emu)).filter((w) => w.startsWith('DELETE'))).toHaveLength(3);
  });

  it('apply without --prune only forgets: it warns, and --json carries the warning in a field', async () => {
    const json = await run(['apply', '--auto-approve', '--json']);
    expect(json.code, json.stderr).toBe(0);
    expect(JSON.parse(json.stdout)).toMatchObject({ ok: true, summary: { forgotten: 3 }, massRemoval: { removed: 3, deleted: 0, managed: 5, message: FORGETS } });
    expect(json.stderr).toContain(`Warning: ${FORGETS}\n`);
    expect((await writesOf(emu)).filter((w) => w.startsWith('DELETE'))).toEqual([]);
  });

  it('an interactive apply asks with the count in the question', async () => {
    const no = await run(['apply', '--prune'], { tty: true, stdin: 'no\n' });
    expect(no.code).toBe(1);
    expect(no.stdout).toContain(`Do you want to apply these changes, deleting 3 of the 5 resources agentsync manages in environment "local" from the server? Only 'yes' will be accepted: `);
    expect(await writesOf(emu)).toEqual([]);
    const yes = await run(['apply', '--prune'], { tty: true, stdin: 'yes\n' });
    expect(yes.code, yes.stderr).toBe(0);
    expect((await writesOf(emu)).filter((w) => w.startsWith('DELETE'))).toHaveLength(3);
  });

  it('a saved plan warns when made and refuses when applied, unless --allow-mass-delete', async () => {
    const plan = await run(['plan', '--prune', '--out', 'plan.json']);
    expect(plan.code, plan.stderr).toBe(0);
    expect(plan.stdout).toContain(`Warning: ${DELETES}\n`);
    expect(JSON.parse(await readFile(lab.path('plan.json'), 'utf8'))).toMatchObject({ massRemoval: { deleted: 3, managed: 5 } });
    const show = await run(['show', 'plan.json']);
    expect(show.stdout).toContain(`Warning: ${DELETES}\n`);

    const refused = await run(['apply', 'plan.json']);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toBe(REFUSAL);
    expect(await writesOf(emu)).toEqual([]);
    const allowed = await run(['apply', 'plan.json', '--allow-mass-delete']);
    expect(allowed.code, allowed.stderr).toBe(0);
    expect((await writesOf(emu)).filter((w) => w.startsWith('DELETE'))).toHaveLength(3);
  });
});

describe('a mass deletion across several environments', () => {
  let lab: Lab;
  let dev: TestEmulator;
  let prod: TestEmulator;
  const environments = (): string => `  dev: { appId: dev, region: us, baseUrl: "${dev.url}" }\n  prod: { appId: prod, region: us, baseUrl: "${prod.url}" }`;
  beforeAll(async () => {
    lab = await openLab();
    [dev, prod] = await Promise.all([startTestEmulator({ appId: 'dev' }), startTestEmulator({ appId: 'prod' })]);
  });
  afterAll(async () => {
    await Promise.all([dev.close(), prod.close()]);
    await lab.close();
  });

  it('--all-environments --auto-approve refuses it, and --allow-mass-delete applies it', async () => {
    await writeFile(lab.path('agents.yaml'), manifestOf(4, environments()));
    const first = await lab.cli(undefined, ['apply', '--all-environments', '--auto-approve']);
    expect(first.code, first.stderr).toBe(0);
    await writeFile(lab.path('agents.yaml'), manifestOf(1, environments()));
    await Promise.all([dev.clearRequests(), prod.clearRequests()]);

    const refused = await lab.cli(undefined, ['apply', '--all-environments', '--prune', '--auto-approve']);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('apply would delete 3 of the 5 resources agentsync manages in environment "dev" from the server; nothing was changed.');
    expect(refused.stderr).toContain('apply would delete 3 of the 5 resources agentsync manages in environment "prod" from the server; nothing was changed.');
    expect([...(await writesOf(dev)), ...(await writesOf(prod))]).toEqual([]);

    // Asked instead: the one question names each environment's count.
    const asked = await runCli(['apply', '--all-environments', '--prune'], { cwd: lab.dir, env: { COMETCHAT_API_KEY: API_KEY }, stdin: 'no\n', tty: { stdin: true, stdout: true, stderr: true } });
    expect(asked.code).toBe(1);
    expect(asked.stdout).toContain(
      'Do you want to apply these changes to 2 environments (dev, prod), deleting 3 of the 5 resources agentsync manages in environment "dev" from the server, deleting 3 of the 5 resources agentsync manages in environment "prod" from the server? ',
    );
    expect([...(await writesOf(dev)), ...(await writesOf(prod))]).toEqual([]);

    const allowed = await lab.cli(undefined, ['apply', '--all-environments', '--prune', '--auto-approve', '--allow-mass-delete']);
    expect(allowed.code, allowed.stderr).toBe(0);
    expect((await writesOf(dev)).filter((w) => w.startsWith('DELETE'))).toHaveLength(3);
    expect((await writesOf(prod)).filter((w) => w.startsWith('DELETE'))).toHaveLength(3);
  });
});
