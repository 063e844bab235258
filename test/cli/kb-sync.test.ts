// Issue 32 §2, done when: against a real local site (node:http on port 0), a page that failed to
// process is processed by `kb sync --failed --wait` once the site is fixed, with exactly one sync
// call for that page; a page whose content changed is re-processed by `kb sync`; `--reindex`
// re-indexes the source; the manifest's excludes are honoured. The emulator's request log judges.
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { API_KEY as KEY, startTestEmulator, type TestEmulator } from '../support/emulator.js';
import { runCli, type CliResult } from '../support/cli.js';
import { startLinkSite, type LinkSite } from '../support/site.js';

const LINKS = ['/docs/a', '/docs/b', '/docs/broken', '/private/secret'];

interface Listed {
  uniqueId: string;
  url: string;
  status: string;
  content: string;
}

describe('kb sync', () => {
  let site: LinkSite;
  let emu: TestEmulator;
  let dir: string;
  const cli = (args: string[]): Promise<CliResult> =>
    runCli([...args, '--state', 'state.json'], { cwd: dir, env: { COMETCHAT_API_KEY: KEY, AGENTSYNC_BASE_URL: emu.url, AGENTSYNC_KB_POLL_MS: '30' } });
  const websiteId = async (): Promise<string> =>
    (JSON.parse(await readFile(join(dir, 'state.json'), 'utf8')) as { resources: Record<string, { remoteId: string }> }).resources['website.docs']?.remoteId ?? '';
  const listed = async (): Promise<Listed[]> => (await emu.get<{ data: Listed[] }>(`/ai-agents/agent-builder/knowledge-base/website/${await websiteId()}/discovered-urls?limit=100`)).data;
  const syncCalls = async (): Promise<{ path: string; ids: string[] }[]> =>
    (await emu.apiRequests('PATCH')).map((entry) => ({ path: entry.path, ids: ((entry.body as { uniqueIds?: string[] } | null)?.uniqueIds ?? []).slice().sort() }));

  beforeAll(async () => {
    site = await startLinkSite(LINKS);
    emu = await startTestEmulator({ quiet: true, kb: { kbProcessingMs: 200 } });
  });
  afterAll(async () => {
    await emu.close();
    await site.close();
  });
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'agentsync-kb-sync-'));
    await emu.reset();
    await emu.configure({ kbProcessingMs: 200, kbFailUrls: [] });
    for (const path of LINKS) site.texts.set(path, `first text of ${path}`);
    const manifest = [
      'version: 1',
      'environments:',
      '  local: { appId: local, region: us }',
      'knowledgeBase:',
      '  websites:',
      '    docs:',
      `      url: ${site.origin}/`,
      '      exclude: ["**/private/**"]',
      '',
    ];
    await writeFile(join(dir, 'agents.yaml'), manifest.join('\n'));
    return () => rm(dir, { recursive: true, force: true });
  });

  it('a failed page is processed by `kb sync --failed --wait` once the site is fixed, with one sync call for it alone', async () => {
    await emu.configure({ kbFailUrls: ['**/docs/broken'] });
    const applied = await cli(['apply', '--auto-approve', '--wait']);
    expect(applied.code).toBe(1);
    expect(applied.stdout).toMatch(/Indexing complete: 3 processed, 1 failed/);
    expect(applied.stderr).toContain('agentsync kb sync --failed --wait');
    const broken = (await listed()).find((entry) => entry.url.endsWith('/docs/broken'));
    expect(broken?.status).toBe('failed');

    // The knob is lifted but the page itself is down: the sync reads it again and it fails again.
    await emu.configure({ kbFailUrls: [] });
    site.texts.delete('/docs/broken');
    const stillBroken = await cli(['kb', 'sync', '--failed', '--wait']);
    expect(stillBroken.code).toBe(1);
    expect(stillBroken.stdout).toContain('website.docs: processing 1 failed URL again (1 sync call).');
    expect(stillBroken.stdout).toMatch(/Indexing complete: 0 processed, 1 failed/);

    site.texts.set('/docs/broken', 'fixed text');
    await emu.clearRequests();
    const fixed = await cli(['kb', 'sync', '--failed', '--wait']);
    expect(fixed.code, fixed.stderr).toBe(0);
    expect(fixed.stdout).toMatch(/Indexing complete: 1 processed, 0 failed/);
    expect(await syncCalls()).toEqual([{ path: `/v3/ai-agents/agent-builder/knowledge-base/website/${await websiteId()}/discovered-urls/sync`, ids: [broken?.uniqueId] }]);
    const after = (await listed()).find((entry) => entry.url.endsWith('/docs/broken'));
    expect(after).toMatchObject({ status: 'processed' });
    expect(after?.content).toContain('fixed text');

    // Nothing failed now: nothing is sent (version A answers 400 to an empty list).
    await emu.clearRequests();
    const idle = await cli(['kb', 'sync', 'website.docs', '--failed']);
    expect(idle.code, idle.stderr).toBe(0);
    expect(idle.stdout).toContain('website.docs: no failed URLs; nothing sent.');
    expect(await syncCalls()).toEqual([]);
  });

  it('a page whose content changed is re-processed by `kb sync`; excluded pages are never sent', async () => {
    const applied = await cli(['apply', '--auto-approve', '--wait']);
    expect(applied.code, applied.stderr).toBe(0);
    const before = await listed();
    expect(before.find((entry) => entry.url.endsWith('/docs/a'))?.content).toContain('first text of /docs/a');
    site.texts.set('/docs/a', 'second text, rewritten');
    await emu.clearRequests();
    const synced = await cli(['kb', 'sync', '--wait']);
    expect(synced.code, synced.stderr).toBe(0);
    expect(synced.stdout).toContain('website.docs: processing 4 URLs again (1 sync call).');
    const calls = await syncCalls();
    expect(calls).toHaveLength(1);
    const privateId = before.find((entry) => entry.url.includes('/private/'))?.uniqueId;
    expect(calls[0]?.ids).toHaveLength(4);
    expect(calls[0]?.ids).not.toContain(privateId);
    const after = await listed();
    expect(after.find((entry) => entry.url.endsWith('/docs/a'))).toMatchObject({ status: 'processed', content: expect.stringContaining('second text, rewritten') });
    expect(after.find((entry) => entry.url.includes('/private/'))?.status).toBe('skipped');
  });

  it('--reindex re-indexes the whole source through PATCH …/website/{id}/sync', async () => {
    expect((await cli(['apply', '--auto-approve', '--wait'])).code).toBe(0);
    await emu.clearRequests();
    const reindexed = await cli(['kb', 'sync', '--reindex', '--wait', '--json']);
    expect(reindexed.code, reindexed.stderr).toBe(0);
    expect(JSON.parse(reindexed.stdout)).toEqual({ websites: [{ address: 'website.docs', websiteId: await websiteId(), mode: 'reindex', urls: 4, calls: 1 }] });
    expect(reindexed.stderr).toMatch(/Indexing complete: 4 processed, 0 failed/);
    expect(await syncCalls()).toEqual([{ path: `/v3/ai-agents/agent-builder/knowledge-base/website/${await websiteId()}/sync`, ids: [] }]);
  });

  it('one website failing stops no other: what was synced is printed, the failure is one line, exit 1', async () => {
    // Two websites; the server then loses the second (deleted in its dashboard, say).
    const manifest = (await readFile(join(dir, 'agents.yaml'), 'utf8')) + `    blog:\n      url: ${site.origin}/docs/a\n`;
    await writeFile(join(dir, 'agents.yaml'), manifest);
    expect((await cli(['apply', '--auto-approve'])).code).toBe(0);
    const state = JSON.parse(await readFile(join(dir, 'state.json'), 'utf8')) as { resources: Record<string, { remoteId: string }> };
    const blogId = state.resources['website.blog']?.remoteId ?? '';
    expect((await emu.call('DELETE', `/ai-agents/agent-builder/knowledge-base/website/${blogId}`)).status).toBe(200);
    await emu.clearRequests();
    // Before: the run failed on website.blog and printed nothing, though website.docs was synced.
    const text = await cli(['kb', 'sync']);
    expect(text.code).toBe(1);
    expect(text.stdout).toBe('website.docs: processing 4 URLs again (1 sync call).\n');
    expect(text.stderr).toMatch(/^Error: website\.blog: the server no longer has its website \(404\)[^\n]* \(1 other website was synced\)\n$/);
    expect((await syncCalls()).map((call) => call.path)).toEqual([`/v3/ai-agents/agent-builder/knowledge-base/website/${await websiteId()}/discovered-urls/sync`]);
    const json = await cli(['kb', 'sync', '--json', '--wait']);
    expect(json.code).toBe(1);
    expect(JSON.parse(json.stdout)).toMatchObject({
      websites: [{ address: 'website.docs', urls: 4 }],
      failed: [{ address: 'website.blog', code: 'api_error', message: expect.stringMatching(/^website\.blog: the server no longer has its website/) as unknown }],
    });
    expect(json.stderr).toMatch(/^Error: website\.blog: [^\n]*; not waiting for indexing\n$/);
  });

  it('bad input is one line and a non-zero exit, before anything is sent', async () => {
    expect((await cli(['apply', '--auto-approve'])).code).toBe(0);
    await emu.clearRequests();
    for (const args of [
      ['kb', 'sync', 'agent.x'],
      ['kb', 'sync', 'website.nope'],
      ['kb', 'sync', '--failed', '--reindex'],
      ['kb', 'sync', '--wait', '--wait-timeout', 'soon'],
    ]) {
      const refused = await cli(args);
      expect(refused.code, args.join(' ')).toBe(1);
      expect(refused.stderr.trim().split('\n'), args.join(' ')).toHaveLength(1);
      expect(refused.stderr).not.toContain('    at ');
    }
    expect(await syncCalls()).toEqual([]);
  });

  it('kb status and kb sync take the bare key for website.<key>, and offer the near miss for a misspelled one', async () => {
    expect((await cli(['apply', '--auto-approve'])).code).toBe(0);
    const status = await cli(['kb', 'status', 'docs']);
    expect(status.code, status.stderr).toBe(0);
    expect(status.stdout).toMatch(/^website\.docs: 5 URLs /m);
    await emu.clearRequests();
    const synced = await cli(['kb', 'sync', 'docs', 'website.docs']);
    expect(synced.code, synced.stderr).toBe(0);
    expect(synced.stdout.trim().split('\n')).toEqual(['website.docs: processing 4 URLs again (1 sync call).']);
    expect(await syncCalls()).toHaveLength(1);

    await emu.clearRequests();
    for (const [args, line] of [
      [['kb', 'status', 'website.doc'], 'Error: website.doc is not in the state: the state has website.docs; did you mean "website.docs"?'],
      [['kb', 'status', 'dosc'], 'Error: website.dosc is not in the state: the state has website.docs; did you mean "website.docs"?'],
      [['kb', 'sync', 'website.dcos'], 'Error: website.dcos is not in the state: the state has website.docs; did you mean "website.docs"?'],
      [['kb', 'sync', 'elsewhere'], 'Error: website.elsewhere is not in the state: the state has website.docs'],
      [['kb', 'status', 'agent.docs'], 'Error: "agent.docs" is not a website address; website addresses look like website.<key> (or just <key>)'],
    ] as const) {
      const refused = await cli([...args]);
      expect(refused.code, args.join(' ')).toBe(1);
      expect(refused.stderr.trim().split('\n'), args.join(' ')).toEqual([line]);
    }
    expect(await syncCalls()).toEqual([]);
  });
});
