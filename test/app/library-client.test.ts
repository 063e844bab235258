// A client made once with createClient and lent to many library calls: its key is a secret of
// every call that uses it, and the options that shape it are checked before any call is made.
// Real HTTP: a node:http server on port 0 that refuses every call and echoes the key it was sent,
// or, for a key that starts with "stall", never answers.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import * as api from '../../src/index.js';

const SHARED_KEY = 'shared-client-key-4b7e0c19';

let server: Server;
let baseUrl: string;
let dir: string;
beforeAll(async () => {
  server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      if (String(req.headers.apikey).startsWith('stall')) return;
      res.writeHead(403, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ statusCode: 403, message: `key ${String(req.headers.apikey)} may not read this`, error: 'Forbidden' }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v3`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'agentsync-library-client-'));
  await writeFile(
    join(dir, 'agents.yaml'),
    `version: 1
environments:
  local: { appId: local, region: us }
agents:
  helper: { name: Helper, integrationType: llm, integrateWith: gpt-4o }
`,
  );
});
afterEach(async () => {
  server.closeAllConnections();
  await rm(dir, { recursive: true, force: true });
});

/** No COMETCHAT_API_KEY: the shared client's key is the only one any call could know. */
const env = (): Record<string, string> => ({ AGENTSYNC_BASE_URL: baseUrl });

async function rejection(call: Promise<unknown>): Promise<Error> {
  const error = await call.then(
    () => undefined,
    (err: unknown) => err,
  );
  expect(error).toBeInstanceOf(Error);
  return error as Error;
}

describe('a client made once and lent to many calls', () => {
  it.each([
    ['plan', (client: api.ApiClient) => api.plan({ cwd: dir, env: env(), client })],
    ['exportManifest', (client: api.ApiClient) => api.exportManifest({ cwd: dir, env: env(), client })],
    ['importResources', (client: api.ApiClient) => api.importResources({ cwd: dir, env: env(), client })],
    ['apply', (client: api.ApiClient) => api.apply({ cwd: dir, env: env(), client })],
  ])("%s masks the server's echo of the client's key", async (_name, call) => {
    // Made outside any call, as a server using the library would make it once at start-up.
    const { desired } = await api.load({ cwd: dir, env: env() });
    const client = api.createClient(desired.environment, { apiKey: SHARED_KEY });
    try {
      const error = await rejection(call(client));
      expect(error.message).toContain('answered 403: key (sensitive) may not read this');
      expect(error.message).not.toContain(SHARED_KEY);
    } finally {
      await client.close();
    }
  });

  it('masks the echo for a call made while another call runs with a different client', async () => {
    const { desired } = await api.load({ cwd: dir, env: env() });
    const other = 'other-client-key-9d2a5f63';
    const first = api.createClient(desired.environment, { apiKey: SHARED_KEY });
    const second = api.createClient(desired.environment, { apiKey: other });
    try {
      const [a, b] = await Promise.all([rejection(api.plan({ cwd: dir, env: env(), client: first })), rejection(api.plan({ cwd: dir, env: env(), client: second }))]);
      expect(a.message).toContain('key (sensitive) may not');
      expect(b.message).toContain('key (sensitive) may not');
      expect(a.message + b.message).not.toMatch(/shared-client-key|other-client-key/);
    } finally {
      await first.close();
      await second.close();
    }
  });
});

describe("a client's timeoutMs", () => {
  it.each([0, -1, 1.5, Number.NaN, Number.POSITIVE_INFINITY, 2 ** 31])('refuses %s before any call', async (timeoutMs) => {
    const { desired } = await api.load({ cwd: dir, env: env() });
    expect(() => api.createClient(desired.environment, { apiKey: SHARED_KEY, timeoutMs })).toThrow(
      expect.objectContaining({ code: 'usage', message: `the timeoutMs option must be a whole number from 1 to 2147483647 (milliseconds) (got ${String(timeoutMs)})` }),
    );
    // A call that makes its own client refuses the same way.
    const error = await rejection(api.plan({ cwd: dir, env: { ...env(), COMETCHAT_API_KEY: SHARED_KEY }, timeoutMs }));
    expect(error).toMatchObject({ code: 'usage', message: expect.stringContaining('the timeoutMs option must be a whole number') });
  });

  it('refuses a concurrency below 1 and negative retries', async () => {
    const { desired } = await api.load({ cwd: dir, env: env() });
    expect(() => api.createClient(desired.environment, { apiKey: SHARED_KEY, concurrency: 0 })).toThrow('the concurrency option must be a whole number 1 or more (got 0)');
    expect(() => api.createClient(desired.environment, { apiKey: SHARED_KEY, retries: -1 })).toThrow('the retries option must be a whole number 0 or more (got -1)');
  });

  it('a timeout under a second is said in milliseconds', async () => {
    const { desired } = await api.load({ cwd: dir, env: env() });
    const client = api.createClient(desired.environment, { apiKey: 'stall-key-1f0c3a', timeoutMs: 1, retries: 0 });
    try {
      const error = await rejection(api.plan({ cwd: dir, env: env(), client }));
      expect(error.message).toMatch(/no complete answer from 127\.0\.0\.1:\d+ within 1 ms$/);
    } finally {
      await client.close();
    }
  });
});
