// `agentsync diff -e us -e eu` (docs/spec/commands.md#diff) against two emulators on port 0 standing
// for two regions, each with its own key and base URL. The CLI runs in this process; each
// emulator's request log proves that diff only reads, with a fixed number of GETs.
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { runCli } from '../support/cli.js';
import { startTestEmulator, type TestEmulator } from '../support/emulator.js';
import { startLinkSite, type LinkSite } from '../support/site.js';

const NAMES = ['us', 'eu'] as const;
type Name = (typeof NAMES)[number];
const keyOf = (name: string) => `key-${name}-3d9a`;
const REGION_TOKEN: Record<Name, string> = { us: 'tok-us-6b1e0c4d', eu: 'tok-eu-91f2aa07' };
const SECRET = 'webhook-secret-5e7d21';

const emulators = {} as Record<Name, TestEmulator>;
let failing: Server;
let failingUrl: string;
let dir: string;
const env = { KEY_US: keyOf('us'), KEY_EU: keyOf('eu'), WEBHOOK_TOKEN: SECRET };

beforeAll(async () => {
  for (const name of NAMES) emulators[name] = await startTestEmulator({ apiKey: keyOf(name), appId: `app-${name}` });
  failing = createServer((_req, res) => {
    res.writeHead(500, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ statusCode: 500, message: 'the database is down' }));
  });
  await new Promise<void>((resolve) => failing.listen(0, '127.0.0.1', resolve));
  failingUrl = `http://127.0.0.1:${(failing.address() as AddressInfo).port}/v3`;
});
afterAll(async () => {
  for (const name of NAMES) await emulators[name].close();
  await new Promise((resolve) => failing.close(resolve));
});
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'agentsync-diff-'));
  for (const name of NAMES) await emulators[name].reset();
});
afterEach(() => rm(dir, { recursive: true, force: true }));

const cli = (...args: string[]) => runCli(args, { cwd: dir, env });

/** us and eu from one manifest: a per-environment var (greeting), a per-environment header (sensitive), a secret, and a tool only us declares. */
async function writeManifest(urls: Partial<Record<Name, string>> = {}): Promise<void> {
  const environment = (name: Name) =>
    `  ${name}: { appId: app-${name}, region: ${name}, baseUrl: "${urls[name] ?? emulators[name].url}", apiKeyEnv: KEY_${name.toUpperCase()}, vars: { greeting: "Hello from ${name}", token: ${REGION_TOKEN[name]} } }`;
  await writeFile(
    join(dir, 'agents.yaml'),
    `version: 1
environments:
${NAMES.map(environment).join('\n')}
tools:
  ping: { displayName: Ping, executionText: Pinging, description: "\${var.greeting}", parameters: {} }
  lookup: { displayName: Lookup, executionText: Looking, description: Looks things up, parameters: {} }
  us_only: { displayName: US only, executionText: Working, description: Only in us, parameters: {}, environments: [us] }
agents:
  helper: { name: Helper, integrationType: llm, integrateWith: gpt-4o, instruction: Be brief., actions: [ping, lookup] }
  remote:
    name: Remote
    integrationType: agent
    integrateWith: langgraph
    integrationMeta: { baseUrl: "https://x.example.com", headers: { X-Region: "\${var.token}", Authorization: "\${secret:WEBHOOK_TOKEN}" } }
`,
  );
}

async function applyBoth(): Promise<void> {
  const applied = await cli('apply', '-e', 'us', '-e', 'eu', '--auto-approve');
  expect(applied.code, applied.stderr + applied.stdout).toBe(0);
  for (const name of NAMES) await emulators[name].clearRequests();
}

async function agentUid(name: Name, agentName: string): Promise<string> {
  const agents = await emulators[name].get<{ uid: string; name: string }[]>('/ai-agents/agents');
  return agents.find((agent) => agent.name === agentName)!.uid;
}

