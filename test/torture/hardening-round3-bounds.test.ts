// Issue 31, round 3 of hardening: bounds and honesty. A server that ignores `limit` (item 5), a
// pathological exclude glob (7), an unknown indexing status (13), a var file that never ends or
// explodes (16). Hostile servers are tiny node:http servers on port 0; the CLI is the built one,
// as a child process, on real files. Nothing of ours is mocked.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { writeFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertBuilt, runCli } from '../support/cli.js';
import { createApiClient } from '../../src/io/api/client.js';
import { readOne } from '../../src/io/api/read-websites.js';
import { readServer } from '../../src/io/api/read-server.js';
import { API_KEY, startTestEmulator } from '../support/emulator.js';
import { makeWorkspace, STACK_TRACE, type Workspace } from './helpers.js';

let ws: Workspace;

beforeAll(() => {
  assertBuilt();
  ws = makeWorkspace('agentsync-round3-bounds-');
});

afterAll(() => ws?.remove());

interface HostileServer {
  url: string;
  /** Requests answered, by path without the query. */
  hits: Map<string, number>;
  close(): Promise<void>;
}

/** A server on 127.0.0.1:0 whose every request is answered by `answer`. */
async function hostileServer(answer: (req: IncomingMessage, res: ServerResponse, body: string) => void): Promise<HostileServer> {
  const hits = new Map<string, number>();
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const path = (req.url ?? '/').split('?')[0] ?? '/';
      hits.set(path, (hits.get(path) ?? 0) + 1);
      answer(req, res, Buffer.concat(chunks).toString('utf8'));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v3`,
    hits,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function json(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
}

describe('item 5: a server that ignores limit cannot exhaust memory', () => {
  it('100,000 entries a page with a new cursor each time: one clear error naming the website, memory bounded', async () => {
    let pages = 0;
    // Eight pages at most, so that without the bound the read ends (with 800,000 URLs) instead of crashing the runner.
    const server = await hostileServer((req, res) => {
      pages++;
      const data = Array.from({ length: 100_000 }, (_, k) => ({ urlId: `${pages}-${k}`, url: `https://d.com/${pages}/${k}`, status: 'discovered' }));
      json(res, 200, { data, meta: pages < 8 ? { next: { cursor: `c${pages}`, affix: 'append' } } : {} });
    });
    const client = createApiClient({ baseUrl: server.url, apiKey: 'k' });
    const heapBefore = process.memoryUsage().heapUsed;
    try {
      const error: unknown = await readOne(client, { address: 'website.docs', websiteId: 'web_1' }).then(
        () => undefined,
        (err: unknown) => err,
      );
      expect(error).toBeInstanceOf(Error);
      expect((error as Error).message).toBe(
        'website.docs: the server listed more than 100,000 discovered URLs (page 2); stopped reading: a crawl finds at most 10,000 pages, so the server is not paging as asked (limit=100)',
      );
      expect(pages).toBe(2);
      // Two pages of 100,000 were parsed; nothing of them is kept once the read is refused.
      expect(process.memoryUsage().heapUsed - heapBefore).toBeLessThan(400 * 1024 * 1024);
    } finally {
      await client.close();
      await server.close();
    }
  });

  it('a page larger than a page can be is refused, naming the website', async () => {
    const entry = { urlId: 'x', url: `https://d.com/${'p'.repeat(1000)}`, status: 'discovered' };
    const server = await hostileServer((req, res) => json(res, 200, { data: Array.from({ length: 10_000 }, () => entry) }));
    const client = createApiClient({ baseUrl: server.url, apiKey: 'k' });
    try {
      await expect(readOne(client, { address: 'website.docs', websiteId: 'web_1' })).rejects.toThrow(
        /^could not read the discovered URLs of website\.docs: .*the answer is larger than the 8 MB this call accepts/,
      );
    } finally {
      await client.close();
      await server.close();
    }
  });
});

