// Agent Builder agents (`builderAgents:`) and their `knowledge:` through the CLI in-process,
// against the emulator on port 0: apply then `No changes` under both storage modes, updates that
// send only what changed, attachments added and removed one by one, a source deleted with --prune
// (detached by the server, and the plan says so), and validation of knowledge addresses.
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { BuilderAgentListResponse, BuilderAgentRecord } from '../../src/core/agent-builder-wire.js';
import { API_KEY as KEY, startTestEmulator, type TestEmulator } from '../support/emulator.js';
import { runCli, type CliResult } from '../support/cli.js';

/** The seed's BYO agent with headers exports a secret placeholder; import and plan need its value. */
const DEMO_SECRET_ENV = { AGENT_RETURNS_DESK_HEADERS_AUTHORIZATION: 'x' };
const HEAD = ['version: 1', 'environments:', '  local: { appId: local, region: us }'];
const SITE_A = 'https://docs.example.com';
const SITE_B = 'https://docs.example.com/guides';

interface ManifestOptions {
  knowledge?: string[];
  websites?: Record<string, string>;
  extra?: string[];
}

function manifest({ knowledge = ['website.docs'], websites = { docs: SITE_A }, extra = [] }: ManifestOptions = {}): string {
  return [
    ...HEAD,
    'knowledgeBase:',
    '  websites:',
    ...Object.entries(websites).map(([key, url]) => `    ${key}: { url: "${url}" }`),
    'builderAgents:',
    '  concierge:',
    '    name: Concierge',
    '    description: Answers questions about orders',
    '    instruction: You are the concierge.',
    '    modelMetaData: { temperature: 0.2, maxTokens: 1024 }',
    `    knowledge: [${knowledge.join(', ')}]`,
    ...extra,
    '',
  ].join('\n');
}

