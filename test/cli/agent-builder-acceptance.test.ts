// Issue 42's "Done when", all the new kinds together: examples/agent-builder (a folder manifest with
// an Agent Builder agent attached to a website, two text entries from markdown and a PDF), copied to a
// temp folder and driven through the CLI in-process against the emulator on port 0. One test per
// bullet: converge under both storages and both attach-array mappings, the routes used, an edited
// text, a replaced file, a detach then a prune, the refusals before any call, lost answers, and
// export --split round-tripping.
import { cp, mkdir, mkdtemp, readFile, rm, truncate, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { BuilderAgentListResponse, BuilderAgentRecord } from '../../src/core/agent-builder-wire.js';
import { API_KEY as KEY, startTestEmulator, type TestEmulator } from '../support/emulator.js';
import { ROOT, runCli, type CliResult } from '../support/cli.js';

const KB = '/ai-agents/agent-builder/knowledge-base';
const AGENTS = '/ai-agents/agent-builder/agents';
const SOURCES = ['website.docs', 'text.refunds', 'text.shipping', 'file.handbook'];

interface StateFile {
  resources: Record<string, { remoteId: string; spec: Record<string, unknown> }>;
  pending?: Record<string, unknown>;
}

interface KbEntry {
  uniqueId: string;
  type: string;
}

describe('issue 42 acceptance: examples/agent-builder against the emulator', () => {
  let emu: TestEmulator;
  let dir: string;
  /** The CLI in `dir`, on the folder manifest `m/` and the state `state.json`. */
  const cli = (args: string[], env: Record<string, string> = {}): Promise<CliResult> =>
    runCli([...args, ...(['validate', 'lint', 'graph'].includes(args[0] ?? '') ? [] : ['--state', 'state.json']), '-f', 'm'], {
      cwd: dir,
      env: { COMETCHAT_API_KEY: KEY, AGENTSYNC_BASE_URL: emu.url, ...env },
    });
  const apply = async (...extra: string[]): Promise<CliResult> => {
    const run = await cli(['apply', '--auto-approve', ...extra]);
    expect(run.code, run.stdout + run.stderr).toBe(0);
    return run;
  };
  const expectNoChanges = async (): Promise<void> => {
    const plan = await cli(['plan', '--detailed-exitcode']);
    expect(plan.stdout, plan.stderr).toContain('No changes.');
    expect(plan.code).toBe(0);
  };
  const state = async (): Promise<StateFile> => JSON.parse(await readFile(join(dir, 'state.json'), 'utf8')) as StateFile;
  const ids = async (): Promise<Record<string, string>> => Object.fromEntries(Object.entries((await state()).resources).map(([address, entry]) => [address, entry.remoteId]));
  const agents = async (): Promise<BuilderAgentRecord[]> => (await emu.get<BuilderAgentListResponse>(`${AGENTS}?limit=100`)).data;
  const kbEntries = async (): Promise<KbEntry[]> => (await emu.get<{ data: KbEntry[] }>(`${KB}?start=0&end=253402300799999&limit=100`)).data;
  /** The one agent's attached ids, both arrays, sorted. */
  const attached = async (): Promise<string[]> => {
    const listed = await agents();
    expect(listed).toHaveLength(1);
    return [...(listed[0]?.files ?? []), ...(listed[0]?.websites ?? [])].sort();
  };
  /** The API calls since the last clear, as `METHOD template` with every id the state or the server knows as {id}. */
  const routes = async (gone: Record<string, string> = {}): Promise<string[]> => {
    const known = [...Object.values(gone), ...Object.values(await ids()), ...(await agents()).map((a) => a.uid), ...(await kbEntries()).map((e) => e.uniqueId)];
    return (await emu.requests())
      .filter((r) => !r.path.startsWith('/__emulator'))
      .map((r) => {
        let path = (r.path.split('?')[0] ?? '').replace(/^\/v3/, '');
        for (const id of known) if (id !== '') path = path.replaceAll(id, '{id}');
        return `${r.method} ${path.replace(/^\/__uploads\/[^/]+$/, '/__uploads/{id}')}`;
      });
  };
  const edit = async (file: string, change: (text: string) => string): Promise<void> => writeFile(join(dir, 'm', file), change(await readFile(join(dir, 'm', file), 'utf8')));

  beforeAll(async () => {
    emu = await startTestEmulator({ quiet: true, kb: { kbProcessingMs: 0 } });
  });
  afterAll(async () => {
    await emu.close();
  });
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'agentsync-accept-'));
    await cp(join(ROOT, 'examples', 'agent-builder'), join(dir, 'm'), { recursive: true });
    await emu.reset();
    await emu.configure({ storeAsSent: false, kbAttachArrays: 'split' });
    return () => rm(dir, { recursive: true, force: true });
  });

  it.each([
    ['the default storage', false],
    ['storeAsSent', true],
  ] as const)('1. applies, then plans No changes under %s; only the references’ routes; the agent holds exactly the attached ids', async (_name, storeAsSent) => {
    await emu.configure({ storeAsSent });
    const applied = await apply();
    for (const address of ['builderAgent.concierge', ...SOURCES]) expect(applied.stdout).toContain(`created ${address}`);
    await expectNoChanges();
    const byAddress = await ids();
    expect(Object.keys(byAddress).sort()).toEqual(['builderAgent.concierge', ...SOURCES].sort());
    const [agent] = await agents();
    expect(agent?.uid).toBe(byAddress['builderAgent.concierge']);
    // The default mapping: websites in `websites`, texts and uploads in `files`.
    expect(agent?.websites).toEqual([byAddress['website.docs']]);
    expect([...(agent?.files ?? [])].sort()).toEqual([byAddress['text.refunds'], byAddress['text.shipping'], byAddress['file.handbook']].sort());
    expect([...new Set(await routes())].sort()).toEqual([
      `GET ${AGENTS}`,
      `GET ${KB}`,
      `GET ${KB}/text`,
      `GET ${KB}/website/{id}/discovered-urls`,
      'GET /ai-agents/agents',
      'GET /ai-agents/tools',
      `PATCH ${AGENTS}/{id}/knowledge-base/text/add`,
      `PATCH ${AGENTS}/{id}/knowledge-base/uploads/add`,
      `PATCH ${AGENTS}/{id}/knowledge-base/website/add`,
      `POST ${AGENTS}`,
      `POST ${KB}/text`,
      `POST ${KB}/uploads/initiate`,
      `POST ${KB}/website/scrape`,
      `POST ${KB}/website/{id}/discovered-urls/process`,
      // The presigned URL the initiate answered (the emulator's own origin stands in for S3).
      'PUT /__uploads/{id}',
    ]);
  });

  it('2. editing kb/refunds.md plans one update of text.refunds and nothing else; apply sends exactly one PATCH', async () => {
    await apply();
    const before = await ids();
    await edit('kb/refunds.md', (text) => text.replace('30 days', '45 days'));
    const plan = await cli(['plan', '--json']);
    expect(plan.code, plan.stderr).toBe(0);
    const changes = (JSON.parse(plan.stdout) as { changes: { address: string; action: string }[] }).changes.filter((c) => c.action !== 'no-op');
    expect(changes.map((c) => [c.address, c.action])).toEqual([['text.refunds', 'update']]);
    await emu.clearRequests();
    await apply();
    expect((await routes()).filter((r) => !r.startsWith('GET '))).toEqual([`PATCH ${KB}/text/{id}`]);
    expect((await emu.apiWrites())[0]?.path).toBe(`/v3${KB}/text/${before['text.refunds']}`);
    expect(await ids()).toEqual(before);
    await expectNoChanges();
  });

  it('3. a replaced kb/handbook.pdf plans -/+ file.handbook; one apply uploads once, deletes the old, attaches the new only', async () => {
    await apply();
    const before = await ids();
    await writeFile(join(dir, 'm', 'kb', 'handbook.pdf'), '%PDF-1.4\n% the handbook, second edition\n%%EOF\n');
    const plan = await cli(['plan']);
    expect(plan.code, plan.stderr).toBe(0);
    expect(plan.stdout).toMatch(/^\s*-\/\+ file\.handbook/m);
    expect(plan.stdout).toContain(`- knowledge: file.handbook (the replaced one, ${before['file.handbook']}; its delete detaches it)`);
    expect(plan.stdout).toContain('+ knowledge: file.handbook\n');
    expect(plan.stdout).toContain('Plan: 0 to create, 1 to update, 1 to replace, 0 to forget.');
    await emu.clearRequests();
    await apply();
    // The old upload's delete detaches it from the agent (the server does): no remove is sent for it.
    expect((await routes(before)).filter((r) => !r.startsWith('GET '))).toEqual([
      `POST ${KB}/uploads/initiate`,
      'PUT /__uploads/{id}',
      `DELETE ${KB}/uploads/{id}`,
      `PATCH ${AGENTS}/{id}/knowledge-base/uploads/add`,
    ]);
    expect((await emu.apiWrites()).filter((r) => r.method === 'DELETE').map((r) => r.path)).toEqual([`/v3${KB}/uploads/${before['file.handbook']}`]);
    const after = await ids();
    expect(after['file.handbook']).not.toBe(before['file.handbook']);
    expect(await attached()).toEqual([after['website.docs'], after['text.refunds'], after['text.shipping'], after['file.handbook']].sort());
    expect((await kbEntries()).filter((e) => e.type === 'uploads').map((e) => e.uniqueId)).toEqual([after['file.handbook']]);
    await expectNoChanges();
  });

  it('4. text.refunds out of knowledge: plans and sends one remove, no delete; out of the manifest, --prune deletes it', async () => {
    await apply();
    const before = await ids();
    await edit('concierge.yaml', (text) => text.replace('text.refunds, ', ''));
    const plan = await cli(['plan']);
    expect(plan.code, plan.stderr).toBe(0);
    expect(plan.stdout).toContain('- knowledge: text.refunds');
    expect(plan.stdout).toContain('Plan: 0 to create, 1 to update, 0 to forget.');
    await emu.clearRequests();
    await apply();
    expect((await routes()).filter((r) => !r.startsWith('GET '))).toEqual([`PATCH ${AGENTS}/{id}/knowledge-base/text/remove`]);
    expect((await emu.apiWrites())[0]?.body).toEqual({ uniqueIds: [before['text.refunds']] });
    expect(await attached()).toEqual([before['website.docs'], before['text.shipping'], before['file.handbook']].sort());
    await expectNoChanges();

    await edit('knowledge.yaml', (text) => text.replace(/ {4}refunds:.*\n.*\n.*\n/, ''));
    const pruning = await cli(['plan', '--prune']);
    expect(pruning.stdout).toMatch(/^\s*- text\.refunds/m);
    await emu.clearRequests();
    await apply('--prune');
    expect((await routes(before)).filter((r) => !r.startsWith('GET '))).toEqual([`DELETE ${KB}/text/{id}`]);
    expect((await emu.apiWrites())[0]?.path).toBe(`/v3${KB}/text/${before['text.refunds']}`);
    expect(Object.keys(await ids())).not.toContain('text.refunds');
    await expectNoChanges();
  });

  it.each([
    ['a 6,000-character text', async () => writeFile(join(dir, 'm', 'kb', 'refunds.md'), 'x'.repeat(6000)), /^knowledge\.yaml:12:13: .*6,000 characters.*5,000/],
    [
      'a 60 MB file',
      // Sparse: 60 MB long without 60 MB written; nothing of it is read.
      async () => truncate(join(dir, 'm', 'kb', 'handbook.pdf'), 60 * 1024 * 1024),
      /^knowledge\.yaml:18:13: .*"kb\/handbook\.pdf" is 62,914,560 bytes \(60\.0 MB\); the limit is 52,428,800 bytes/,
    ],
    [
      'a .exe',
      async () => {
        await writeFile(join(dir, 'm', 'kb', 'setup.exe'), 'MZ');
        await edit('knowledge.yaml', (text) => text.replace('kb/handbook.pdf', 'kb/setup.exe'));
      },
      /^knowledge\.yaml:18:13: .*"kb\/setup\.exe" is not a type the knowledge base takes/,
    ],
    ['a missing file', async () => edit('knowledge.yaml', (text) => text.replace('kb/shipping.md', 'kb/gone.md')), /^knowledge\.yaml:15:13: .*"kb\/gone\.md" does not exist/],
    [
      'an unknown knowledge: address',
      async () => edit('concierge.yaml', (text) => text.replace('text.shipping', 'text.shiping')),
      /^concierge\.yaml:10:\d+: .*unknown knowledge address "text\.shiping".*did you mean "text\.shipping"\?/,
    ],
  ] as const)('5. %s is one line at file:line:col of the right file, exit 1, before any call', async (_name, spoil, line) => {
    await spoil();
    await emu.clearRequests();
    for (const command of [['validate'], ['plan'], ['apply', '--auto-approve']]) {
      const run = await cli(command);
      expect(run.code, run.stdout + run.stderr).toBe(1);
      // The problem is one line; validate adds its count ("1 error, 0 warnings"), plan and apply a heading naming the file; no stack.
      const lines = run.stderr
        .trimEnd()
        .split('\n')
        .filter((text) => /\.yaml:\d+:\d+: /.test(text));
      expect(lines, run.stderr).toHaveLength(1);
      expect(lines[0]?.replace(/^m\//, '')).toMatch(line);
      expect(run.stderr.trimEnd().split('\n').length, run.stderr).toBeLessThanOrEqual(2);
      expect(run.stderr).not.toMatch(/\n\s+at /);
    }
    expect(await emu.requests()).toEqual([]);
  });

  it.each([
    ['a text create', `POST ${KB}/text`, 'text-details'],
    ['an upload initiate', `POST ${KB}/uploads/initiate`, 'uploads'],
  ] as const)('6. the answer to %s lost, then a rerun: exactly one entry on the server, and the agent attached', async (_name, route, type) => {
    await emu.configure({ loseAnswerNext: 1, loseAnswerOn: route });
    const lost = await cli(['apply', '--auto-approve']);
    expect(lost.code).toBe(1);
    await apply();
    const entries = (await kbEntries()).filter((e) => e.type === type);
    expect(entries).toHaveLength(type === 'text-details' ? 2 : 1);
    const byAddress = await ids();
    expect(entries.map((e) => e.uniqueId).sort()).toEqual((type === 'text-details' ? [byAddress['text.refunds'], byAddress['text.shipping']] : [byAddress['file.handbook']]).sort());
    expect(await attached()).toEqual(SOURCES.map((address) => byAddress[address]).sort());
    await expectNoChanges();
  });

  it('7. export --split of the applied example (its agent attached to a website, texts and a file), imported, plans No changes', async () => {
    await apply();
    await writeFile(join(dir, 'env.yaml'), await readFile(join(dir, 'm', 'environments.yaml'), 'utf8'));
    const env = { COMETCHAT_API_KEY: KEY, AGENTSYNC_BASE_URL: emu.url, AGENT_RETURNS_DESK_HEADERS_AUTHORIZATION: 'x' };
    const exported = await runCli(['export', '-f', 'env.yaml', '--split', 'split'], { cwd: dir, env });
    expect(exported.code, exported.stderr).toBe(0);
    // An upload cannot be downloaded: the export names where it goes, and the user puts it there.
    expect(await readFile(join(dir, 'split', 'files.yaml'), 'utf8')).toContain('knowledgeBase:\n  files:\n    handbook:\n      file: files/handbook.pdf\n');
    expect(exported.stderr).toContain('Warning: file "handbook.pdf" cannot be downloaded: put it at "split/files/handbook.pdf" before planning the export.\n');
    const knowledge = /knowledge: \[(.*)\]\n/.exec(await readFile(join(dir, 'split', 'builder-agents', 'concierge.yaml'), 'utf8'))?.[1]?.split(', ');
    // The API lists no websites: the one the agent attaches is written by its id (the seed form).
    const websiteKey = /^ {4}(website_[^:]+):/m.exec(await readFile(join(dir, 'split', 'websites.yaml'), 'utf8'))?.[1];
    expect(websiteKey).toBeDefined();
    expect(knowledge?.sort()).toEqual(['file.handbook', 'text.refund_policy', 'text.shipping_times_and_carriers', `website.${websiteKey}`]);
    await mkdir(join(dir, 'split', 'files'), { recursive: true });
    await cp(join(dir, 'm', 'kb', 'handbook.pdf'), join(dir, 'split', 'files', 'handbook.pdf'));
    const imported = await runCli(['import', '-f', 'split', '--state', 'split.json'], { cwd: dir, env });
    expect(imported.code, imported.stdout + imported.stderr).toBe(0);
    await emu.clearRequests();
    const plan = await runCli(['plan', '--detailed-exitcode', '-f', 'split', '--state', 'split.json'], { cwd: dir, env });
    expect(plan.stdout, plan.stderr).toContain('No changes.');
    expect(plan.stdout).not.toContain('Changed outside agentsync');
    expect(plan.code).toBe(0);
    expect(await emu.apiWrites()).toEqual([]);
  });

  it('8. under kbAttachArrays: files (every attached id in files) the example converges too', async () => {
    await emu.configure({ kbAttachArrays: 'files' });
    await apply();
    await expectNoChanges();
    const byAddress = await ids();
    const [agent] = await agents();
    expect(agent?.websites).toEqual([]);
    expect([...(agent?.files ?? [])].sort()).toEqual(SOURCES.map((address) => byAddress[address]).sort());
  });
});
