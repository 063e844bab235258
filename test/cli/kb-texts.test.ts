// Knowledge-base text entries (docs/spec/knowledge-base.md#text-entries), in-process against the
// emulator: inline and file texts apply and then plan "No changes" under both storages; editing the
// file is one PATCH of that entry; the reference's limits are one line at file:line:col before any
// call; a lost create answer, then a rerun, leaves exactly one entry; a CRLF checkout plans nothing.
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { API_KEY as KEY, startTestEmulator, type TestEmulator } from '../support/emulator.js';
import { runCli, type CliResult } from '../support/cli.js';
import * as api from '../../src/index.js';

const TEXT_PATH = '/ai-agents/agent-builder/knowledge-base/text';

/** A logged request's path below /v3, without its query. */
const below = (path: string): string => (path.split('?')[0] ?? '').replace(/^\/v3/, '');

interface TextRecord {
  uniqueId: string;
  title: string;
  text: string;
  status: string;
}

const REFUNDS = '# Refunds\n\nRefunds are paid within 5 days.\n\n- Keep the receipt.\n- Ask support.\n';

function manifest(texts: string): string {
  return ['version: 1', 'environments:', '  local: { appId: local, region: us }', 'knowledgeBase:', '  texts:', texts, ''].join('\n');
}

const BOTH = manifest(['    refunds: { title: Refund policy, file: kb/refunds.md }', '    hours:', '      title: Opening hours', '      text: "Mon-Fri 9-17"'].join('\n'));

