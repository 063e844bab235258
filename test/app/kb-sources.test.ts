// Indexed sources (text entries) in `kb status` and `apply --wait`, against a small real server
// (node:http on port 0) that answers the knowledge base's status poll with every status a server may
// send: the emulator's text entries never fail, so this is where `failed`, a status agentsync does
// not know, and an id left out of the answer are tried.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { readSourceStatuses, sourcesToReport } from '../../src/app/kb-sources.js';
import { waitForIndexing } from '../../src/app/kb-wait.js';
import type { State } from '../../src/core/state.js';
import { createApiClient, type ApiClient } from '../../src/io/api/index.js';

const POLL = '/v3/ai-agents/agent-builder/knowledge-base/status/poll';

function stateWith(ids: Record<string, string>): State {
  const resources = Object.fromEntries(
    Object.entries(ids).map(([address, remoteId]) => [address, { type: 'text' as const, remoteId, appliedAt: '2026-01-01T00:00:00.000Z', spec: { title: address, text: 'x' } }]),
  );
  return {
    version: 1,
    lineage: '00000000-0000-4000-8000-000000000000',
    serial: 1,
    environment: 'local',
    appId: 'local',
    region: 'us',
    salt: 'c2FsdHNhbHRzYWx0c2FsdA==',
    resources,
    pending: {},
  } as State;
}

describe('indexed sources against a server that answers every status', () => {
  let server: Server | undefined;
  let client: ApiClient | undefined;
  const bodies: { path: string; ids: string[] }[] = [];
  afterEach(async () => {
    await client?.close();
    server?.closeAllConnections();
    await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
    bodies.length = 0;
  });

  async function serve(statuses: Record<string, unknown>): Promise<ApiClient> {
    server = createServer((req, res) => {
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
      req.on('end', () => {
        const ids = (JSON.parse(body || '{}') as { uniqueId?: string[] }).uniqueId ?? [];
        bodies.push({ path: req.url ?? '', ids });
        const data = Object.fromEntries(ids.filter((id) => Object.hasOwn(statuses, id)).map((id) => [id, statuses[id]]));
        res.writeHead(req.url === POLL ? 200 : 404, { 'content-type': 'application/json' }).end(JSON.stringify({ success: true, data }));
      });
    });
    await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve));
    client = createApiClient({ baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v3`, apiKey: 'k', retries: 0 });
    return client;
  }

  it('kb status gives each source the server’s word, and none for an id it left out', async () => {
    const api = await serve({ a: 'indexed', b: 'failed', c: 'indexing' });
    const state = stateWith({ 'text.a': 'a', 'text.b': 'b', 'text.c': 'c', 'text.gone': 'gone' });
    const addresses = sourcesToReport(state);
    expect(addresses).toEqual(['text.a', 'text.b', 'text.c', 'text.gone']);
    const statuses = await readSourceStatuses(api, state, addresses);
    expect(statuses).toEqual([
      { address: 'text.a', type: 'text', uniqueId: 'a', status: 'indexed' },
      { address: 'text.b', type: 'text', uniqueId: 'b', status: 'failed' },
      { address: 'text.c', type: 'text', uniqueId: 'c', status: 'indexing' },
      { address: 'text.gone', type: 'text', uniqueId: 'gone' },
    ]);
    // One request for all of them.
    expect(bodies).toEqual([{ path: POLL, ids: ['a', 'b', 'c', 'gone'] }]);
  });

  it('the wait counts indexed and failed sources, names the failed one, and calls an unknown status unknown', async () => {
    const api = await serve({ a: 'indexed', b: 'failed', i: 'inSync' });
    const done = await waitForIndexing(api, stateWith({ 'text.a': 'a', 'text.b': 'b', 'text.i': 'i' }), ['text.a', 'text.b', 'text.i'], { timeoutMs: 5000, pollMs: 10, onProgress: () => undefined });
    expect(done).toMatchObject({ timedOut: false, counts: { processed: 2, failed: 1, unknown: 0, remaining: 0 }, failed: [{ address: 'text.b', url: 'b' }] });

    await client?.close();
    server?.closeAllConnections();
    await new Promise<void>((resolve) => server?.close(() => resolve()));
    const odd = await serve({ a: 'exploded' });
    await expect(waitForIndexing(odd, stateWith({ 'text.a': 'a', 'text.gone': 'gone' }), ['text.a', 'text.gone'], { timeoutMs: 5000, pollMs: 10, onProgress: () => undefined })).rejects.toThrow(
      /indexing ended with 2 URLs in an unknown state \(1 left out of the server's answer, 1 with a status agentsync does not know: "exploded"\)/,
    );
  });

  it('a source still indexing at the deadline is remaining, and the wait says it timed out', async () => {
    const api = await serve({ a: 'indexing' });
    const waited = await waitForIndexing(api, stateWith({ 'text.a': 'a' }), ['text.a'], { timeoutMs: 100, pollMs: 20, onProgress: () => undefined });
    expect(waited).toMatchObject({ timedOut: true, counts: { processed: 0, failed: 0, remaining: 1 } });
  });
});