describe.each([
  ['the default storage', false],
  ['storeAsSent', true],
] as const)('builder agents against %s', (_name, storeAsSent) => {
  let emu: TestEmulator;
  let dir: string;
  const cli = (args: string[]): Promise<CliResult> => runCli([...args, '--state', 'state.json'], { cwd: dir, env: { COMETCHAT_API_KEY: KEY, AGENTSYNC_BASE_URL: emu.url } });
  const write = (text: string): Promise<void> => writeFile(join(dir, 'agents.yaml'), text);
  const agents = async (): Promise<BuilderAgentRecord[]> => (await emu.get<BuilderAgentListResponse>('/ai-agents/agent-builder/agents?limit=100')).data;
  const stateIds = async (): Promise<Record<string, string>> => {
    const state = JSON.parse(await readFile(join(dir, 'state.json'), 'utf8')) as { resources: Record<string, { remoteId: string }> };
    return Object.fromEntries(Object.entries(state.resources).map(([address, entry]) => [address, entry.remoteId]));
  };

  beforeAll(async () => {
    emu = await startTestEmulator({ quiet: true, storeAsSent, kb: { kbProcessingMs: 0 } });
  });
  afterAll(async () => {
    await emu.close();
  });
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'agentsync-builder-agents-'));
    await emu.reset();
    return () => rm(dir, { recursive: true, force: true });
  });

  it('applies an agent with its knowledge, then plans No changes; the agent holds the attached id', async () => {
    await write(manifest());
    const plan = await cli(['plan']);
    expect(plan.code, plan.stderr).toBe(0);
    expect(plan.stdout).toContain('+ builderAgent.concierge');
    expect(plan.stdout).toContain('+ knowledge: website.docs');
    const applied = await cli(['apply', '--auto-approve']);
    expect(applied.code, applied.stderr + applied.stdout).toBe(0);
    // The progress line says what the change did, not only its last call (an attach).
    expect(applied.stdout).toMatch(/created builderAgent\.concierge \(POST, attached 1 source, \d+ ms\)/);

    const ids = await stateIds();
    const [agent] = await agents();
    expect(agent?.uid).toBe(ids['builderAgent.concierge']);
    expect([...(agent?.files ?? []), ...(agent?.websites ?? [])]).toEqual([ids['website.docs']]);
    // Create sent no knowledge field; one attach call went to the website route.
    const writes = (await emu.apiWrites()).filter((entry) => entry.path.startsWith('/v3/ai-agents/agent-builder/agents'));
    expect(writes.map((entry) => `${entry.method} ${entry.path.replace(agent?.uid ?? '', '{uid}').replace('/v3', '')}`)).toEqual([
      'POST /ai-agents/agent-builder/agents',
      'PATCH /ai-agents/agent-builder/agents/{uid}/knowledge-base/website/add',
    ]);
    expect(writes[0]?.body).not.toHaveProperty('knowledge');
    expect(writes[1]?.body).toEqual({ uniqueIds: [ids['website.docs']] });

    const again = await cli(['plan', '--detailed-exitcode']);
    expect(again.code, again.stdout).toBe(0);
    expect(again.stdout).toContain('No changes.');
  });

  it('converges when the server keeps every attached id in files (kbAttachArrays: files)', async () => {
    await emu.configure({ kbAttachArrays: 'files' });
    try {
      await write(manifest({ knowledge: ['website.docs', 'website.guides'], websites: { docs: SITE_A, guides: SITE_B } }));
      expect((await cli(['apply', '--auto-approve'])).code).toBe(0);
      const ids = await stateIds();
      const [agent] = await agents();
      expect(agent?.websites).toEqual([]);
      expect([...(agent?.files ?? [])].sort()).toEqual([ids['website.docs'], ids['website.guides']].sort());
      expect((await cli(['plan', '--detailed-exitcode'])).code).toBe(0);
      await write(manifest({ knowledge: ['website.guides'], websites: { docs: SITE_A, guides: SITE_B } }));
      expect((await cli(['apply', '--auto-approve'])).code).toBe(0);
      expect((await agents())[0]?.files).toEqual([ids['website.guides']]);
      expect((await cli(['plan', '--detailed-exitcode'])).code).toBe(0);
    } finally {
      await emu.configure({ kbAttachArrays: 'split' });
    }
  });

  it('a plan of a manifest without builder agents (and a state without any) reads no Agent Builder list', async () => {
    await write([...HEAD, 'knowledgeBase:', '  websites:', `    docs: { url: "${SITE_A}" }`, ''].join('\n'));
    expect((await cli(['plan'])).code).toBe(0);
    expect((await emu.apiRequests('GET')).some((entry) => entry.path.startsWith('/v3/ai-agents/agent-builder/agents'))).toBe(false);
  });

  it('a lost answer to the create, then a rerun: exactly one agent on the server, adopted and attached', async () => {
    await write(manifest());
    await emu.configure({ loseAnswerNext: 1, loseAnswerOn: 'POST /ai-agents/agent-builder/agents' });
    const lost = await cli(['apply', '--auto-approve']);
    expect(lost.code).not.toBe(0);
    const rerun = await cli(['apply', '--auto-approve']);
    expect(rerun.code, rerun.stderr + rerun.stdout).toBe(0);
    const listed = await agents();
    expect(listed).toHaveLength(1);
    const ids = await stateIds();
    expect(listed[0]?.uid).toBe(ids['builderAgent.concierge']);
    expect([...(listed[0]?.files ?? []), ...(listed[0]?.websites ?? [])]).toEqual([ids['website.docs']]);
    expect((await cli(['plan', '--detailed-exitcode'])).code).toBe(0);
  });

  it('an edit sends only the changed field; adding and removing knowledge shows item by item and sends one add and one remove', async () => {
    await write(manifest());
    expect((await cli(['apply', '--auto-approve'])).code).toBe(0);
    await emu.clearRequests();

    await write(manifest({ knowledge: ['website.guides'], websites: { docs: SITE_A, guides: SITE_B } }).replace('You are the concierge.', 'You are the kind concierge.'));
    const plan = await cli(['plan']);
    expect(plan.stdout).toContain('- knowledge: website.docs');
    expect(plan.stdout).toContain('+ knowledge: website.guides');
    const applied = await cli(['apply', '--auto-approve']);
    expect(applied.code, applied.stderr + applied.stdout).toBe(0);

    const ids = await stateIds();
    const uid = ids['builderAgent.concierge'] ?? '';
    const writes = (await emu.apiWrites()).filter((entry) => entry.path.startsWith('/v3/ai-agents/agent-builder/agents'));
    expect(writes.map((entry) => [entry.method, entry.path.replace(uid, '{uid}').replace('/v3', ''), entry.body])).toEqual([
      ['PATCH', '/ai-agents/agent-builder/agents/{uid}', { instruction: 'You are the kind concierge.' }],
      ['PATCH', '/ai-agents/agent-builder/agents/{uid}/knowledge-base/website/add', { uniqueIds: [ids['website.guides']] }],
      ['PATCH', '/ai-agents/agent-builder/agents/{uid}/knowledge-base/website/remove', { uniqueIds: [ids['website.docs']] }],
    ]);
    // The website stays: removing it from knowledge detaches, never deletes.
    expect(writes.some((entry) => entry.method === 'DELETE')).toBe(false);
    const [agent] = await agents();
    expect([...(agent?.files ?? []), ...(agent?.websites ?? [])]).toEqual([ids['website.guides']]);
    expect((await cli(['plan', '--detailed-exitcode'])).code).toBe(0);
  });

  it('--prune of a source says on its delete line whom it detaches from, and the agent converges', async () => {
    await write(manifest({ knowledge: ['website.docs', 'website.guides'], websites: { docs: SITE_A, guides: SITE_B } }));
    expect((await cli(['apply', '--auto-approve'])).code).toBe(0);
    await write(manifest({ knowledge: ['website.docs'], websites: { docs: SITE_A } }));
    const plan = await cli(['plan', '--prune']);
    expect(plan.stdout).toMatch(/- website\.guides .*will be deleted from the server \(detaches it from builderAgent\.concierge\)/);
    expect(plan.stdout).toContain('- knowledge: website.guides');
    const applied = await cli(['apply', '--prune', '--auto-approve']);
    expect(applied.code, applied.stderr + applied.stdout).toBe(0);
    expect((await cli(['plan', '--detailed-exitcode'])).code).toBe(0);
  });

  it('an id attached outside agentsync is shown by id and detached', async () => {
    await write(manifest());
    expect((await cli(['apply', '--auto-approve'])).code).toBe(0);
    const uid = (await stateIds())['builderAgent.concierge'] ?? '';
    const other = await emu.call('POST', '/ai-agents/agent-builder/knowledge-base/website/scrape', { url: SITE_B });
    const otherId = (other.json as { data: { crawlId: string } }).data.crawlId;
    expect((await emu.call('PATCH', `/ai-agents/agent-builder/agents/${uid}/knowledge-base/website/add`, { uniqueIds: [otherId] })).status).toBe(200);

    const plan = await cli(['plan']);
    expect(plan.stdout).toContain(`- knowledge: ${otherId}`);
    expect((await cli(['apply', '--auto-approve'])).code).toBe(0);
    const [agent] = await agents();
    expect([...(agent?.files ?? []), ...(agent?.websites ?? [])]).not.toContain(otherId);
    expect((await cli(['plan', '--detailed-exitcode'])).code).toBe(0);
  });

  it('a re-crawled website (-/+) is re-attached in the same apply: the agent ends on the new id only', async () => {
    await write(manifest());
    expect((await cli(['apply', '--auto-approve'])).code).toBe(0);
    const before = await stateIds();
    await write(manifest().replace(`docs: { url: "${SITE_A}" }`, `docs: { url: "${SITE_A}", maxPages: 5 }`));
    const plan = await cli(['plan']);
    expect(plan.stdout).toContain('-/+ website.docs');
    expect(plan.stdout).toContain('~ builderAgent.concierge');
    expect(plan.stdout).toContain('+ knowledge: website.docs');
    const applied = await cli(['apply', '--auto-approve']);
    expect(applied.code, applied.stderr + applied.stdout).toBe(0);
    const after = await stateIds();
    expect(after['website.docs']).not.toBe(before['website.docs']);
    const [agent] = await agents();
    expect([...(agent?.files ?? []), ...(agent?.websites ?? [])]).toEqual([after['website.docs']]);
    expect((await cli(['plan', '--detailed-exitcode'])).code).toBe(0);
  });

  it('export --split writes builder agents a folder that imports and plans No changes; an attached website, which the API cannot list, is written by its id', async () => {
    await write([...HEAD, 'builderAgents:', '  concierge: { name: Concierge, instruction: Help., modelMetaData: { temperature: 0.2 }, tools: [gmail] }', ''].join('\n'));
    expect((await cli(['apply', '--auto-approve'])).code).toBe(0);
    await writeFile(join(dir, 'env.yaml'), [...HEAD, ''].join('\n'));
    const exported = await runCli(['export', '-f', 'env.yaml', '--split', 'split'], { cwd: dir, env: { COMETCHAT_API_KEY: KEY, AGENTSYNC_BASE_URL: emu.url } });
    expect(exported.code, exported.stderr).toBe(0);
    const part = await readFile(join(dir, 'split', 'builder-agents', 'concierge.yaml'), 'utf8');
    expect(part).toContain('builderAgents:\n  concierge:\n    name: Concierge\n');
    const imported = await runCli(['import', '-f', 'split', '--state', 'split.json'], { cwd: dir, env: { COMETCHAT_API_KEY: KEY, AGENTSYNC_BASE_URL: emu.url, ...DEMO_SECRET_ENV } });
    expect(imported.code, imported.stderr).toBe(0);
    const plan = await runCli(['plan', '--detailed-exitcode', '-f', 'split', '--state', 'split.json'], { cwd: dir, env: { COMETCHAT_API_KEY: KEY, AGENTSYNC_BASE_URL: emu.url, ...DEMO_SECRET_ENV } });
    expect(plan.stdout, plan.stderr).toContain('No changes.');

    await write(manifest());
    expect((await cli(['apply', '--auto-approve'])).code).toBe(0);
    const websiteId = (await stateIds())['website.docs'];
    const byId = await runCli(['export', '-f', 'env.yaml', '--split', 'by-id'], { cwd: dir, env: { COMETCHAT_API_KEY: KEY, AGENTSYNC_BASE_URL: emu.url } });
    expect(byId.code, byId.stderr).toBe(0);
    const websites = await readFile(join(dir, 'by-id', 'websites.yaml'), 'utf8');
    expect(websites).toContain(`parentUniqueId: ${websiteId}`);
    expect(websites).toContain('exclude: []');
    expect(await readFile(join(dir, 'by-id', 'environments.yaml'), 'utf8')).toContain('only those a builder agent attaches are exported, by id');
    const env = { COMETCHAT_API_KEY: KEY, AGENTSYNC_BASE_URL: emu.url, ...DEMO_SECRET_ENV };
    expect((await runCli(['import', '-f', 'by-id', '--state', 'by-id.json'], { cwd: dir, env })).code).toBe(0);
    const again = await runCli(['plan', '--detailed-exitcode', '-f', 'by-id', '--state', 'by-id.json'], { cwd: dir, env });
    expect(again.code, again.stdout + again.stderr).toBe(0);
    expect(again.stdout).toContain('No changes.');
    // The import recorded the agent's knowledge as addresses, as the refresh reads it: nothing changed outside agentsync.
    expect(again.stdout).not.toContain('Changed outside agentsync');
  });

  it('--target builderAgent.concierge brings the sources it names', async () => {
    await write(manifest({ knowledge: ['website.docs'], websites: { docs: SITE_A, guides: SITE_B } }));
    const plan = await cli(['plan', '--target', 'builderAgent.concierge']);
    expect(plan.code, plan.stderr).toBe(0);
    expect(plan.stdout).toContain('+ website.docs');
    expect(plan.stdout).not.toContain('website.guides');
    expect((await cli(['apply', '--auto-approve', '--target', 'builderAgent.concierge'])).code).toBe(0);
    expect(Object.keys(await stateIds()).sort()).toEqual(['builderAgent.concierge', 'website.docs']);
  });
});