describe('knowledge-base text entries', () => {
  let emu: TestEmulator;
  let dir: string;
  const cli = (args: string[]): Promise<CliResult> =>
    runCli(args[0] === 'validate' || args[0] === 'graph' ? args : [...args, '--state', 'state.json'], { cwd: dir, env: { COMETCHAT_API_KEY: KEY, AGENTSYNC_BASE_URL: emu.url } });
  const texts = async (): Promise<TextRecord[]> => (await emu.get<{ data: TextRecord[] }>(TEXT_PATH)).data;
  const textWrites = async (): Promise<{ method: string; path: string; body?: unknown }[]> =>
    (await emu.apiWrites()).map((r) => ({ ...r, path: below(r.path) })).filter((r) => r.path.startsWith(TEXT_PATH));
  const state = async (): Promise<{ resources: Record<string, { remoteId: string; spec: Record<string, unknown> }> }> => JSON.parse(await readFile(join(dir, 'state.json'), 'utf8'));
  const write = async (path: string, text: string): Promise<void> => {
    await mkdir(join(dir, path, '..'), { recursive: true });
    await writeFile(join(dir, path), text);
  };

  beforeAll(async () => {
    emu = await startTestEmulator({ quiet: true });
  });
  afterAll(async () => {
    await emu.close();
  });
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'agentsync-kb-texts-'));
    await emu.reset();
    await emu.configure({ storeAsSent: false, createStatus: 201 });
    return () => rm(dir, { recursive: true, force: true });
  });

  it.each([
    ['the default storage', false, 201],
    ['--store-as-sent (and 200 creates)', true, 200],
  ] as const)('apply then plan is "No changes" under %s', async (_name, storeAsSent, createStatus) => {
    await emu.configure({ storeAsSent, createStatus });
    await write('agents.yaml', BOTH);
    await write('kb/refunds.md', REFUNDS);
    const applied = await cli(['apply', '--auto-approve']);
    expect(applied.code, applied.stderr).toBe(0);
    expect(applied.stdout).toContain('created text.refunds');
    expect(applied.stdout).toContain('created text.hours');
    const onServer = await texts();
    expect(onServer.map((t) => [t.title, t.text]).sort()).toEqual([
      ['Opening hours', 'Mon-Fri 9-17'],
      ['Refund policy', REFUNDS],
    ]);
    // The path is not part of the spec: the state keeps the title and the text.
    expect((await state()).resources['text.refunds']?.spec).toEqual({ title: 'Refund policy', text: REFUNDS });
    const plan = await cli(['plan', '--detailed-exitcode']);
    expect(plan.stdout).toContain('No changes.');
    expect(plan.code, plan.stdout + plan.stderr).toBe(0);
    // Only the routes the references name: the kinds' lists (the refresh reads every kind) and the text create.
    const routes = new Set((await emu.apiRequests()).map((r) => `${r.method} ${below(r.path)}`));
    expect([...routes].sort()).toEqual([`GET ${TEXT_PATH}`, 'GET /ai-agents/agents', 'GET /ai-agents/tools', `POST ${TEXT_PATH}`]);
  });

  it('editing kb/refunds.md plans one update of text.refunds, shown as a line diff, and apply sends one PATCH with the text only', async () => {
    await write('agents.yaml', BOTH);
    await write('kb/refunds.md', REFUNDS);
    expect((await cli(['apply', '--auto-approve'])).code).toBe(0);
    const id = (await state()).resources['text.refunds']?.remoteId ?? '';
    await emu.clearRequests();

    await write('kb/refunds.md', REFUNDS.replace('5 days', '10 days'));
    const plan = await cli(['plan', '--json']);
    const changes = (JSON.parse(plan.stdout) as { changes: { address: string; action: string }[] }).changes.filter((c) => c.action !== 'no-op');
    expect(changes).toEqual([expect.objectContaining({ address: 'text.refunds', action: 'update' })]);
    const human = await cli(['plan']);
    expect(human.stdout).toContain('~ text.refunds');
    expect(human.stdout).toMatch(/-\s+Refunds are paid within 5 days\./);
    expect(human.stdout).toMatch(/\+\s+Refunds are paid within 10 days\./);
    expect(human.stdout).toContain('Plan: 0 to create, 1 to update, 0 to forget.');

    const applied = await cli(['apply', '--auto-approve']);
    expect(applied.code, applied.stderr).toBe(0);
    expect(await textWrites()).toEqual([expect.objectContaining({ method: 'PATCH', path: `${TEXT_PATH}/${id}`, body: { text: REFUNDS.replace('5 days', '10 days') } })]);
    expect((await texts()).length).toBe(2);
    expect((await cli(['plan'])).stdout).toContain('No changes.');

    // Moving the file, same content, changes nothing.
    await write('knowledge/refunds.md', REFUNDS.replace('5 days', '10 days'));
    await write('agents.yaml', BOTH.replace('kb/refunds.md', 'knowledge/refunds.md'));
    expect((await cli(['plan'])).stdout).toContain('No changes.');
  });

  it('a Windows checkout (CRLF) plans no change against a server that stored LF', async () => {
    await write('agents.yaml', BOTH);
    await write('kb/refunds.md', REFUNDS.replaceAll('\n', '\r\n'));
    expect((await cli(['apply', '--auto-approve'])).code).toBe(0);
    // The default storage keeps LF, as a server writing a markdown file may.
    expect((await texts()).find((t) => t.title === 'Refund policy')?.text).toBe(REFUNDS);
    const plan = await cli(['plan']);
    expect(plan.stdout).toContain('No changes.');
    await write('kb/refunds.md', REFUNDS);
    expect((await cli(['plan'])).stdout).toContain('No changes.');
  });

  it('a 6,000-character text, inline or in a file, and a missing file are one line at file:line:col, exit 1, before any call', async () => {
    const long = 'x'.repeat(6000);
    await write(
      'agents.yaml',
      manifest(['    refunds: { title: Refund policy, file: kb/refunds.md }', '    inline:', '      title: Inline', `      text: ${long}`, '    gone: { title: Gone, file: kb/gone.md }'].join('\n')),
    );
    await write('kb/refunds.md', long);
    await emu.clearRequests();
    for (const command of [['validate'], ['plan'], ['apply', '--auto-approve']]) {
      const run = await cli(command);
      expect(run.code, command.join(' ')).toBe(1);
      expect(run.stderr).not.toMatch(/\n\s+at /);
      expect(run.stderr).toMatch(/agents\.yaml:6:\d+: .*kb\/refunds\.md is 6,000 characters; a text entry holds at most 5,000/);
      expect(run.stderr).toMatch(/agents\.yaml:9:\d+: .*text is 6,000 characters; a text entry holds at most 5,000/);
      expect(run.stderr).toMatch(/agents\.yaml:10:\d+: .*"kb\/gone\.md" does not exist/);
    }
    expect(await emu.apiRequests()).toEqual([]);
  });

  it('a 5,000-character text counted as JavaScript string length is accepted (astral characters count twice)', async () => {
    // 2,500 emoji are 5,000 UTF-16 units: the server's maxLength, exactly.
    await write('agents.yaml', manifest('    emoji: { title: Emoji, file: kb/emoji.md }'));
    await write('kb/emoji.md', '😀'.repeat(2500));
    expect((await cli(['validate'])).code).toBe(0);
    await write('kb/emoji.md', '😀'.repeat(2501));
    const refused = await cli(['validate']);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('kb/emoji.md is 5,002 characters; a text entry holds at most 5,000');
  });

  it('text and file together, or neither, is refused at the entry', async () => {
    await write('agents.yaml', manifest(['    both: { title: Both, text: hi, file: kb/a.md }', '    neither: { title: Neither }'].join('\n')));
    await write('kb/a.md', 'hi');
    const run = await cli(['validate']);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('give text or file, not both');
    expect(run.stderr).toContain('a text entry needs text (inline) or file');
  });

  it('a lost answer to the create, then a rerun: exactly one entry on the server, adopted', async () => {
    await write('agents.yaml', BOTH);
    await write('kb/refunds.md', REFUNDS);
    await emu.configure({ loseAnswerNext: 1, loseAnswerOn: `POST ${TEXT_PATH}` });
    const first = await cli(['apply', '--auto-approve']);
    expect(first.code).not.toBe(0);
    // The dropped create made its entry all the same.
    expect((await texts()).length).toBeGreaterThanOrEqual(1);
    const rerun = await cli(['apply', '--auto-approve']);
    expect(rerun.code, rerun.stdout + rerun.stderr).toBe(0);
    const onServer = await texts();
    expect(onServer.map((t) => t.title).sort()).toEqual(['Opening hours', 'Refund policy']);
    const ids = Object.fromEntries(Object.entries((await state()).resources).map(([address, r]) => [address, r.remoteId]));
    expect(new Set(Object.values(ids))).toEqual(new Set(onServer.map((t) => t.uniqueId)));
    expect((await cli(['plan'])).stdout).toContain('No changes.');
    // Two creates in all: one for each entry, none sent twice.
    expect((await textWrites()).filter((r) => r.method === 'POST')).toHaveLength(2);
  });

  it('--prune deletes the entry; a deleted entry is drift and planned again', async () => {
    await write('agents.yaml', BOTH);
    await write('kb/refunds.md', REFUNDS);
    expect((await cli(['apply', '--auto-approve'])).code).toBe(0);
    const id = (await state()).resources['text.hours']?.remoteId ?? '';
    await emu.call('DELETE', `${TEXT_PATH}/${id}`);
    const drift = JSON.parse((await cli(['plan', '--json'])).stdout) as { drift: { address: string; kind: string }[]; changes: { address: string; action: string }[] };
    expect(drift.drift).toEqual([expect.objectContaining({ address: 'text.hours', kind: 'deleted' })]);
    expect(drift.changes).toContainEqual(expect.objectContaining({ address: 'text.hours', action: 'create' }));

    await write('agents.yaml', manifest('    hours: { title: Opening hours, text: "Mon-Fri 9-17" }'));
    const pruned = await cli(['apply', '--auto-approve', '--prune']);
    expect(pruned.code, pruned.stderr).toBe(0);
    const refundsId = (await textWrites()).find((r) => r.method === 'DELETE')?.path;
    expect(refundsId).toMatch(new RegExp(`^${TEXT_PATH}/[0-9a-f-]{36}$`));
    expect((await texts()).map((t) => t.title)).toEqual(['Opening hours']);
    expect((await state()).resources['text.refunds']).toBeUndefined();
  });
  it('export writes texts inline; export --split writes each in kb/<key>.md, which imports and plans "No changes"', async () => {
    // A file is not interpolated: `${price}` is text, sent as it is, and must come back as it is.
    const priced = `${REFUNDS}Fees: $\{price} per item.\n`;
    await write('agents.yaml', BOTH);
    await write('kb/refunds.md', priced);
    expect((await cli(['apply', '--auto-approve'])).code).toBe(0);
    expect((await texts()).find((t) => t.title === 'Refund policy')?.text).toBe(priced);
    await write('env.yaml', 'version: 1\nenvironments:\n  local: { appId: local, region: us }\n');

    const single = await cli(['export', '-f', 'env.yaml']);
    expect(single.code, single.stderr).toBe(0);
    expect(single.stdout).toContain('  texts:\n    opening_hours:\n      title: Opening hours\n      text: Mon-Fri 9-17\n');
    expect(single.stdout).toContain('Fees: $$' + '{price} per item.');

    const split = await cli(['export', '-f', 'env.yaml', '--split', 'split']);
    expect(split.code, split.stderr).toBe(0);
    // (The emulator's seed tools are exported too, into tools.yaml.)
    const files = (await readdir(join(dir, 'split'), { recursive: true })).filter((f) => f.includes('.')).sort();
    expect(files.filter((f) => f.startsWith('kb') || f.startsWith('texts'))).toEqual(['kb/opening_hours.md', 'kb/refund_policy.md', 'texts.yaml']);
    const part = await readFile(join(dir, 'split', 'texts.yaml'), 'utf8');
    expect(part).toContain('    refund_policy:\n      title: Refund policy\n      file: kb/refund_policy.md\n');
    expect(part).not.toContain('Refunds are paid');
    expect(await readFile(join(dir, 'split', 'kb', 'refund_policy.md'), 'utf8')).toBe(priced);
    expect(await readFile(join(dir, 'split', 'kb', 'opening_hours.md'), 'utf8')).toBe('Mon-Fri 9-17');

    const imported = await runCli(['import', '-f', 'split', '--state', 'split.json'], { cwd: dir, env: { COMETCHAT_API_KEY: KEY, AGENTSYNC_BASE_URL: emu.url } });
    expect(imported.code, imported.stderr).toBe(0);
    const plan = await runCli(['plan', '--detailed-exitcode', '-f', 'split', '--state', 'split.json'], { cwd: dir, env: { COMETCHAT_API_KEY: KEY, AGENTSYNC_BASE_URL: emu.url } });
    expect(plan.stdout, plan.stderr).toContain('No changes.');
    expect(plan.code).toBe(0);
  });
  it('apply --wait follows the texts to indexed; kb status reports each one, alone or with the rest', async () => {
    await emu.configure({ kbProcessingMs: 300 });
    await write('agents.yaml', BOTH);
    await write('kb/refunds.md', REFUNDS);
    const before = await cli(['kb', 'status']);
    expect(before).toMatchObject({ code: 0, stdout: 'No websites in the state.\n' });

    const applied = await runCli(['apply', '--auto-approve', '--wait', '--state', 'state.json'], {
      cwd: dir,
      env: { COMETCHAT_API_KEY: KEY, AGENTSYNC_BASE_URL: emu.url, AGENTSYNC_KB_POLL_MS: '50' },
    });
    expect(applied.code, applied.stderr).toBe(0);
    expect(applied.stdout).toMatch(/Indexing complete: 2 processed, 0 failed/);
    const polls = (await emu.apiRequests('POST')).filter((r) => below(r.path) === '/ai-agents/agent-builder/knowledge-base/status/poll');
    expect(polls.length).toBeGreaterThan(0);
    // One request a round for every text, whatever their number.
    expect((polls[0]?.body as { uniqueId: string[] }).uniqueId).toHaveLength(2);

    const status = await cli(['kb', 'status']);
    expect(status.code, status.stderr).toBe(0);
    expect(status.stdout).toBe('text.hours    indexed\ntext.refunds  indexed\n');
    await emu.configure({ kbProcessingMs: 60_000 });
    await write('kb/refunds.md', `${REFUNDS}More.\n`);
    expect((await cli(['apply', '--auto-approve'])).code).toBe(0);
    const one = JSON.parse((await cli(['kb', 'status', 'text.refunds', '--json'])).stdout) as unknown;
    const id = (await state()).resources['text.refunds']?.remoteId;
    expect(one).toEqual({ websites: [], sources: [{ address: 'text.refunds', type: 'text', uniqueId: id, status: 'indexing' }] });
    const typo = await cli(['kb', 'status', 'text.refund']);
    expect(typo).toMatchObject({ code: 1, stderr: expect.stringContaining('text.refund is not in the state: the state has text.hours, text.refunds; did you mean "text.refunds"?') });
  });
  it('graph, moved:, --target, state list, markdown plans and the library treat texts as every kind', async () => {
    await write('agents.yaml', BOTH);
    await write('kb/refunds.md', REFUNDS);
    const graph = await cli(['graph']);
    expect(graph.code, graph.stderr).toBe(0);
    expect(graph.stdout).toMatch(/>"text\.refunds<br\/>Refund policy"\]/);
    expect(graph.stdout).toMatch(/>"text\.hours<br\/>Opening hours"\]/);
    expect((await cli(['graph', '--format', 'dot'])).stdout).toMatch(/"text\.refunds" \[label="text\.refunds\\nRefund policy", shape=note/);

    const env = { COMETCHAT_API_KEY: KEY, AGENTSYNC_BASE_URL: emu.url };
    const applied = await api.apply({ cwd: dir, env, state: 'state.json' });
    expect(applied.result.ok).toBe(true);
    const listed = await cli(['state', 'list']);
    expect(listed.stdout).toMatch(/text\.refunds\s+text\s+[0-9a-f-]{36}/);
    const refundsId = (await state()).resources['text.refunds']?.remoteId;

    // moved: a renamed key keeps its entry on the server.
    await write('agents.yaml', `${BOTH.replace('    refunds:', '    policy:')}moved:\n  - { from: text.refunds, to: text.policy }\n`);
    const moved = await cli(['plan']);
    expect(moved.stdout).toContain('text.refunds → text.policy (moved)');
    expect(moved.stdout).toContain('0 to create, 0 to update');
    expect((await cli(['apply', '--auto-approve'])).code).toBe(0);
    expect((await state()).resources['text.policy']?.remoteId).toBe(refundsId);

    // --target: only that entry's change; the markdown plan names it.
    await write('kb/refunds.md', `${REFUNDS}Changed.\n`);
    await write('agents.yaml', (await readFile(join(dir, 'agents.yaml'), 'utf8')).replace('Mon-Fri 9-17', 'Mon-Sat 9-17'));
    const targeted = JSON.parse((await cli(['plan', '--json', '--target', 'text.hours'])).stdout) as { changes: { address: string; action: string }[] };
    expect(targeted.changes.filter((c) => c.action !== 'no-op').map((c) => c.address)).toEqual(['text.hours']);
    const markdown = await cli(['plan', '--format', 'markdown']);
    expect(markdown.stdout).toContain('text.policy');
    expect(markdown.stdout).toContain('text.hours');

    // The library plans the edited file as one update, and applies it as one PATCH.
    const planned = await api.plan({ cwd: dir, env, state: 'state.json', target: 'text.policy' });
    expect(planned.plan.changes.filter((c) => c.action !== 'no-op').map((c) => `${c.action} ${c.address}`)).toEqual(['update text.policy']);
    await emu.clearRequests();
    expect((await api.apply({ cwd: dir, env, state: 'state.json', target: 'text.policy' })).result.ok).toBe(true);
    expect((await textWrites()).map((r) => `${r.method} ${r.path}`)).toEqual([`PATCH ${TEXT_PATH}/${refundsId}`]);
  });

  it('a saved plan is stale once the text file it read has changed', async () => {
    await write('agents.yaml', BOTH);
    await write('kb/refunds.md', REFUNDS);
    expect((await cli(['plan', '--out', 'plan.json'])).code).toBe(0);
    await write('kb/refunds.md', `${REFUNDS}Changed after the plan.\n`);
    await emu.clearRequests();
    const applied = await runCli(['apply', 'plan.json', '--state', 'state.json'], { cwd: dir, env: { COMETCHAT_API_KEY: KEY, AGENTSYNC_BASE_URL: emu.url } });
    expect(applied.code).toBe(1);
    expect(applied.stderr).toContain('saved plan plan.json is stale');
    expect(await textWrites()).toEqual([]);
  });
});
