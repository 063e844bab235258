// Websites by URL (docs/spec/knowledge-base.md#apply), done when: a website written as a URL plus
// globs goes validate → apply --wait → plan "No changes" against the emulator, which crawls a real
// local site (node:http on port 0); changing a glob updates it; --prune deletes it. Also: paging
// past 100 URLs, the plan's glob counts, progress lines, failed URLs (exit 1), --wait-timeout and
// `kb status`.
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { API_KEY as KEY, startTestEmulator, type TestEmulator } from '../support/emulator.js';
import { runCli, type CliResult } from '../support/cli.js';
import { startLinkSite, type LinkSite } from '../support/site.js';

const DOC_PAGES = 130;
const BLOG_PAGES = 5;

/** 130 docs pages, 5 blog posts and a changelog, all linked from the front page. */
const LINKS = [...Array.from({ length: DOC_PAGES }, (_, i) => `/docs/page-${i}`), ...Array.from({ length: BLOG_PAGES }, (_, i) => `/blog/post-${i}`), '/changelog'];

function manifest(origin: string, exclude: readonly string[], extra = ''): string {
  return [
    'version: 1',
    'environments:',
    '  local: { appId: local, region: us }',
    'knowledgeBase:',
    '  websites:',
    '    docs:',
    `      url: ${origin}/`,
    '      maxPages: 500',
    `      exclude: [${exclude.map((glob) => JSON.stringify(glob)).join(', ')}]`,
    extra,
  ].join('\n');
}

