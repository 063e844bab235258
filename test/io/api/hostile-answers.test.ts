// A server that answers what the public reference never promised: odd timestamps, refusals dressed
// as 200s, error statuses on the knowledge-base calls, polls that never answer, ids full of escape
// sequences. The CLI runs in-process against a real node:http server on port 0 that answers like
// CometChat until a test makes one route misbehave. Each misbehaviour must end in one line on
// stderr, a non-zero exit where something failed, a state that says what really happened, and no
// wait past the time the user gave.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { RateGovernor } from '../../../src/io/api/rate-governor.js';
import { runCli, type CliResult } from '../../support/cli.js';

const KEY = 'hostile-key-7d2e91c4a0';
const STACK_TRACE = /\n\s+at /;
const DISCOVERED = '/v3/ai-agents/agent-builder/knowledge-base/website/web_demo/discovered-urls';

/** Answers one request instead of the well-behaved server; returns false to let it answer. */
type Override = (req: IncomingMessage, res: ServerResponse) => boolean;

interface Logged {
  method: string;
  url: string;
}

const MANIFEST = (extraTool = false) => `version: 1
environments:
  local: { appId: local, region: us }
tools:
  get_weather: { displayName: Get weather, executionText: Checking, description: Weather, parameters: {} }
${extraTool ? '  old_tool: { displayName: Old, executionText: Old, description: Old tool, parameters: {} }\n' : ''}agents:
  support: { name: Support, integrationType: llm, integrateWith: gpt-4o, actions: [get_weather] }
knowledgeBase:
  websites:
    docs: { parentUniqueId: web_demo, exclude: [url_1] }
`;

const send = (res: ServerResponse, status: number, body: string, headers: Record<string, string> = {}): void => {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(body);
};

/** What CometChat holds: the tools PUT or POSTed and the agents POSTed, as the lists answer them. */
class FakeApp {
  tools = new Map<string, Record<string, unknown>>();
  agents = new Map<string, Record<string, unknown>>();

  answer(req: IncomingMessage, res: ServerResponse, text: string): void {
    const url = req.url ?? '';
    const body = text === '' ? {} : (JSON.parse(text) as Record<string, unknown>);
    const toolName = url.startsWith('/v3/ai-agents/tools/') ? decodeURIComponent(url.slice('/v3/ai-agents/tools/'.length)) : undefined;
    if (req.method === 'GET' && url === '/v3/ai-agents/tools') return send(res, 200, JSON.stringify([...this.tools.values()]));
    if (req.method === 'GET' && url === '/v3/ai-agents/agents') return send(res, 200, JSON.stringify([...this.agents.values()]));
    // No text entries (export reads every kind's list).
    if (req.method === 'GET' && url === '/v3/ai-agents/agent-builder/knowledge-base/text') return send(res, 200, JSON.stringify({ data: [] }));
    if ((req.method === 'PUT' && toolName !== undefined) || (req.method === 'POST' && url === '/v3/ai-agents/tools')) {
      const name = toolName ?? String(body.name);
      const { description, parameters, ...top } = body;
      const record = { ...top, _id: `local_${name}`, type: body.doNotExecute === true ? 'tool' : 'action', tool: { name, description, parameters } };
      this.tools.set(name, record);
      return send(res, 200, JSON.stringify(record));
    }
    if (req.method === 'DELETE' && toolName !== undefined) {
      this.tools.delete(toolName);
      return send(res, 200, '{"deleted":true}');
    }
    if (req.method === 'POST' && url === '/v3/ai-agents/agents') {
      const record = { ...body, uid: `agent-${this.agents.size + 1}` };
      this.agents.set(record.uid, record);
      return send(res, 201, JSON.stringify({ agent: record }));
    }
    if (req.method === 'PATCH' && url.startsWith('/v3/ai-agents/agents/')) return send(res, 200, '{"success":true}');
    if (req.method === 'POST' && url === `${DISCOVERED}/process`) return send(res, 200, '{"data":{"batchId":"batch-1","status":"processing"}}');
    if (req.method === 'PATCH' && url.endsWith('/sync')) return send(res, 200, '{"success":true}');
    if (req.method === 'POST' && url === `${DISCOVERED}/status/poll`) return send(res, 200, '{"data":{"url_2":"processed"}}');
    if (req.method === 'GET' && url.startsWith(`${DISCOVERED}?`)) {
      const urls = [
        { urlId: 'url_1', url: 'https://docs.example.com/a', status: 'processed' },
        { urlId: 'url_2', url: 'https://docs.example.com/b', status: 'failed' },
      ];
      return send(res, 200, JSON.stringify({ data: urls, meta: {} }));
    }
    if (req.method === 'GET' && url.startsWith('/v3/ai-agents/agent-builder/knowledge-base?')) return send(res, 200, '{"data":[],"meta":{}}');
    if (req.method === 'POST' && url === '/v3/messages') return send(res, 200, '{"data":{"id":"msg-1"}}');
    send(res, 404, JSON.stringify({ statusCode: 404, message: `no route ${req.method} ${url}`, error: 'Not Found' }));
  }
}