describe('item 5, sibling: the tool and agent lists are bounded the same way', () => {
  it('a tool list of 100,000 entries a page, forever: read stops on page 2 and says the list is incomplete', async () => {
    let pages = 0;
    const server = await hostileServer((req, res) => {
      if (!(req.url ?? '').startsWith('/v3/ai-agents/tools')) return json(res, 200, []);
      pages++;
      const data = Array.from({ length: 100_000 }, (_, k) => ({ name: `t${pages}_${k}`, displayName: 'T', executionText: 'x', doNotExecute: true }));
      json(res, 200, { data, meta: pages < 8 ? { next: { cursor: `c${pages}` } } : {} });
    });
    const client = createApiClient({ baseUrl: server.url, apiKey: 'k' });
    try {
      const snapshot = await readServer(client);
      expect(snapshot.tool?.incomplete).toBe('holds more than 100,000 entries (page 2); the server is not paging as asked');
      expect(pages).toBe(2);
    } finally {
      await client.close();
      await server.close();
    }
  });
});

const WEBSITE_MANIFEST = (exclude: string) => `version: 1
environments:
  local: { appId: local, region: us, baseUrl: "http://127.0.0.1:9/v3", vars: { model: gpt-4o } }
agents:
  a: { name: A, integrationType: llm, integrateWith: "\${var.model}" }
knowledgeBase:
  websites:
    docs:
      url: https://d.com
      exclude:
        - ${exclude}
`;

describe('item 7: a pathological exclude glob is refused by validate, at its position', () => {
  it.each([
    [
      'thousands of ** groups',
      `https://d.com/${'**a'.repeat(3000)}**`,
      /^agents\.yaml:11:11: error: ".{60}…" \(9016 characters\) is not a valid URL glob: a URL glob may be at most 1000 characters long/m,
    ],
    ['too many wildcards', `https://d.com/${'*/'.repeat(40)}`, /^agents\.yaml:11:11: error: ".*" is not a valid URL glob: a URL glob may have at most 20 wildcards \(\* or \*\*; this one has 40\)/m],
  ])('%s', async (_name, glob, message) => {
    writeFileSync(ws.path('agents.yaml'), WEBSITE_MANIFEST(glob));
    for (const command of [['validate'], ['plan', '--offline']]) {
      const result = await runCli(command, { cwd: ws.dir });
      expect(result.code, result.stderr).toBe(1);
      expect(result.stderr).toMatch(message);
      expect(result.stderr).not.toMatch(STACK_TRACE);
    }
  });
});