describe('a website declared by URL', () => {
  let site: LinkSite;
  let emu: TestEmulator;
  let dir: string;
  const cli = (args: string[], env: NodeJS.ProcessEnv = {}): Promise<CliResult> =>
    runCli(args[0] === 'validate' ? args : [...args, '--state', 'state.json'], { cwd: dir, env: { COMETCHAT_API_KEY: KEY, AGENTSYNC_BASE_URL: emu.url, AGENTSYNC_KB_POLL_MS: '50', ...env } });
  const config = (body: object): Promise<Response> => fetch(`${emu.origin}/__emulator/config`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const requests = async (): Promise<{ method: string; path: string; body?: unknown }[]> =>
    ((await (await fetch(`${emu.origin}/__emulator/requests`)).json()) as { requests: { method: string; path: string; body?: unknown }[] }).requests;
  const state = async (): Promise<{ resources: Record<string, { remoteId: string; spec: Record<string, unknown> }> }> => JSON.parse(await readFile(join(dir, 'state.json'), 'utf8'));

  beforeAll(async () => {
    site = await startLinkSite(LINKS);
    emu = await startTestEmulator({ quiet: true, kb: { kbProcessingMs: 300 } });
  });
  afterAll(async () => {
    await emu.close();
    await site.close();
  });
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'agentsync-kb-url-'));
    await fetch(`${emu.origin}/__emulator/reset`, { method: 'POST' });
    await config({ kbProcessingMs: 300, kbFailUrls: [] });
    return () => rm(dir, { recursive: true, force: true });
  });

  it('validate → apply --wait → No changes; a changed glob updates it; --prune deletes it', async () => {
    await writeFile(join(dir, 'agents.yaml'), manifest(site.origin, [`${site.origin}/blog/**`, '**/changelog*']));
    const valid = await cli(['validate']);
    expect(valid.code, valid.stderr).toBe(0);

    const applied = await cli(['apply', '--auto-approve', '--wait']);
    expect(applied.code, applied.stderr).toBe(0);
    expect(applied.stdout).toContain('created website.docs');
    // 131 URLs indexed (130 docs + the front page), the blog and the changelog skipped.
    expect(applied.stdout).toMatch(/Indexing complete: 131 processed, 0 failed/);
    const websiteId = (await state()).resources['website.docs']?.remoteId;
    expect(websiteId).toMatch(/^[0-9a-f-]{36}$/);
    // Every page was read: 137 URLs are two pages of 100, following meta.next.
    const pages = (await requests()).filter((r) => r.method === 'GET' && r.path.includes('/discovered-urls'));
    expect(pages.some((r) => r.path.includes('cursor='))).toBe(true);
    const processed = (await requests()).filter((r) => r.path.endsWith('/discovered-urls/process'));
    expect((processed[0]?.body as { exclude: string[] }).exclude).toHaveLength(6);

    const plan = await cli(['plan']);
    expect(plan.code, plan.stderr).toBe(0);
    expect(plan.stdout).toContain('No changes.');
    expect(plan.stdout).toMatch(/website\.docs: 137 URLs, 6 excluded/);
    expect(plan.stdout).toMatch(/"\*\*\/changelog\*"\s+excludes 1/);
    const json = JSON.parse((await cli(['plan', '--json'])).stdout) as { websites: { address: string; urls: number; globs: { glob: string; excludes: number }[] }[] };
    expect(json.websites[0]).toMatchObject({ address: 'website.docs', urls: 137, excluded: 6 });
    expect(json.websites[0]?.globs).toContainEqual({ glob: `${site.origin}/blog/**`, excludes: 5 });

    // A glob that matches nothing is a warning; a changed exclude is an update that processes again.
    await writeFile(join(dir, 'agents.yaml'), manifest(site.origin, [`${site.origin}/docs/page-1*`, '**/nothing-here']));
    const changed = await cli(['plan']);
    expect(changed.stdout).toContain('~ website.docs');
    expect(changed.stdout).toContain('Warning: website.docs: exclude glob "**/nothing-here" matches none of its 137 discovered URLs');
    const updated = await cli(['apply', '--auto-approve']);
    expect(updated.code, updated.stderr).toBe(0);
    const lastProcess = (await requests()).filter((r) => r.path.endsWith('/discovered-urls/process')).at(-1);
    // page-1, page-10..19, page-100..129: 41 URLs.
    expect((lastProcess?.body as { exclude: string[] }).exclude).toHaveLength(41);
    expect((await cli(['plan'])).stdout).toContain('No changes.');

    // --prune deletes the website on the server.
    await writeFile(join(dir, 'agents.yaml'), 'version: 1\nenvironments:\n  local: { appId: local, region: us }\n');
    const pruned = await cli(['apply', '--auto-approve', '--prune']);
    expect(pruned.code, pruned.stderr).toBe(0);
    expect((await requests()).some((r) => r.method === 'DELETE' && r.path.endsWith(`/knowledge-base/website/${websiteId}`))).toBe(true);
    const gone = await fetch(`${emu.url}/ai-agents/agent-builder/knowledge-base/website/${websiteId}/discovered-urls`, { headers: { apikey: KEY } });
    expect(gone.status).toBe(404);
    expect((await state()).resources['website.docs']).toBeUndefined();
  });

  it('a website deleted on the server is drift, and the plan creates it again', async () => {
    await writeFile(join(dir, 'agents.yaml'), manifest(site.origin, []));
    expect((await cli(['apply', '--auto-approve'])).code).toBe(0);
    const id = (await state()).resources['website.docs']?.remoteId ?? '';
    await fetch(`${emu.url}/ai-agents/agent-builder/knowledge-base/website/${id}`, { method: 'DELETE', headers: { apikey: KEY } });
    const plan = await cli(['plan', '--json']);
    const parsed = JSON.parse(plan.stdout) as { drift: { address: string; kind: string }[]; changes: { address: string; action: string }[] };
    expect(parsed.drift).toEqual([expect.objectContaining({ address: 'website.docs', kind: 'deleted' })]);
    expect(parsed.changes).toContainEqual(expect.objectContaining({ address: 'website.docs', action: 'create' }));
  });

  it('lists failed URLs and exits 1; progress is one plain line per interval off a terminal; kb status names the glob', async () => {
    await config({ kbFailUrls: ['**/docs/page-7'], kbProcessingMs: 600 });
    await writeFile(join(dir, 'agents.yaml'), manifest(site.origin, ['**/changelog*']));
    const applied = await cli(['apply', '--auto-approve', '--wait'], { AGENTSYNC_KB_PROGRESS_INTERVAL_MS: '200' });
    expect(applied.code).toBe(1);
    const lines = applied.stdout.split('\n').filter((line) => line.startsWith('Indexing: '));
    expect(lines.length).toBeGreaterThanOrEqual(2);
    expect(applied.stdout).not.toContain('\r');
    expect(applied.stdout).toContain('Failed URLs (1):');
    expect(applied.stdout).toContain(`  website.docs  ${site.origin}/docs/page-7`);
    expect(applied.stderr).toContain('indexing finished with 1 failed URL');
    // The apply itself is recorded.
    expect((await cli(['plan'])).stdout).toContain('No changes.');

    const status = await cli(['kb', 'status', 'website.docs', '--urls']);
    expect(status.code, status.stderr).toBe(0);
    expect(status.stdout).toMatch(/website\.docs: 137 URLs \(0 discovered, 0 processing, 135 processed, 1 failed, 1 skipped\)/);
    expect(status.stdout).toMatch(/skipped\s+http:\/\/127\.0\.0\.1:\d+\/changelog {2}excluded by "\*\*\/changelog\*"/);
    const asJson = JSON.parse((await cli(['kb', 'status', '--json'])).stdout) as { websites: { counts: Record<string, number> }[] };
    expect(asJson.websites[0]?.counts).toMatchObject({ processed: 135, failed: 1, skipped: 1 });
    const bad = await cli(['kb', 'status', 'website.nope']);
    expect(bad.code).toBe(1);
    expect(bad.stderr.trim().split('\n')).toEqual(['Error: website.nope is not in the state: the state has website.docs']);
  });

  it('--wait-timeout stops waiting with a clear message, exit 1, and the state intact', async () => {
    await config({ kbProcessingMs: 60_000 });
    await writeFile(join(dir, 'agents.yaml'), manifest(site.origin, []));
    const applied = await cli(['apply', '--auto-approve', '--wait', '--wait-timeout', '1']);
    expect(applied.code).toBe(1);
    expect(applied.stdout).toMatch(/Indexing not finished after 1s \(--wait-timeout\): \d+ processed, 0 failed, \d+ remaining/);
    expect(applied.stderr).toContain('indexing did not finish within --wait-timeout 1s');
    expect((await state()).resources['website.docs']?.remoteId).toBeTruthy();
    expect((await cli(['plan'])).stdout).toContain('No changes.');
    const bad = await cli(['apply', '--auto-approve', '--wait', '--wait-timeout', 'soon']);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain('--wait-timeout');
  });
});