let server: Server;
let app: FakeApp;
let override: Override | undefined;
let log: Logged[] = [];
let dir: string;
let env: Record<string, string>;

beforeAll(async () => {
  server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      log.push({ method: req.method ?? '', url: req.url ?? '' });
      if (override?.(req, res) === true) return;
      app.answer(req, res, Buffer.concat(chunks).toString('utf8'));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  env = { COMETCHAT_API_KEY: KEY, AGENTSYNC_BASE_URL: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v3`, AGENTSYNC_KB_POLL_MS: '50' };
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});
beforeEach(async () => {
  app = new FakeApp();
  override = undefined;
  log = [];
  dir = await mkdtemp(join(tmpdir(), 'agentsync-hostile-'));
  await writeFile(join(dir, 'agents.yaml'), MANIFEST());
});
afterEach(async () => {
  override = undefined;
  // A stalled answer is left hanging by design: end it so the next test starts clean.
  server.closeAllConnections();
  await rm(dir, { recursive: true, force: true });
});

const cli = (...args: string[]): Promise<CliResult> => runCli(args, { cwd: dir, env, timeoutMs: 20_000 });
const on =
  (method: string, matches: (url: string) => boolean, answer: (res: ServerResponse) => void): Override =>
  (req, res) => {
    if (req.method !== method || !matches(req.url ?? '')) return false;
    answer(res);
    return true;
  };
/** Headers, then nothing: the body never comes. */
const stall = (res: ServerResponse): void => void res.writeHead(200, { 'content-type': 'application/json' });
const stateOf = async (): Promise<{ resources: Record<string, { remoteId: string }> }> =>
  JSON.parse(await readFile(join(dir, '.agentsync', 'local.state.json'), 'utf8')) as { resources: Record<string, { remoteId: string }> };

/** Exit 1 with exactly one line on stderr, no stack trace and never the key. */
function expectOneLineFailure(result: CliResult, line: RegExp): void {
  expect(result.code).toBe(1);
  expect(result.stderr).not.toMatch(STACK_TRACE);
  expect(result.stderr).not.toContain('internal error');
  expect(result.stderr.trimEnd().split('\n'), result.stderr).toHaveLength(1);
  expect(result.stderr.trimEnd()).toMatch(line);
  expect(result.stdout + result.stderr).not.toContain(KEY);
}

async function applied(): Promise<void> {
  const first = await cli('apply', '--auto-approve');
  expect(first.stderr).toBe('');
  expect(first.code).toBe(0);
  log = [];
}

describe('a timestamp no Date can hold', () => {
  const farFuture = on(
    'GET',
    (url) => url.startsWith(`${DISCOVERED}?`),
    (res) => send(res, 200, JSON.stringify({ data: [{ urlId: 'url_2', url: 'https://docs.example.com/b', status: 'processed', lastCrawledAt: 1e300 }], meta: {} })),
  );

  it('kb status counts the URLs and leaves the time out, instead of an internal error', async () => {
    await applied();
    override = farFuture;
    const status = await cli('kb', 'status', '--json');
    expect(status.stderr).toBe('');
    expect(status.code).toBe(0);
    const [site] = (JSON.parse(status.stdout) as { websites: { address: string; total: number; lastCrawledAt?: string }[] }).websites;
    expect(site).toMatchObject({ address: 'website.docs', total: 1 });
    expect(site?.lastCrawledAt).toBeUndefined();
  });

  it('plan reads the website and plans, instead of an internal error', async () => {
    await applied();
    override = farFuture;
    const plan = await cli('plan', '--detailed-exitcode');
    expect(plan.stderr).toBe('');
    expect(plan.code).toBe(0);
    expect(plan.stdout).toContain('No changes.');
  });
});

describe('a knowledge-base list that never answers', () => {
  it('kb status prints the counts without the sync times, instead of waiting out the client limits', async () => {
    await applied();
    override = on('GET', (url) => url.startsWith('/v3/ai-agents/agent-builder/knowledge-base?'), stall);
    const started = Date.now();
    const status = await cli('kb', 'status', '--json');
    expect(Date.now() - started).toBeLessThan(8_000);
    expect(status.stderr).toBe('');
    expect(status.code).toBe(0);
    const [site] = (JSON.parse(status.stdout) as { websites: { total: number; lastSyncedAt?: string }[] }).websites;
    expect(site?.total).toBe(2);
    expect(site?.lastSyncedAt).toBeUndefined();
  });

  it('kb status still shows the sync time a prompt list gives', async () => {
    await applied();
    override = on(
      'GET',
      (url) => url.startsWith('/v3/ai-agents/agent-builder/knowledge-base?'),
      (res) => send(res, 200, JSON.stringify({ data: [{ uniqueId: 'web_demo', lastSynced: 1_795_600_000_000 }], meta: {} })),
    );
    const status = await cli('kb', 'status', '--json');
    expect(status.code).toBe(0);
    expect((JSON.parse(status.stdout) as { websites: { lastSyncedAt?: string }[] }).websites[0]?.lastSyncedAt).toBe(new Date(1_795_600_000_000).toISOString());
  });
});

describe('a discovered URL listed twice', () => {
  it('is one URL to kb status and to kb sync', async () => {
    await applied();
    const twice = { urlId: 'url_2', url: 'https://docs.example.com/b', status: 'failed' };
    override = on(
      'GET',
      (url) => url.startsWith(`${DISCOVERED}?`),
      (res) => send(res, 200, JSON.stringify({ data: [twice, { ...twice }], meta: {} })),
    );
    const status = await cli('kb', 'status', '--json');
    expect(status.code).toBe(0);
    expect((JSON.parse(status.stdout) as { websites: { total: number; counts: Record<string, number> }[] }).websites[0]).toMatchObject({ total: 1, counts: { failed: 1 } });
    const sync = await cli('kb', 'sync', '--json');
    expect(sync.code).toBe(0);
    expect((JSON.parse(sync.stdout) as { websites: { urls: number }[] }).websites[0]?.urls).toBe(1);
  });

  it('under other URLs keeps each other URL once as a twin, and kb status prints it escaped', async () => {
    await applied();
    const first = { urlId: 'url_2', url: 'https://docs.example.com/b', status: 'failed' };
    const twin = { ...first, url: 'https://docs.example.com/\u001b[31mold/b' };
    override = on(
      'GET',
      (url) => url.startsWith(`${DISCOVERED}?`),
      (res) => send(res, 200, JSON.stringify({ data: [first, twin, { ...twin }, { ...first }, twin], meta: {} })),
    );
    const status = await cli('kb', 'status', '--json', '--urls');
    expect(status.code).toBe(0);
    expect((JSON.parse(status.stdout) as { websites: { total: number; urls: unknown[] }[] }).websites[0]).toMatchObject({
      total: 1,
      urls: [{ id: 'url_2', url: first.url, twins: [twin.url] }],
    });
    const text = await cli('kb', 'status', '--urls');
    expect(text.stdout).not.toContain('\u001b');
    expect(text.stdout).toContain(`${first.url} (also listed as https://docs.example.com/\\u001b[31mold/b)`);
  });
});