describe('item 13: apply --wait never calls an unknown status processed', () => {
  /** A proxy in front of the emulator that rewrites the status poll's answer with `rewrite`. */
  async function pollRewriter(upstream: string, rewrite: (statuses: Record<string, unknown>) => Record<string, unknown>): Promise<HostileServer> {
    return hostileServer((req, res, body) => {
      void (async () => {
        const answer = await fetch(`${upstream}${req.url ?? '/'}`, {
          method: req.method ?? 'GET',
          headers: { apikey: String(req.headers.apikey ?? ''), 'content-type': 'application/json' },
          ...(body !== '' ? { body } : {}),
        });
        const text = await answer.text();
        if (!(req.url ?? '').endsWith('/status/poll') || answer.status !== 200) {
          res.writeHead(answer.status, { 'content-type': 'application/json' }).end(text);
          return;
        }
        const parsed = JSON.parse(text) as { data: Record<string, unknown> };
        json(res, 200, { ...parsed, data: rewrite(parsed.data) });
      })().catch((err: unknown) => res.writeHead(502).end(String(err)));
    });
  }

  it.each([
    [
      'statuses it does not know ("exploded", 42, {}) and a URL left out',
      (statuses: Record<string, unknown>) => {
        const ids = Object.keys(statuses).sort();
        const out: Record<string, unknown> = { ...statuses, [ids[0] ?? '']: 'exploded', [ids[1] ?? '']: 42, [ids[2] ?? '']: {}, [ids[3] ?? '']: 'bad\u001b[2Jstatus' };
        delete out[ids[4] ?? ''];
        return out;
      },
      /indexing ended with 5 URLs in an unknown state \(1 left out of the server's answer, 4 with a status agentsync does not know: "bad\\u001b\[2Jstatus", "exploded", 42, \{\}\); 1 processed, 0 failed; the apply itself is complete and recorded; see them with `agentsync kb status --urls`/,
    ],
    ['an answer that names none of the URLs sent', () => ({}), /indexing ended with 6 URLs in an unknown state \(6 left out of the server's answer\); 0 processed, 0 failed;/],
  ])('%s: reported, exit 1, never "Indexing complete"', async (_name, rewrite, message) => {
    const emulator = await startTestEmulator({ kb: { kbProcessingMs: 0 } });
    const proxy = await pollRewriter(emulator.origin, rewrite);
    try {
      const seeded = await emulator.admin('POST', '/kb/websites', { count: 6, url: 'https://six.example.com' });
      const { parentUniqueId } = seeded.json as { parentUniqueId: string };
      writeFileSync(
        ws.path('agents.yaml'),
        `version: 1\nenvironments:\n  local: { appId: local, region: us }\nknowledgeBase:\n  websites:\n    six: { parentUniqueId: ${parentUniqueId}, exclude: [] }\n`,
      );
      const result = await runCli(['apply', '--auto-approve', '--wait', '--state', 'wait.state.json'], {
        cwd: ws.dir,
        env: { COMETCHAT_API_KEY: API_KEY, AGENTSYNC_BASE_URL: proxy.url, AGENTSYNC_KB_POLL_MS: '100' },
      });
      expect(result.code, result.stdout + result.stderr).toBe(1);
      expect(result.stdout).not.toContain('Indexing complete');
      expect(result.stderr).toMatch(message);
      expect(result.stderr).not.toContain('\u001b[2J');
      expect(result.stderr).not.toMatch(STACK_TRACE);
      // kb sync --wait says the same of its wait, and what stands is the sync, not an apply.
      const synced = await runCli(['kb', 'sync', '--wait', '--state', 'wait.state.json'], {
        cwd: ws.dir,
        env: { COMETCHAT_API_KEY: API_KEY, AGENTSYNC_BASE_URL: proxy.url, AGENTSYNC_KB_POLL_MS: '100' },
      });
      expect(synced.code, synced.stdout + synced.stderr).toBe(1);
      expect(synced.stderr).toMatch(/in an unknown state .*; the sync itself was sent; see them with `agentsync kb status --urls`\n$/);
      expect(synced.stderr).not.toContain('apply');
    } finally {
      await proxy.close();
      await emulator.close();
    }
  });
});

describe('item 16: --var-file is bounded like the manifest', () => {
  const ALIAS_BOMB = [
    'a: &a ["x","x","x","x","x","x","x","x","x","x"]',
    ...'bcdefg'.split('').map((name, i) => `${name}: &${name} [${Array(10).fill(`*${'abcdefg'[i]}`).join(',')}]`),
    'model: [*g,*g,*g,*g,*g,*g,*g,*g,*g,*g]',
  ].join('\n');

  it.each([
    ['/dev/zero', () => '/dev/zero', /^Error: --var-file \/dev\/zero: the file is larger than 10 MB; a var file may be at most 10 MB\n$/],
    ['an alias bomb', () => writeVarFile('bomb.yaml', ALIAS_BOMB), /^Error: --var-file bomb\.yaml:\d+:\d+: aliases expand to more than 10000 nodes; this looks like an alias bomb\n$/],
    ['deep nesting', () => writeVarFile('deep.yaml', `model: ${'['.repeat(100_000)}${']'.repeat(100_000)}\n`), /^Error: --var-file deep\.yaml:1:\d+: .*nested/],
  ])('%s: one line, exit 1, no internal error', async (_name, file, message) => {
    writeFileSync(ws.path('agents.yaml'), WEBSITE_MANIFEST('https://d.com/blog/**'));
    for (const command of [['validate'], ['plan', '--offline']]) {
      const result = await runCli([...command, '--var-file', file()], { cwd: ws.dir, timeoutMs: 30_000 });
      expect(result.code, result.stderr).toBe(1);
      expect(result.stderr).toMatch(message);
      expect(result.stderr).not.toContain('internal error');
      expect(result.stderr).not.toMatch(STACK_TRACE);
    }
  });
});

function writeVarFile(name: string, text: string): string {
  writeFileSync(ws.path(name), text);
  return name;
}
