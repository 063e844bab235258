// A scrape answers only once its crawl is done (issue 31 item 1): it must not be given up on after
// the client's usual per-call limit while the server goes on and stores the website. Run in-process
// with a client whose limit is shorter than a slow site's crawl, against the emulator over HTTP.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { planChanges } from '../../src/core/diff.js';
import { createApiClient } from '../../src/io/api/client.js';
import { executePlan } from '../../src/io/apply/executor.js';
import { loadDesired } from '../../src/io/manifest/load-manifest.js';
import { createDigester, createFileStateStore } from '../../src/io/state/index.js';
import { API_KEY, startTestEmulator, type TestEmulator } from '../support/emulator.js';

/** A site whose every page takes `delayMs` to answer. */
function slowSite(delayMs: number): Promise<{ server: Server; origin: string }> {
  const server = createServer((req, res) => {
    setTimeout(() => {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end(req.url === '/' ? '<html><body><a href="/a">a</a><a href="/b">b</a></body></html>' : '<html><body>page</body></html>');
    }, delayMs);
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve({ server, origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}` })));
}

let emu: TestEmulator;
let site: { server: Server; origin: string };
let dir: string;
beforeAll(async () => {
  emu = await startTestEmulator({ kb: { kbProcessingMs: 0 } });
  site = await slowSite(400);
});
afterAll(async () => {
  await emu.close();
  await new Promise((resolve) => site.server.close(resolve));
});
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'agentsync-scrape-'));
  await emu.reset();
});
afterEach(() => rm(dir, { recursive: true, force: true }));

describe('a scrape', () => {
  it("waits for its crawl beyond the client's per-call limit, so the website is made once and recorded", async () => {
    const file = join(dir, 'agents.yaml');
    await writeFile(file, `version: 1\nenvironments:\n  local: { appId: local, region: us, baseUrl: "${emu.url}" }\nknowledgeBase:\n  websites:\n    docs: { url: "${site.origin}/", exclude: [] }\n`);
    const { desired } = await loadDesired({ file, env: {}, mode: 'plan' });
    const session = await createFileStateStore(join(dir, 'state.json')).open({ environment: 'local', appId: 'local', region: 'us' });
    // Every other call must answer within 300 ms; the crawl of the slow site takes longer.
    const client = createApiClient({ baseUrl: emu.url, apiKey: API_KEY, timeouts: { responseMs: 300 } });
    try {
      const plan = planChanges({ desired, state: session.state, digest: createDigester(session.state.salt) });
      const result = await executePlan({ plan, desired, session, client, concurrency: 2 });
      expect(result.failed).toEqual([]);
      expect(result.ok).toBe(true);
      const scrapes = (await emu.apiWrites()).filter((r) => r.path.endsWith('/website/scrape'));
      expect(scrapes).toHaveLength(1);
      expect(scrapes[0]?.durationMs).toBeGreaterThan(300);
      expect(session.state.resources['website.docs']?.remoteId).toBeTruthy();
    } finally {
      await client.close();
      await session.close();
    }
  });
});