describe('kb sync against a failing sync call', () => {
  it.each([
    [
      'a 500 with a JSON error',
      ['kb', 'sync'],
      (res: ServerResponse) => send(res, 500, '{"statusCode":500,"message":"sync exploded","error":"Internal Server Error"}'),
      /^Error: website\.docs: PATCH \S+\/discovered-urls\/sync answered 500: sync exploded$/,
    ],
    [
      'a 401 on --reindex',
      ['kb', 'sync', '--reindex'],
      (res: ServerResponse) => send(res, 401, '{"statusCode":401,"message":"no access","error":"Unauthorized"}'),
      /^Error: website\.docs: PATCH \S+\/web_demo\/sync answered 401: no access$/,
    ],
    [
      'a 200 whose body is HTML on --reindex',
      ['kb', 'sync', '--reindex'],
      (res: ServerResponse) => send(res, 200, '<html>ok</html>', { 'content-type': 'text/html' }),
      /^Error: website\.docs: PATCH \S+\/sync answered 200 BAD_RESPONSE: the answer is not JSON$/,
    ],
  ])('%s is one line naming the website, not an internal error', async (_name, args, answer, line) => {
    await applied();
    override = on('PATCH', (url) => url.endsWith('/sync'), answer);
    const result = await cli(...args);
    expectOneLineFailure(result, line);
    expect(result.stdout).not.toContain('again');
  });

  it('an error that echoes the API key back prints it masked', async () => {
    await applied();
    override = (req, res) => {
      if (req.method !== 'PATCH') return false;
      send(res, 403, JSON.stringify({ statusCode: 403, message: `key ${String(req.headers.apikey)} may not sync`, error: 'Forbidden' }));
      return true;
    };
    const result = await cli('kb', 'sync');
    expectOneLineFailure(result, /answered 403: key \(sensitive\) may not sync$/);
  });

  it('an error that echoes the API key in base64 (a Basic header it rebuilt) prints it masked', async () => {
    await applied();
    override = (req, res) => {
      if (req.method !== 'PATCH') return false;
      const basic = Buffer.from(`app:${String(req.headers.apikey)}`).toString('base64');
      send(res, 403, JSON.stringify({ statusCode: 403, message: `Basic ${basic} may not sync`, error: 'Forbidden' }));
      return true;
    };
    const result = await cli('kb', 'sync');
    expectOneLineFailure(result, /answered 403: Basic \S*\(sensitive\)\S* may not sync$/);
    expect(result.stderr).not.toContain(Buffer.from(KEY).toString('base64').slice(4, 16));
  });

  it('{"success": false} is a refusal: exit 1, and stdout does not claim the URLs are processed again', async () => {
    await applied();
    override = on(
      'PATCH',
      (url) => url.endsWith('/discovered-urls/sync'),
      (res) => send(res, 200, '{"success":false}'),
    );
    const result = await cli('kb', 'sync');
    expectOneLineFailure(result, /^Error: website\.docs: PATCH \S+\/discovered-urls\/sync answered "success": false; nothing is processed again$/);
    expect(result.stdout).toBe('');
  });
});