interface DiffDoc {
  formatVersion: number;
  environments: { name: string }[];
  summary: { differ: number; drift: number[]; only: number[]; intended: number; identical: number };
  resources: {
    address: string;
    group: string;
    driftIn?: string[];
    onlyIn?: string;
    fields: { path: string; group: string; sensitive?: boolean; sides: { environment: string; manifest?: unknown; live?: unknown }[] }[];
  }[];
}

describe('agentsync diff', () => {
  it('shows per-environment values as intended and exits 0 with --detailed-exitcode', async () => {
    await writeManifest();
    await applyBoth();
    const result = await cli('diff', '-e', 'us', '-e', 'eu', '--detailed-exitcode');
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('= tool.ping: intended difference');
    expect(result.stdout).toMatch(/description +manifest +"Hello from us" +"Hello from eu"/);
    expect(result.stdout).toContain('= tool.us_only: intended: the manifest declares it for us only');
    // Two different header values (from a var, sensitive because they are headers): different, neither printed.
    // The seed tool search_web is on both servers, unmanaged and the same: counted as identical.
    expect(result.stdout).toMatch(/integrationMeta\.headers \(sensitive, differs\) +manifest +\(sensitive\) +\(sensitive\)/);
    for (const token of Object.values(REGION_TOKEN)) expect(result.stdout).not.toContain(token);
    expect(result.stdout).not.toContain(SECRET);
    expect(result.stdout.trimEnd().split('\n').at(-1)).toBe('0 resources differ; 3 intended differences; 3 identical.');
    // Both servers were only read: the two lists each, and nothing written.
    for (const name of NAMES) {
      expect(await emulators[name].apiWrites()).toEqual([]);
      expect((await emulators[name].apiRequests('GET')).map((r) => r.path).sort()).toEqual(['/v3/ai-agents/agents', '/v3/ai-agents/tools']);
    }
  });

  it('names a hand edit of an instruction in eu as drift in eu, with the command that fixes it, and exits 2', async () => {
    await writeManifest();
    await applyBoth();
    const states = await readdir(join(dir, '.agentsync'));
    await emulators.eu.call('PATCH', `/ai-agents/agents/${await agentUid('eu', 'Helper')}`, { instruction: 'Be verbose.' });
    await emulators.eu.clearRequests();
    const result = await cli('diff', '-e', 'us', '-e', 'eu', '--detailed-exitcode');
    expect(result.code, result.stderr).toBe(2);
    expect(result.stdout).toContain('! agent.helper: drift in eu');
    expect(result.stdout).toMatch(/instruction +manifest +"Be brief\." +"Be brief\."/);
    expect(result.stdout).toMatch(/ +live +"Be brief\." +"Be verbose\."/);
    expect(result.stdout).toContain('agentsync plan -e eu');
    expect(result.stdout.trimEnd().split('\n').at(-1)).toBe('1 resource differs (1 drift in eu); 3 intended differences; 2 identical.');
    // No write to either server, no state written and no lock left behind.
    for (const name of NAMES) expect(await emulators[name].apiWrites()).toEqual([]);
    expect(await readdir(join(dir, '.agentsync'))).toEqual(states);
  });

  it('names a tool created by hand in us only as unmanaged, points to import, and exits 2', async () => {
    await writeManifest();
    await applyBoth();
    const created = await emulators.us.createTool({ name: 'scratch', displayName: 'Scratch', executionText: 'x', description: 'made by hand', parameters: {} });
    expect(created.status).toBeLessThan(300);
    const result = await cli('diff', '-e', 'us', '-e', 'eu', '--detailed-exitcode');
    expect(result.code, result.stderr).toBe(2);
    expect(result.stdout).toContain('+ tool.scratch: only in us, unmanaged (no manifest declares it there)');
    expect(result.stdout).toContain('agentsync import -e us');
    expect(result.stdout.trimEnd().split('\n').at(-1)).toBe('1 resource differs (1 only in us); 3 intended differences; 3 identical.');
  });

  it('shows a changed secret as drift without printing a value', async () => {
    await writeManifest();
    await applyBoth();
    const uid = await agentUid('eu', 'Remote');
    await emulators.eu.call('PATCH', `/ai-agents/agents/${uid}`, {
      integrationMeta: { baseUrl: 'https://x.example.com', headers: { 'X-Region': REGION_TOKEN.eu, Authorization: 'rotated-by-hand-77a1' } },
    });
    const text = await cli('diff', '-e', 'us', '-e', 'eu', '--detailed-exitcode');
    const json = await cli('diff', '-e', 'us', '-e', 'eu', '--json');
    const markdown = await cli('diff', '-e', 'us', '-e', 'eu', '--format', 'markdown');
    expect(text.code, text.stderr).toBe(2);
    expect(text.stdout).toContain('! agent.remote: drift in eu');
    expect(text.stdout).toMatch(/integrationMeta\.headers \(sensitive, differs\) +manifest +\(sensitive\) +\(sensitive\)\n +live +\(sensitive\) +\(sensitive\)/);
    const doc = JSON.parse(json.stdout) as DiffDoc;
    const remote = doc.resources.find((r) => r.address === 'agent.remote')!;
    expect(remote.group).toBe('drift');
    expect(remote.fields.find((f) => f.path === 'integrationMeta.headers')).toMatchObject({ group: 'drift', driftIn: ['eu'], sensitive: true });
    for (const output of [text.stdout, json.stdout, markdown.stdout]) {
      for (const secret of [SECRET, 'rotated-by-hand-77a1', ...Object.values(REGION_TOKEN)]) expect(output).not.toContain(secret);
    }
  });

  it('says the same in --json and --format markdown', async () => {
    await writeManifest();
    await applyBoth();
    await emulators.eu.call('PATCH', `/ai-agents/agents/${await agentUid('eu', 'Helper')}`, { instruction: 'Be verbose.' });
    await emulators.us.createTool({ name: 'scratch', displayName: 'Scratch', executionText: 'x', description: 'made by hand', parameters: {} });
    const json = await cli('diff', '-e', 'us', '-e', 'eu', '--json');
    const markdown = await cli('diff', '-e', 'us', '-e', 'eu', '--format', 'markdown');
    expect(json.code, json.stderr).toBe(0);
    expect(markdown.code, markdown.stderr).toBe(0);
    const doc = JSON.parse(json.stdout) as DiffDoc;
    expect(doc.formatVersion).toBe(1);
    expect(doc.environments.map((e) => e.name)).toEqual(['us', 'eu']);
    expect(doc.summary).toMatchObject({ differ: 2, drift: [0, 1], only: [1, 0], intended: 3, identical: 2 });
    expect(doc.resources.map((r) => `${r.address} ${r.group}`)).toEqual(['tool.ping intended', 'tool.scratch only', 'tool.us_only intended', 'agent.helper drift', 'agent.remote intended']);
    const helper = doc.resources.find((r) => r.address === 'agent.helper')!;
    expect(helper.fields).toEqual([
      {
        path: 'instruction',
        group: 'drift',
        driftIn: ['eu'],
        sides: [
          { environment: 'us', manifest: 'Be brief.', live: 'Be brief.' },
          { environment: 'eu', manifest: 'Be brief.', live: 'Be verbose.' },
        ],
      },
    ]);
    // Markdown: the same summary, and a row for every resource the JSON lists.
    expect(markdown.stdout.replaceAll('\\', '')).toContain('**2 resources differ (1 drift in eu, 1 only in us); 3 intended differences; 2 identical.**');
    for (const resource of doc.resources) expect(markdown.stdout).toContain(`| \`${resource.address}\` |`);
    expect(markdown.stdout).toContain('manifest `"Be brief."`, **live** `"Be verbose."`');
    expect(markdown.stdout).toContain('agentsync plan -e eu');
  });

  it('names a resource the manifest declares but a server lacks as drift there', async () => {
    await writeManifest();
    await applyBoth();
    const tools = await emulators.eu.get<{ _id: string; name: string }[]>('/ai-agents/tools');
    expect((await emulators.eu.call('DELETE', `/ai-agents/tools/${tools.find((t) => t.name === 'lookup')!.name}`)).status).toBeLessThan(300);
    const result = await cli('diff', '-e', 'us', '-e', 'eu', '--json', '--detailed-exitcode');
    expect(result.code, result.stderr).toBe(2);
    const doc = JSON.parse(result.stdout) as DiffDoc;
    expect(doc.resources.find((r) => r.address === 'tool.lookup')).toMatchObject({ group: 'drift', driftIn: ['eu'], fields: [] });
  });

  it('tells to import first where a drifting resource is on the server but not in its state (apply would refuse it)', async () => {
    await writeManifest();
    await applyBoth();
    await emulators.eu.call('PATCH', `/ai-agents/agents/${await agentUid('eu', 'Helper')}`, { instruction: 'Be verbose.' });
    await rm(join(dir, '.agentsync', 'eu.state.json'));
    const result = await cli('diff', '-e', 'us', '-e', 'eu', '--detailed-exitcode');
    expect(result.code, result.stderr).toBe(2);
    expect(result.stdout).toContain('! agent.helper: drift in eu');
    expect(result.stdout).toContain("→ eu's state does not track it: agentsync import -e eu, then agentsync plan -e eu and agentsync apply -e eu");
    const doc = JSON.parse((await cli('diff', '-e', 'us', '-e', 'eu', '--json')).stdout) as DiffDoc;
    expect(doc.resources.find((r) => r.address === 'agent.helper')).toMatchObject({ group: 'drift', driftIn: ['eu'], untrackedIn: ['eu'] });
    const markdown = await cli('diff', '-e', 'us', '-e', 'eu', '--format', 'markdown');
    expect(markdown.stdout).toContain('agentsync import -e eu, then agentsync plan -e eu');
  });

  it('compares as plan compares: sets as sets, platformTools under either name, empty as absent, equal secrets equal, bookkeeping never', async () => {
    await writeManifest();
    await applyBoth();
    // eu keeps what it is sent as sent (no sorting, no defaults) and writes times as numbers.
    await emulators.eu.configure({ storeAsSent: true, timestamps: 'epoch' });
    try {
      await emulators.eu.call('PATCH', `/ai-agents/agents/${await agentUid('eu', 'Helper')}`, { actions: ['ping', 'lookup'], icon: '', suggestions: [], metaData: {} });
      const agent = (name: string, tools: Record<string, string[]>, authorization: string) => ({
        name,
        tools: [],
        actions: ['ping', 'lookup'],
        integrationType: 'agent',
        integrateWith: 'langgraph',
        integrationMeta: { baseUrl: 'https://h.example.com', headers: { Authorization: authorization } },
        ...tools,
      });
      const made = [
        await emulators.us.call('POST', '/ai-agents/agents', agent('Hand', { platformTools: ['web_search', 'x_tool'] }, 'equal-secret-31c9')),
        await emulators.eu.call('POST', '/ai-agents/agents', { ...agent('Hand', { cometchatTools: ['x_tool', 'web_search'] }, 'equal-secret-31c9'), actions: ['lookup', 'ping'], icon: '' }),
        await emulators.us.call('POST', '/ai-agents/agents', agent('Hooked', {}, 'us-secret-8e02')),
        await emulators.eu.call('POST', '/ai-agents/agents', agent('Hooked', {}, 'eu-secret-47aa')),
      ];
      for (const reply of made) expect(reply.status, JSON.stringify(reply.json)).toBeLessThan(300);
      const json = await cli('diff', '-e', 'us', '-e', 'eu', '--json', '--detailed-exitcode');
      const text = await cli('diff', '-e', 'us', '-e', 'eu');
      const markdown = await cli('diff', '-e', 'us', '-e', 'eu', '--format', 'markdown');
      expect(json.code, json.stderr).toBe(2);
      const doc = JSON.parse(json.stdout) as DiffDoc;
      // agent.helper and agent.hand are identical; agent.hooked holds two different secrets.
      expect(doc.resources.map((r) => `${r.address} ${r.group}`)).toEqual(['tool.ping intended', 'tool.us_only intended', 'agent.hooked differs', 'agent.remote intended']);
      expect(doc.resources[2]!.fields).toEqual([
        {
          path: 'integrationMeta.headers.Authorization',
          group: 'differs',
          sensitive: true,
          sides: [
            { environment: 'us', live: '(sensitive)' },
            { environment: 'eu', live: '(sensitive)' },
          ],
        },
      ]);
      for (const output of [json.stdout, text.stdout, markdown.stdout]) for (const secret of ['equal-secret-31c9', 'us-secret-8e02', 'eu-secret-47aa']) expect(output).not.toContain(secret);
    } finally {
      await emulators.eu.configure({ storeAsSent: false, timestamps: 'iso' });
    }
  });

  it('--live-only compares the servers directly, by name, with no manifest resources or state', async () => {
    await writeManifest();
    // Nothing applied: only what was made by hand.
    await emulators.us.createTool({ name: 'shared', displayName: 'Shared', executionText: 'x', description: 'same', parameters: {} });
    await emulators.eu.createTool({ name: 'shared', displayName: 'Shared', executionText: 'x', description: 'different', parameters: {} });
    await emulators.eu.createTool({ name: 'eu_tool', displayName: 'EU', executionText: 'x', description: 'eu', parameters: {} });
    for (const name of NAMES) await emulators[name].clearRequests();
    const result = await cli('diff', '-e', 'us', '-e', 'eu', '--live-only', '--json', '--detailed-exitcode');
    expect(result.code, result.stderr).toBe(2);
    const doc = JSON.parse(result.stdout) as DiffDoc & { mode: string };
    expect(doc.mode).toBe('live-only');
    expect(doc.resources.map((r) => `${r.address} ${r.group}${r.onlyIn ? ` ${r.onlyIn}` : ''}`)).toEqual(['tool.eu_tool only eu', 'tool.shared differs']);
    expect(doc.resources[1]!.fields).toEqual([
      {
        path: 'description',
        group: 'differs',
        sides: [
          { environment: 'us', live: 'same' },
          { environment: 'eu', live: 'different' },
        ],
      },
    ]);
    expect(doc.summary.intended).toBe(0);
    for (const name of NAMES) expect(await emulators[name].apiWrites()).toEqual([]);
    const text = await cli('diff', '-e', 'us', '-e', 'eu', '--live-only');
    expect(text.stdout).toContain('Warning: [us, eu] websites are not compared with --live-only');
    expect(text.stdout.trimEnd().split('\n').at(-1)).toBe('2 resources differ (1 only in eu, 1 unmanaged on both); 1 identical.');
  });

  it('--live-only needs no secret of the manifest: its resources are not read', async () => {
    await writeManifest();
    await emulators.eu.createTool({ name: 'eu_tool', displayName: 'EU', executionText: 'x', description: 'eu', parameters: {} });
    const { WEBHOOK_TOKEN: _unset, ...withoutSecret } = env;
    const live = await runCli(['diff', '-e', 'us', '-e', 'eu', '--live-only', '--detailed-exitcode'], { cwd: dir, env: withoutSecret });
    expect(live.stderr).toBe('');
    expect(live.code).toBe(2);
    expect(live.stdout).toContain('+ tool.eu_tool: only in eu');
    // Through the manifest, the secret is needed, as for plan.
    const managed = await runCli(['diff', '-e', 'us', '-e', 'eu'], { cwd: dir, env: withoutSecret });
    expect(managed.code).toBe(1);
    expect(managed.stderr).toContain('secret WEBHOOK_TOKEN is not set');
  });

  it('reads the same two lists per server for 120 resources as for a few', async () => {
    await writeManifest();
    await applyBoth();
    const tool = (i: number) => ({ name: `bulk_${i}`, displayName: `Bulk ${i}`, executionText: 'x', description: `bulk ${i}`, parameters: {} });
    for (const name of NAMES) {
      const replies = await Promise.all(Array.from({ length: 120 }, (_, i) => emulators[name].createTool(tool(i))));
      expect(replies.every((reply) => reply.status < 300)).toBe(true);
      await emulators[name].clearRequests();
    }
    const result = await cli('diff', '-e', 'us', '-e', 'eu', '--detailed-exitcode');
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout.trimEnd().split('\n').at(-1)).toBe('0 resources differ; 3 intended differences; 123 identical.');
    for (const name of NAMES) {
      expect(await emulators[name].apiWrites()).toEqual([]);
      expect((await emulators[name].apiRequests('GET')).map((r) => r.path).sort()).toEqual(['/v3/ai-agents/agents', '/v3/ai-agents/tools']);
    }
  });

  it('reads a fixed number of GETs with websites too, and counts identical websites', async () => {
    const site: LinkSite = await startLinkSite(['/docs/a', '/docs/b', '/help/c']);
    try {
      await writeManifest();
      const text = `knowledgeBase:\n  websites:\n    docs: { url: "${site.origin}/", exclude: ["**/b"] }\n    help: { url: "${site.origin}/help/c" }\n`;
      await writeFile(join(dir, 'agents.yaml'), (await readFile(join(dir, 'agents.yaml'), 'utf8')) + text);
      await applyBoth();
      const result = await cli('diff', '-e', 'us', '-e', 'eu', '--json', '--detailed-exitcode');
      expect(result.code, result.stderr).toBe(0);
      const doc = JSON.parse(result.stdout) as DiffDoc;
      expect(doc.resources.map((r) => r.address)).not.toContain('website.docs');
      expect(doc.summary.identical).toBe(5);
      for (const name of NAMES) {
        expect(await emulators[name].apiWrites()).toEqual([]);
        const gets = (await emulators[name].apiRequests('GET')).map((r) => r.path.replace(/\?.*$/, '').replace(/website\/[^/]+\//, 'website/ID/'));
        // Two lists, and one page of discovered URLs per website: at most 6, whatever the number of tools and agents.
        expect(gets.sort()).toEqual([
          '/v3/ai-agents/agent-builder/knowledge-base/website/ID/discovered-urls',
          '/v3/ai-agents/agent-builder/knowledge-base/website/ID/discovered-urls',
          '/v3/ai-agents/agents',
          '/v3/ai-agents/tools',
        ]);
      }
    } finally {
      await site.close();
    }
  });

  it('prints what the README\'s "Are my regions the same?" shows, for the setup it describes', async () => {
    const readme = await readFile(new URL('../../README.md', import.meta.url), 'utf8');
    const shown = /```text\n\$ agentsync diff -e us -e eu\n([\s\S]*?)```/.exec(readme)?.[1];
    expect(shown).toBeDefined();
    const environment = (name: Name, model: string) =>
      `  ${name}: { appId: acme-${name}, region: ${name}, baseUrl: "${emulators[name].url}", apiKeyEnv: KEY_${name.toUpperCase()}, vars: { model: ${model} } }`;
    await writeFile(
      join(dir, 'agents.yaml'),
      `version: 1
environments:
${environment('us', 'gpt-4o')}
${environment('eu', 'gpt-4o-mini')}
tools:
  lookup: { displayName: Lookup, executionText: Looking, description: Looks up an order, parameters: {} }
  refund: { displayName: Refund, executionText: Refunding, description: Refunds an order, parameters: {} }
agents:
  support: { name: Support, integrationType: llm, integrateWith: "\${var.model}", instruction: Answer in two sentences., actions: [lookup, refund] }
`,
    );
    await applyBoth();
    await emulators.eu.call('PATCH', `/ai-agents/agents/${await agentUid('eu', 'Support')}`, { instruction: 'Answer in detail.' });
    await emulators.us.createTool({ name: 'beta_search', displayName: 'Beta', executionText: 'x', description: 'by hand', parameters: {} });
    const result = await cli('diff', '-e', 'us', '-e', 'eu');
    expect(result.stderr).toBe('');
    expect(result.stdout).toBe(shown);
  });

  it('says when both environments were read from one server, as AGENTSYNC_BASE_URL makes them', async () => {
    await writeManifest();
    const oneServer = { ...env, KEY_EU: keyOf('us'), AGENTSYNC_BASE_URL: emulators.us.url };
    const result = await runCli(['diff', '-e', 'us', '-e', 'eu'], { cwd: dir, env: oneServer });
    expect(result.stdout + result.stderr).toContain(`"us" and "eu" were both read from ${emulators.us.url}, so this compares one server with itself`);
    const json = await runCli(['diff', '-e', 'us', '-e', 'eu', '--json'], { cwd: dir, env: oneServer });
    expect((JSON.parse(json.stdout) as { warnings: { message: string }[] }).warnings.map((w) => w.message)).toContainEqual(expect.stringContaining('compares one server with itself'));
    // Each environment on its own server: no such warning.
    const apart = await cli('diff', '-e', 'us', '-e', 'eu');
    expect(apart.stdout + apart.stderr).not.toContain('one server with itself');
  });

  it('refuses one environment, an unknown one, and a server that cannot be read, each with one line and exit 1', async () => {
    await writeManifest({ eu: failingUrl });
    const one = await cli('diff', '-e', 'us');
    expect(one).toMatchObject({ code: 1, stdout: '' });
    expect(one.stderr).toBe('Error: diff compares exactly two environments: give -e twice, as in `agentsync diff -e us -e eu` (got only "us")\n');
    const unknown = await cli('diff', '-e', 'us', '-e', 'ue');
    expect(unknown).toMatchObject({ code: 1, stdout: '' });
    // Named as every command names a mistaken -e (issue 40, 3.5).
    expect(unknown.stderr).toBe('Error: -e ue: unknown environment "ue"; the manifest defines us, eu; did you mean "us"?\n');
    const broken = await cli('diff', '-e', 'us', '-e', 'eu', '--detailed-exitcode');
    expect(broken.code).toBe(1);
    expect(broken.stdout).toBe('');
    expect(broken.stderr.split('\n').filter(Boolean)).toHaveLength(1);
    expect(broken.stderr).toMatch(/^Error: environment "eu": could not read the server's (tools|agents): .*the database is down/);
    expect(await emulators.us.apiWrites()).toEqual([]);
  });

  it('refuses a wrong key in one line and exit 1, and with --json still prints one JSON document, never "no differences"', async () => {
    await writeManifest();
    const wrong = { ...env, KEY_EU: 'key-eu-wrong-0000' };
    const text = await runCli(['diff', '-e', 'us', '-e', 'eu', '--detailed-exitcode'], { cwd: dir, env: wrong });
    expect(text).toMatchObject({ code: 1, stdout: '' });
    expect(text.stderr).toMatch(/^Error: environment "eu": could not read the server's (tools|agents): GET \S+ answered 401[^\n]*\n$/);
    expect(text.stderr).not.toContain('key-eu-wrong-0000');
    const json = await runCli(['diff', '-e', 'us', '-e', 'eu', '--json'], { cwd: dir, env: wrong });
    expect(json.code).toBe(1);
    expect(JSON.parse(json.stdout)).toMatchObject({ error: { code: 'api_error', status: 401, environment: 'eu' } });
  });
});
