// Issue 32 §2, done when: a website's crawl filters (`crawl: {include, exclude, sitemap}`) reach the
// scrape body under the reference's names (checked in the emulator's request log) and limit what
// the crawl finds; changing them is planned as a replacement (-/+) that says the old website is
// deleted after the new one is processed, and the apply does exactly that.
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { API_KEY as KEY, startTestEmulator, type TestEmulator } from '../support/emulator.js';
import { runCli, type CliResult } from '../support/cli.js';
import { startLinkSite, type LinkSite } from '../support/site.js';

const LINKS = ['/docs/a', '/docs/b', '/blog/x', '/login'];

describe('crawl filters', () => {
  let site: LinkSite;
  let emu: TestEmulator;
  let dir: string;
  const cli = (args: string[]): Promise<CliResult> =>
    runCli(args[0] === 'validate' ? args : [...args, '--state', 'state.json'], { cwd: dir, env: { COMETCHAT_API_KEY: KEY, AGENTSYNC_BASE_URL: emu.url, AGENTSYNC_KB_POLL_MS: '30' } });
  const manifest = (crawl: string): string =>
    ['version: 1', 'environments:', '  local: { appId: local, region: us }', 'knowledgeBase:', '  websites:', '    docs:', `      url: ${site.origin}/`, `      crawl: ${crawl}`, ''].join('\n');
  const scrapes = async (): Promise<unknown[]> => (await emu.apiRequests('POST')).filter((entry) => entry.path.endsWith('/website/scrape')).map((entry) => entry.body);
  const websiteId = async (): Promise<string> =>
    (JSON.parse(await readFile(join(dir, 'state.json'), 'utf8')) as { resources: Record<string, { remoteId: string }> }).resources['website.docs']?.remoteId ?? '';

  beforeAll(async () => {
    site = await startLinkSite(LINKS);
    emu = await startTestEmulator({ quiet: true, kb: { kbProcessingMs: 0 } });
  });
  afterAll(async () => {
    await emu.close();
    await site.close();
  });
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'agentsync-kb-crawl-'));
    await emu.reset();
    return () => rm(dir, { recursive: true, force: true });
  });

  it('reach the scrape body as include, exclude and fetchSitemap; a change is a -/+ replacement, the old website deleted after', async () => {
    await writeFile(join(dir, 'agents.yaml'), manifest('{ include: ["/docs/"], exclude: ["login"], sitemap: true }'));
    const applied = await cli(['apply', '--auto-approve', '--wait']);
    expect(applied.code, applied.stderr).toBe(0);
    expect(await scrapes()).toEqual([{ url: `${site.origin}/`, include: ['/docs/'], exclude: ['login'], fetchSitemap: true }]);
    const oldId = await websiteId();
    const urls = (await emu.get<{ data: { url: string }[] }>(`/ai-agents/agent-builder/knowledge-base/website/${oldId}/discovered-urls?limit=100`)).data.map((entry) => entry.url);
    expect(urls.some((url) => url.includes('/blog/') || url.includes('/login'))).toBe(false);
    expect(urls.filter((url) => url.includes('/docs/'))).toHaveLength(2);

    await writeFile(join(dir, 'agents.yaml'), manifest('{ include: ["/docs/", "/blog/"], exclude: ["login"], sitemap: true }'));
    const planned = await cli(['plan', '--json']);
    expect(planned.code, planned.stderr).toBe(0);
    const plan = JSON.parse(planned.stdout) as { changes: { address: string; action: string; replace?: boolean }[]; summary: Record<string, number> };
    expect(plan.changes.find((c) => c.address === 'website.docs')).toMatchObject({ action: 'update', replace: true });
    // Issue 40 §3.3: counted as a replacement, not as an update, in every rendering.
    expect(plan.summary).toEqual({ create: 0, update: 0, replace: 1, delete: 0, forget: 0, noop: 0 });
    const text = await cli(['plan']);
    expect(text.stdout).toContain('-/+ replace (the new one is made first, then the old one deleted)');
    expect(text.stdout).toMatch(/-\/\+ website\.docs .*the old website is deleted after the new one is processed/);
    expect(text.stdout).toContain('Plan: 0 to create, 0 to update, 1 to replace, 0 to forget.');
    const markdown = await cli(['plan', '--format', 'markdown']);
    expect(markdown.stdout).toContain('| `~` update in-place | 0 |\n| `-/+` replace | 1 |');

    await emu.clearRequests();
    const replaced = await cli(['apply', '--auto-approve', '--wait']);
    expect(replaced.code, replaced.stderr).toBe(0);
    expect(replaced.stdout).toMatch(/^replaced website\.docs \(crawled, processed, old deleted, \d+ ms\)$/m);
    expect(replaced.stdout).toContain('Apply complete: 0 created, 0 updated, 1 replaced, 0 forgotten.');
    const newId = await websiteId();
    expect(newId).not.toBe(oldId);
    const writes = (await emu.apiWrites()).filter((entry) => !entry.path.endsWith('/status/poll')).map((entry) => `${entry.method} ${entry.path.replace(newId, 'NEW').replace(oldId, 'OLD')}`);
    expect(writes).toEqual([
      'POST /v3/ai-agents/agent-builder/knowledge-base/website/scrape',
      'POST /v3/ai-agents/agent-builder/knowledge-base/website/NEW/discovered-urls/process',
      'DELETE /v3/ai-agents/agent-builder/knowledge-base/website/OLD',
    ]);
    expect((await scrapes())[0]).toMatchObject({ include: ['/docs/', '/blog/'] });
    const again = await cli(['plan', '--detailed-exitcode']);
    expect(again.code, again.stdout).toBe(0);
  });

  it('crawl.include and crawl.exclude are sets: reordering them (or repeating an item) plans nothing, while a new item re-crawls', async () => {
    await writeFile(join(dir, 'agents.yaml'), manifest('{ include: ["/docs/", "/blog/"], exclude: ["login", "/x"] }'));
    const applied = await cli(['apply', '--auto-approve']);
    expect(applied.code, applied.stderr).toBe(0);
    await writeFile(join(dir, 'agents.yaml'), manifest('{ include: ["/blog/", "/docs/", "/blog/"], exclude: ["/x", "login"] }'));
    const reordered = await cli(['plan', '--detailed-exitcode']);
    expect(reordered.code, reordered.stdout + reordered.stderr).toBe(0);
    expect(reordered.stdout).toContain('No changes.');
    await writeFile(join(dir, 'agents.yaml'), manifest('{ include: ["/blog/", "/docs/", "/api/"], exclude: ["/x", "login"] }'));
    const added = await cli(['plan', '--detailed-exitcode']);
    expect(added.code).toBe(2);
    expect(added.stdout).toMatch(/-\/\+ website\.docs/);
  });

  it('crawl.sitemap: true discovers a demo-site page that only the sitemap lists; without it the page is not found', async () => {
    const site = (key: string, crawl: string): string[] => [`    ${key}:`, '      url: https://docs.example.com', ...(crawl === '' ? [] : [`      crawl: ${crawl}`])];
    const lines = ['version: 1', 'environments:', '  local: { appId: local, region: us }', 'knowledgeBase:', '  websites:', ...site('mapped', '{ sitemap: true }'), ...site('plain', ''), ''];
    await writeFile(join(dir, 'agents.yaml'), lines.join('\n'));
    const applied = await cli(['apply', '--auto-approve']);
    expect(applied.code, applied.stderr).toBe(0);
    const listed = async (key: string): Promise<string[]> => {
      const id = (JSON.parse(await readFile(join(dir, 'state.json'), 'utf8')) as { resources: Record<string, { remoteId: string }> }).resources[`website.${key}`]?.remoteId ?? '';
      return (await emu.get<{ data: { url: string }[] }>(`/ai-agents/agent-builder/knowledge-base/website/${id}/discovered-urls?limit=100`)).data.map((entry) => entry.url);
    };
    expect(await listed('mapped')).toContain('https://docs.example.com/archive');
    expect(await listed('plain')).not.toContain('https://docs.example.com/archive');
    expect((await listed('plain')).length).toBe((await listed('mapped')).length - 1);
  });

  it('crawl needs url, and an empty substring is refused, each as one line', async () => {
    await writeFile(
      join(dir, 'agents.yaml'),
      [
        'version: 1',
        'environments:',
        '  local: { appId: local, region: us }',
        'knowledgeBase:',
        '  websites:',
        '    docs:',
        '      parentUniqueId: abc',
        '      exclude: []',
        '      crawl: { sitemap: true }',
        '',
      ].join('\n'),
    );
    const noUrl = await cli(['validate']);
    expect(noUrl.code).toBe(1);
    expect(noUrl.stderr).toContain('crawl is a crawl setting: it needs url');
    await writeFile(join(dir, 'agents.yaml'), manifest('{ include: [""] }'));
    const empty = await cli(['validate']);
    expect(empty.code).toBe(1);
    expect(empty.stderr).toContain('agents.yaml:8:26: error: must not be empty (at knowledgeBase.websites.docs.crawl.include[0])');
    expect(empty.stderr).not.toContain('    at ');
  });
});