describe('a status poll that never answers', () => {
  it('kb sync --wait gives up at --wait-timeout, not at the client limits minutes later', async () => {
    await applied();
    override = on('POST', (url) => url.endsWith('/status/poll'), stall);
    const started = Date.now();
    const result = await cli('kb', 'sync', '--wait', '--wait-timeout', '1');
    expect(Date.now() - started).toBeLessThan(8_000);
    expectOneLineFailure(result, /^Error: indexing did not finish within --wait-timeout 1s \(1 URLs remaining\); the sync itself was sent/);
    expect(result.stdout).toContain('website.docs: processing 1 URL again');
  });

  it('apply --wait gives up at --wait-timeout with the apply recorded', async () => {
    override = on('POST', (url) => url.endsWith('/status/poll'), stall);
    const started = Date.now();
    const result = await cli('apply', '--auto-approve', '--wait', '--wait-timeout', '1');
    expect(Date.now() - started).toBeLessThan(8_000);
    expectOneLineFailure(result, /^Error: indexing did not finish within --wait-timeout 1s .*; the apply itself is complete and recorded/);
    expect(Object.keys((await stateOf()).resources).sort()).toEqual(['agent.support', 'tool.get_weather', 'website.docs']);
  });

  it('apply --wait gives up at --wait-timeout when the URL list to wait for never comes', async () => {
    // A website new to the state is not read by the refresh: the only read is the wait's own.
    override = on('GET', (url) => url.startsWith(`${DISCOVERED}?`), stall);
    const started = Date.now();
    const result = await cli('apply', '--auto-approve', '--wait', '--wait-timeout', '1');
    expect(Date.now() - started).toBeLessThan(8_000);
    expectOneLineFailure(result, /^Error: waiting for indexing stopped: the URLs to wait for could not be read from the server within 1 s; the apply itself is complete and recorded/);
  });
});