describe('knowledge addresses in validate', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'agentsync-builder-validate-'));
    return () => rm(dir, { recursive: true, force: true });
  });

  it('an unknown address is one line at file:line:col with a did-you-mean, exit 1', async () => {
    await writeFile(join(dir, 'agents.yaml'), manifest({ knowledge: ['website.doc'] }));
    const result = await runCli(['validate'], { cwd: dir, env: {} });
    expect(result.code).toBe(1);
    expect(result.stderr + result.stdout).toMatch(/agents\.yaml:\d+:\d+: .*unknown knowledge address "website\.doc".*did you mean "website\.docs"\?/);
  });

  it('lint warns about a source no agent attaches (unattached-source), at its key', async () => {
    await writeFile(join(dir, 'agents.yaml'), manifest({ knowledge: ['website.docs'], websites: { docs: SITE_A, guides: SITE_B } }));
    const result = await runCli(['lint', '--json'], { cwd: dir, env: {} });
    const findings = (JSON.parse(result.stdout) as { findings: { rule: string; line: number; message: string }[] }).findings;
    expect(findings.filter((finding) => finding.rule === 'unattached-source').map((finding) => [finding.line, finding.message])).toEqual([
      [7, 'website.guides is attached to no agent (no knowledge: names it), so no agent uses it'],
    ]);
  });

  it('graph draws an edge from the agent to each source it attaches', async () => {
    await writeFile(join(dir, 'agents.yaml'), manifest({ knowledge: ['website.docs'], websites: { docs: SITE_A, guides: SITE_B } }));
    const result = await runCli(['graph', '--format', 'dot'], { cwd: dir, env: {} });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain('"builderAgent.concierge" -> "website.docs" [label="knowledge"];');
    expect(result.stdout).not.toContain('-> "website.guides"');
  });

  it('an address of a kind knowledge does not take is refused', async () => {
    await writeFile(join(dir, 'agents.yaml'), manifest({ knowledge: ['builderAgent.concierge'] }));
    const result = await runCli(['validate'], { cwd: dir, env: {} });
    expect(result.code).toBe(1);
    expect(result.stderr + result.stdout).toMatch(/agents\.yaml:\d+:\d+: .*"builderAgent\.concierge" cannot be in knowledge: it takes addresses of website\.<key>/);
  });

  it("a source outside the agent's environment is refused for that environment", async () => {
    const text = [
      'version: 1',
      'environments:',
      '  us: { appId: us-app, region: us }',
      '  eu: { appId: eu-app, region: eu }',
      'knowledgeBase:',
      '  websites:',
      `    docs: { url: "${SITE_A}", environments: [us] }`,
      'builderAgents:',
      '  concierge: { name: Concierge, knowledge: [website.docs] }',
      '',
    ].join('\n');
    await writeFile(join(dir, 'agents.yaml'), text);
    const result = await runCli(['validate'], { cwd: dir, env: {} });
    expect(result.code).toBe(1);
    expect(result.stderr + result.stdout).toMatch(/agents\.yaml:9:\d+: .*website\.docs does not exist in environment "eu"/);
  });
});