describe('an agent list that could not be read whole', () => {
  /** Page 1 lists nothing and points to a page 2 that fails: the agent may well be there. */
  const pageTwoFails: Override = (req, res) => {
    if (req.method !== 'GET' || !(req.url ?? '').startsWith('/v3/ai-agents/agents')) return false;
    if (req.url === '/v3/ai-agents/agents') send(res, 200, JSON.stringify({ data: [], meta: { next: { cursor: 'p2', affix: 'append' } } }));
    else send(res, 500, '{"statusCode":500,"message":"cursor store down","error":"Internal Server Error"}');
    return true;
  };

  it('plans no create for an agent it may already hold, names it, and fails', async () => {
    override = pageTwoFails;
    const plan = await cli('plan');
    expect(plan.code).toBe(1);
    expect(plan.stdout).not.toMatch(/\+ agent\.support/);
    expect(plan.stdout).toMatch(/! agent\.support: the server's list of agents page 2 could not be read \(.*cursor store down\), so it may already hold an agent named "Support"/);
    expect(plan.stdout).toMatch(/\+ tool\.get_weather/);
  });

  it('apply sends no POST for it, records what it did, and a rerun against a whole list converges', async () => {
    override = pageTwoFails;
    const result = await cli('apply', '--auto-approve');
    expect(result.code).toBe(1);
    expect(result.stderr).not.toMatch(STACK_TRACE);
    expect(result.stderr.trimEnd().split('\n')).toHaveLength(1);
    expect(result.stderr).toMatch(/^Error: apply failed: .*1 resource could not be read from the server/);
    expect(log.filter((entry) => entry.method === 'POST' && entry.url === '/v3/ai-agents/agents')).toEqual([]);
    expect(Object.keys((await stateOf()).resources).sort()).toEqual(['tool.get_weather', 'website.docs']);

    override = undefined;
    const rerun = await cli('apply', '--auto-approve');
    expect(rerun.stderr).toBe('');
    expect(rerun.code).toBe(0);
    expect(rerun.stdout).toContain('Apply complete: 1 created, 0 updated, 0 forgotten.');
    expect(app.agents.size).toBe(1);
  });
});

describe('an agent list whose ids are odd', () => {
  const listAgents = (agents: unknown[]): Override =>
    on(
      'GET',
      (url) => url === '/v3/ai-agents/agents',
      (res) => send(res, 200, JSON.stringify(agents)),
    );

  it('a uid with a line break and escapes keeps the refusal one line, shown not obeyed', async () => {
    override = listAgents([{ uid: 'u-1\u001b[2J\n::error::forged', name: 'Support', integrationType: 'llm', integrateWith: 'gpt-4o' }]);
    for (const command of [['plan'], ['apply', '--auto-approve']]) {
      const result = await cli(...command);
      expectOneLineFailure(result, /agent\.support \(u-1\\u001b\[2J\\u000a::error::forged\)/);
      expect(result.stderr).not.toContain('\u001b');
    }
  });

  it('an agent listed without a uid (or with a number for one) is named as such, and the fix asks for the uid', async () => {
    for (const listed of [{ name: 'Support' }, { uid: 42, name: 'Support' }]) {
      override = listAgents([listed]);
      const plan = await cli('plan');
      expectOneLineFailure(plan, /agent\.support \(listed without its uid\)\. Adopt it with `agentsync import agent\.support <uid>`, then plan again\.$/);
    }
  });
});

describe('a create answered 2xx without the id it needs', () => {
  it('names the call once, then what the answer lacks', async () => {
    override = on(
      'POST',
      (url) => url === '/v3/ai-agents/agents',
      (res) => send(res, 201, '{"agent":{"name":"Support"}}'),
    );
    const result = await cli('apply', '--auto-approve');
    expectOneLineFailure(result, /^Error: apply failed: 1 failed/);
    expect(result.stdout).toMatch(/\+ agent\.support: POST \/ai-agents\/agents answered 20\d BAD_RESPONSE: the answer has no "uid" for the new agent\n/);
  });
});

describe('a tool create the server refuses', () => {
  it('names the POST that was refused, not the PUT tried after it', async () => {
    // A server that creates only with POST (PUT of an unknown tool is a 404), and refuses the body.
    override = (req, res) => {
      const url = req.url ?? '';
      if (req.method === 'PUT' && url.startsWith('/v3/ai-agents/tools/')) send(res, 404, '{"statusCode":404,"message":"no tool by that name","error":"Not Found"}');
      else if (req.method === 'POST' && url === '/v3/ai-agents/tools') send(res, 400, '{"statusCode":400,"message":"parameters must be a JSON schema object","error":"Bad Request"}');
      else return false;
      return true;
    };
    const result = await cli('apply', '--auto-approve');
    expectOneLineFailure(result, /^Error: apply failed: 1 failed/);
    expect(result.stdout).toMatch(/\+ tool\.get_weather: POST \/ai-agents\/tools answered 400: parameters must be a JSON schema object\n/);
    // The fallback PUT was sent (and 404ed): the line must not name it with the POST's message.
    expect(log.filter((l) => l.url.startsWith('/v3/ai-agents/tools')).map((l) => l.method)).toEqual(['GET', 'PUT', 'POST', 'PUT']);
    expect(result.stdout).not.toContain('PUT /ai-agents/tools/get_weather answered 400');
  });
});

describe('export, when a record holds what a manifest cannot', () => {
  it.each([
    ['isActive as a string', 'agents', [{ uid: 'a1', name: 'Helper', integrationType: 'llm', integrateWith: 'gpt-4o', isActive: 'yes' }], /agents\.helper\.isActive: /],
    ['a tool name the name pattern refuses', 'tools', [{ _id: 'x', name: 'bad name', displayName: 'D', executionText: 'E' }], /tools\["bad name"\]: /],
    [
      'parameters.properties as a string',
      'tools',
      [{ _id: 'x', name: 't1', displayName: 'D', executionText: 'E', tool: { parameters: { type: 'object', properties: 'x' } } }],
      /tools\.t1\.parameters\.properties: /,
    ],
  ])('%s is refused in one line naming where, and nothing is written', async (_name, list, records, where) => {
    override = on(
      'GET',
      (url) => url === `/v3/ai-agents/${list}`,
      (res) => send(res, 200, JSON.stringify(records)),
    );
    const exported = await cli('export', '--out', 'exported.yaml');
    expectOneLineFailure(exported, /^Error: cannot export: the server's records do not make a valid manifest: /);
    expect(exported.stderr).toMatch(where);
    await expect(readFile(join(dir, 'exported.yaml'), 'utf8')).rejects.toThrow(/ENOENT/);
  });
});

describe('a DELETE that answers 200 but says it did not delete', () => {
  it.each([
    ['{"deleted":false}', '"deleted": false'],
    ['{"success":false,"message":"tool is in use"}', '"success": false'],
  ])('%s fails the delete and keeps the tool in state; a rerun deletes it', async (body, said) => {
    await writeFile(join(dir, 'agents.yaml'), MANIFEST(true));
    await applied();
    await writeFile(join(dir, 'agents.yaml'), MANIFEST());
    override = on(
      'DELETE',
      (url) => url === '/v3/ai-agents/tools/old_tool',
      (res) => send(res, 200, body),
    );
    const pruned = await cli('apply', '--auto-approve', '--prune');
    expectOneLineFailure(pruned, /^Error: apply failed: 1 failed/);
    expect(pruned.stdout).toContain(`- tool.old_tool: DELETE /ai-agents/tools/old_tool answered 200 BAD_RESPONSE: the answer says ${said}\n`);
    expect((await stateOf()).resources['tool.old_tool']).toBeDefined();

    override = undefined;
    const rerun = await cli('apply', '--auto-approve', '--prune');
    expect(rerun.stderr).toBe('');
    expect(rerun.code).toBe(0);
    expect((await stateOf()).resources['tool.old_tool']).toBeUndefined();
    expect(app.tools.has('old_tool')).toBe(false);
  });
});

describe('send, when the message id is not plain text', () => {
  const answerId = (id: string): Override =>
    on(
      'POST',
      (url) => url === '/v3/messages',
      (res) => send(res, 200, JSON.stringify({ data: { id } })),
    );

  it('shows escape sequences and line breaks in the id instead of obeying them', async () => {
    override = answerId('\u001b[2J42\nfake line');
    const result = await cli('send', '--to', 'user:bob', '--text', 'hi');
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stdout).toBe('\\u001b[2J42\\u000afake line\n');
  });

  it.each([
    [204, ''],
    [201, '{"data":{"id":42}}'],
  ])('a %i without a string id is one line naming that status', async (status, body) => {
    override = on(
      'POST',
      (url) => url === '/v3/messages',
      (res) => send(res, status, body),
    );
    const result = await cli('send', '--to', 'user:bob', '--text', 'hi');
    expectOneLineFailure(result, new RegExp(`^Error: sending the message failed: POST /messages answered ${status} BAD_RESPONSE: no "id" in the answer$`));
    expect(result.stdout).toBe('');
  });

  it('never prints the API key the server puts in the id', async () => {
    override = answerId(`id-${KEY}`);
    for (const args of [[], ['--json']]) {
      const result = await cli('send', '--to', 'user:bob', '--text', 'hi', ...args);
      expect(result.code).toBe(0);
      expect(result.stdout).not.toContain(KEY);
      expect(result.stdout).toContain('id-(sensitive)');
    }
  });
});

describe('rate-limit headers that claim too much', () => {
  it('a reset "in 31 years" with one request left holds requests for one window (a minute) at most', async () => {
    const clock = { t: 1_000_000, now: () => clock.t };
    const governor = new RateGovernor(4, clock);
    // X-RateLimit-Remaining: 1, X-RateLimit-Reset: 999999999 (read as seconds from now), no limit.
    governor.observe({ remaining: 1, resetMs: 999_999_999_000 });
    (await governor.acquire()).release();
    clock.t += 60_001;
    let granted = false;
    const next = governor.acquire().then((permit) => {
      granted = true;
      permit.release();
    });
    await new Promise((resolve) => setTimeout(resolve, 50));
    governor.close();
    expect(granted).toBe(true);
    await next;
  });

  it('apply paces the rest of a window once, not every later request of the run', async () => {
    // One request left and a reset in 2 s, on the first list only: the window ends 2 s later.
    override = on(
      'GET',
      (url) => url === '/v3/ai-agents/tools',
      (res) => send(res, 200, '[]', { 'x-ratelimit-remaining': '1', 'x-ratelimit-reset': '2' }),
    );
    const started = Date.now();
    const result = await cli('apply', '--auto-approve');
    const elapsed = Date.now() - started;
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    // Spaced 2 s apart for the whole run, the three calls after the lists took 6 s or more.
    expect(elapsed).toBeLessThan(5_000);
  });
});

describe('--timeout on the commands that only read', () => {
  // The first tools list takes 1.2 s to answer; every later one is prompt.
  const slowOnce = (): Override => {
    let slowed = false;
    return (req, res) => {
      if (slowed || req.method !== 'GET' || req.url !== '/v3/ai-agents/tools') return false;
      slowed = true;
      setTimeout(() => send(res, 200, '[]'), 1_200);
      return true;
    };
  };
  const toolLists = (): number => log.filter((entry) => entry.method === 'GET' && entry.url === '/v3/ai-agents/tools').length;

  it('plan --timeout 1 gives up on the slow answer and asks again; without it the answer is awaited', async () => {
    override = slowOnce();
    const quick = await cli('plan', '--timeout', '1');
    expect(quick.stderr).toBe('');
    expect(quick.code).toBe(0);
    expect(toolLists()).toBe(2);
    log = [];
    override = slowOnce();
    const patient = await cli('plan');
    expect(patient.code).toBe(0);
    expect(toolLists()).toBe(1);
  });

  it('a bad --timeout is one usage line before any call, on every command that takes it', async () => {
    for (const args of [['plan'], ['export'], ['import'], ['kb', 'status'], ['kb', 'sync'], ['send', '--to', 'user:u1', '--text', 'hi'], ['apply', '--auto-approve']]) {
      const result = await cli(...args, '--timeout', '0');
      expectOneLineFailure(result, /^Error: --timeout must be a whole number from 1 to 3600 \(got "0"\)$/);
    }
    expect(log).toEqual([]);
  });
});
