/// <reference lib="dom" />
// The dashboard in a real browser: Debian's Chromium, driven by playwright-core, against the
// emulator in this process. One browser for the whole file (a launch costs about a second). The
// demo manifest is applied with the real CLI (in-process), edited in the page, and planned again.
// AGENTSYNC_DASHBOARD_SCREENSHOTS=1 also writes docs/dashboard-*.png (the README links them).
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AgentRecord } from '../../src/core/api-types.js';
import { ROOT, runCli } from '../support/cli.js';
import { API_KEY, startTestEmulator, type TestEmulator } from '../support/emulator.js';

const CHROMIUM = [process.env.AGENTSYNC_CHROMIUM, '/usr/bin/chromium', '/usr/bin/chromium-headless-shell'].find((path) => path !== undefined && path !== '' && existsSync(path));
const SCREENSHOTS = process.env.AGENTSYNC_DASHBOARD_SCREENSHOTS === '1';
/** A name Chromium resolves to 127.0.0.1, as a DNS-rebinding attacker's name would. */
const REBOUND = 'rebound.attacker.test';

const TITLE = CHROMIUM === undefined ? 'the emulator dashboard in Chromium (skipped: no Chromium at /usr/bin/chromium; .ci/run installs it)' : `the emulator dashboard in Chromium (${CHROMIUM})`;

describe.skipIf(CHROMIUM === undefined)(TITLE, () => {
  let emulator: TestEmulator;
  let browser: Browser;
  let page: Page;
  let stateDir: string;
  let otherSite: Server;
  let otherOrigin: string;

  const cli = (...args: string[]) =>
    runCli([...args, '--file', 'agents.yaml', '--env', 'local', '--state', join(stateDir, 'local.state.json')], {
      cwd: ROOT,
      env: { COMETCHAT_API_KEY: API_KEY, AGENTSYNC_BASE_URL: emulator.url, NO_COLOR: '1' },
    });
  const shot = async (name: string): Promise<void> => {
    if (SCREENSHOTS) await page.screenshot({ path: join(ROOT, 'docs', `dashboard-${name}.png`), fullPage: false });
  };

  beforeAll(async () => {
    emulator = await startTestEmulator({ kb: { kbProcessingMs: 1500 } });
    stateDir = await mkdtemp(join(tmpdir(), 'agentsync-dashboard-'));
    // Another site on this machine: the page a developer might visit while the emulator runs.
    otherSite = createServer((_req, res) => res.end('<!doctype html><title>elsewhere</title><p>another site</p>'));
    await new Promise<void>((resolve) => otherSite.listen(0, '127.0.0.1', resolve));
    otherOrigin = `http://localhost:${(otherSite.address() as AddressInfo).port}`;
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        `--host-resolver-rules=MAP ${REBOUND} 127.0.0.1`,
      ],
    });
    page = await browser.newPage({ viewport: { width: 1200, height: 800 } });
    page.setDefaultTimeout(15_000);
    const applied = await cli('apply', '--auto-approve', '--wait');
    expect(applied.stderr).toBe('');
    expect(applied.code).toBe(0);
  });

  afterAll(async () => {
    await browser?.close();
    await new Promise((resolve) => otherSite?.close(resolve));
    await emulator?.close();
    if (stateDir) await rm(stateDir, { recursive: true, force: true });
  });

  it('shows the applied agents, each with its tools linked and every stored field (_id, __v, filled defaults)', async () => {
    const agents = await emulator.get<AgentRecord[]>('/ai-agents/agents');
    expect(agents.length).toBeGreaterThan(0);
    const started = performance.now();
    await page.goto(emulator.dashboardUrl);
    const overview = page.getByRole('table', { name: /^Agents: / });
    await overview.waitFor();
    // For BENCHMARKS.md: the browser's first contentful paint, and when the agents' table was drawn.
    const [fcp, drawn] = await page.evaluate(() => [performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? -1, performance.now()]);
    console.log(
      `dashboard, demo data: first contentful paint ${Math.round(fcp ?? -1)} ms, agents table by ${Math.round(drawn ?? -1)} ms in the page, ${Math.round(performance.now() - started)} ms from goto`,
    );
    for (const agent of agents) {
      await expect(overview.getByRole('rowheader', { name: agent.name, exact: true }).count()).resolves.toBe(1);
      const fields = page.getByRole('table', { name: `Fields of agent ${agent.name}, as the server stores them` });
      // Every stored field has a row, defaults the server filled in included.
      for (const field of Object.keys(agent)) await expect(fields.locator(`tr[data-field="${field}"]`).count()).resolves.toBe(1);
      for (const tool of agent.tools) {
        const link = fields.locator('tr[data-field="tools"] a', { hasText: tool });
        expect(await link.getAttribute('href')).toBe(`#tool-${tool}`);
      }
      // The overview's row names its tools and actions as links, in words, as the server lists them.
      const row = overview.getByRole('row').filter({ has: page.getByRole('rowheader', { name: agent.name, exact: true }) });
      const names = [...agent.tools, ...agent.actions];
      expect(await row.getByRole('link').allTextContents()).toEqual(expect.arrayContaining(names));
      expect(await row.textContent()).not.toContain('http');
    }
    const tool = page.getByRole('table', { name: /^Fields of action get_order_status/ });
    expect(await tool.locator('tr[data-field="_id"] td').first().textContent()).toBe('local_get_order_status');
    expect(await tool.locator('tr[data-field="__v"] td').first().textContent()).toMatch(/^\d+$/);
    await shot('agents');
  });

  it("edits an agent's instruction in the page, and plan reports drift on instruction alone", async () => {
    const [agent] = await emulator.get<AgentRecord[]>('/ai-agents/agents');
    if (!agent) throw new Error('the demo applied no agent');
    const before = await cli('plan', '--detailed-exitcode');
    expect(before.code).toBe(0);
    await page.goto(`${emulator.dashboardUrl}#agent-${agent.uid}`);
    const fields = page.getByRole('table', { name: `Fields of agent ${agent.name}, as the server stores them` });
    await fields.getByRole('button', { name: 'Edit instruction' }).click();
    await page.getByLabel('New instruction').fill('Answer in pirate speak.');
    await page.getByRole('button', { name: 'Save' }).click();
    await expect(page.getByRole('status').textContent()).resolves.toBeTruthy();
    await page.getByRole('status').filter({ hasText: 'Saved instruction' }).waitFor();
    await fields.locator('tr[data-field="instruction"] td', { hasText: 'Answer in pirate speak.' }).waitFor();
    await shot('edit');
    const after = await cli('plan', '--detailed-exitcode', '--json');
    expect(after.code).toBe(2);
    const plan = JSON.parse(after.stdout) as { drift: { address: string; fields: { path: string }[] }[]; changes: { address: string; action: string; fields: { path: string }[] }[] };
    const address = plan.drift[0]?.address;
    expect(plan.drift.map((d) => [d.address, d.fields.map((f) => f.path)])).toEqual([[address, ['instruction']]]);
    const updates = plan.changes.filter((change) => change.action !== 'no-op');
    expect(updates.map((u) => [u.address, u.action, u.fields.map((f) => f.path)])).toEqual([[address, 'update', ['instruction']]]);
    expect(after.stdout).toContain('Answer in pirate speak.');
  });

  it("watches a website's indexing reach processed, by itself", async () => {
    // A website whose 12 discovered URLs nothing has indexed yet.
    await emulator.admin('POST', '/kb/websites', { count: 12, url: 'https://watch.example.com', parentUniqueId: 'web_watch' });
    await page.goto(`${emulator.dashboardUrl}#kb`);
    const site = page.locator('article[data-website="web_watch"]');
    await site.waitFor();
    expect(await site.locator('progress').getAttribute('value')).toBe('0');
    await site.getByRole('button', { name: /^Index the discovered URLs of/ }).click();
    await site.locator('.site-status', { hasText: 'indexing' }).waitFor();
    await shot('kb');
    await site.locator('.site-status', { hasText: 'indexed' }).waitFor({ timeout: 10_000 });
    const statuses = await site.getByRole('table').locator('tbody td:last-child').allTextContents();
    expect(statuses).toHaveLength(12);
    expect(new Set(statuses)).toEqual(new Set(['processed']));
    expect(await site.locator('progress').getAttribute('value')).toBe('12');
  });

  it('shows the request log live, filterable, with bodies and never the API key', async () => {
    await page.goto(`${emulator.dashboardUrl}#requests`);
    const log = page.getByRole('table', { name: /^API requests/ });
    await log.waitFor();
    await page.getByLabel('Method').selectOption('POST');
    await page.getByLabel('Path contains').fill('/ai-agents/agents');
    const rows = log.locator('tbody tr');
    await expect(rows.count()).resolves.toBeGreaterThan(0);
    for (const method of await rows.locator('td:nth-child(3)').allTextContents()) expect(method).toBe('POST');
    // The poll carries no bodies: opening one fetches it.
    await rows.first().locator('summary').click();
    await rows.first().locator('pre', { hasText: '"name"' }).waitFor();
    expect(JSON.parse((await rows.first().locator('pre').textContent()) ?? '')).toHaveProperty('name');
    // A request made now shows up without a reload.
    await emulator.call('GET', '/ai-agents/tools?type=tool');
    await page.getByLabel('Method').selectOption('GET');
    await page.getByLabel('Path contains').fill('type=tool');
    await log.locator('tbody tr').first().waitFor();
    expect(await page.content()).not.toContain(API_KEY);
    await page.getByLabel('Method').selectOption('');
    await page.getByLabel('Path contains').fill('');
    await shot('requests');
  });

  it('is driven from the keyboard, with semantic tables, and sets a knob', async () => {
    await page.goto(emulator.dashboardUrl);
    await page.getByRole('table', { name: /^Agents: / }).waitFor();
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Skip to the view');
    const reached: string[] = [];
    for (let i = 0; i < 5; i++) {
      await page.keyboard.press('Tab');
      reached.push((await page.evaluate(() => document.activeElement?.textContent)) ?? '');
    }
    expect(reached).toEqual(['Agents and tools', 'Agent Builder', 'Knowledge base', 'Request log', 'Knobs']);
    await page.keyboard.press('Enter');
    await page.locator('#knobs-form').waitFor();
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('h-knobs');
    expect(await page.getByRole('link', { name: 'Knobs' }).getAttribute('aria-current')).toBe('page');
    await page.getByLabel('latencyMs').fill('5');
    await page.getByLabel('latencyMs').press('Enter');
    await page.getByRole('status').filter({ hasText: 'Knobs applied: latencyMs.' }).waitFor();
    expect(((await emulator.admin('GET', '/config')).json as { latencyMs: number }).latencyMs).toBe(5);
    await emulator.configure({ latencyMs: 0 });
    await shot('knobs');
    // Every table, on every view: a caption, column headers with scope, and a row header per row.
    for (const view of ['resources', 'kb', 'requests']) {
      await page.goto(`${emulator.dashboardUrl}#${view}`);
      await page.locator(`#view-${view} table`).first().waitFor();
      const problems = await page.evaluate((id) => {
        const found: string[] = [];
        for (const table of document.querySelectorAll(`#view-${id} table`)) {
          if (!table.querySelector('caption')?.textContent) found.push('a table without a caption');
          for (const th of table.querySelectorAll('thead th')) if (th.getAttribute('scope') !== 'col') found.push(`column header ${th.textContent} without scope`);
          for (const row of table.querySelectorAll('tbody tr')) if (!row.querySelector('th[scope="row"]')) found.push(`a row without a row header in ${table.querySelector('caption')?.textContent}`);
        }
        return found;
      }, view);
      expect(problems).toEqual([]);
    }
  });

  it("lists the summaries first (agents, then a tools table), agent details before tool details, the client's records before the seed's, and marks seed data", async () => {
    await page.goto(emulator.dashboardUrl);
    const tools = page.getByRole('table', { name: /^Tools and actions: / });
    await tools.waitFor();
    const stored = await emulator.get<{ name: string; type: string }[]>('/ai-agents/tools');
    const names = (await tools.locator('tbody th').allTextContents()).map((text) => text.replace(' (seed data)', ''));
    expect(new Set(names)).toEqual(new Set(stored.map((tool) => tool.name)));
    // search_web is the seed's: last, and marked, in the table and on its card.
    expect(await tools.locator('tbody th').last().textContent()).toBe('search_web (seed data)');
    expect(await tools.locator('tbody th').filter({ hasText: 'seed data' }).count()).toBe(1);
    expect(await page.locator('#tool-h-search_web').textContent()).toBe('Tool search_web (seed data)');
    // Every agent's card comes before the first tool's card.
    const order = await page.evaluate(() => [...document.querySelectorAll('#view-resources article')].map((article) => article.id.split('-')[0]));
    expect(order.indexOf('tool')).toBeGreaterThan(order.lastIndexOf('agent'));
    expect(order.filter((kind) => kind === 'agent').length).toBeGreaterThan(0);
  });

  it('shows edit feedback beside the field and in a toast that stays in view, naming the agent by its name', async () => {
    const [agent] = await emulator.get<AgentRecord[]>('/ai-agents/agents');
    if (!agent) throw new Error('the demo applied no agent');
    await page.goto(`${emulator.dashboardUrl}#tool-search_web`);
    const fields = page.getByRole('table', { name: /^Fields of tool search_web/ });
    await fields.waitFor();
    // Far down a long page: the top of the page is out of view.
    await fields.getByRole('button', { name: 'Edit doNotExecute' }).click();
    const scrolled = await page.evaluate(() => window.scrollY);
    expect(scrolled).toBeGreaterThan(800);
    await page.getByLabel('New doNotExecute (JSON)').fill('{ not json');
    await page.getByRole('button', { name: 'Save' }).click();
    const beside = fields.getByRole('alert');
    await beside.filter({ hasText: 'is not valid JSON' }).waitFor();
    const toast = page.getByRole('status');
    await toast.filter({ hasText: 'is not valid JSON' }).waitFor();
    const inView = async (locator: typeof toast): Promise<boolean> => {
      const box = await locator.boundingBox();
      return box !== null && box.y >= 0 && box.y + box.height <= 800;
    };
    expect(await inView(beside)).toBe(true);
    expect(await inView(toast)).toBe(true);
    // The form stays open, with what was typed, to correct it.
    expect(await page.getByLabel('New doNotExecute (JSON)').inputValue()).toBe('{ not json');
    await page.getByRole('button', { name: 'Cancel' }).click();

    await page.goto(`${emulator.dashboardUrl}#agent-${agent.uid}`);
    const agentFields = page.getByRole('table', { name: `Fields of agent ${agent.name}, as the server stores them` });
    await agentFields.getByRole('button', { name: 'Edit instruction' }).click();
    await page.getByLabel('New instruction').fill('Answer in pirate speak, briefly.');
    await page.getByRole('button', { name: 'Save' }).click();
    await toast.filter({ hasText: `Saved instruction of agent ${agent.name}.` }).waitFor();
    expect(await toast.textContent()).not.toContain(agent.uid);
    expect(await inView(toast)).toBe(true);
  });

  it('logs API requests only (the favicon is served, not a red 404) and marks the PUT probes before a create as expected', async () => {
    await emulator.clearRequests();
    // Three loads of the page, each of which asks for /favicon.ico.
    await page.goto(`${emulator.dashboardUrl}#requests`);
    for (let i = 0; i < 2; i++) await page.reload();
    const log = page.getByRole('table', { name: /^API requests/ });
    await log.waitFor();
    expect(await emulator.requests()).toEqual([]);
    expect(await page.evaluate(async () => (await fetch('/favicon.ico')).status)).toBe(200);
    // A tool applied now: the CLI probes it with a PUT, gets a 404, then creates it with POST.
    const tool = { name: 'probed_tool', displayName: 'Probed', executionText: 'x', description: 'd', parameters: {} };
    expect((await emulator.call('PUT', '/ai-agents/tools/probed_tool', tool)).status).toBe(404);
    expect((await emulator.createTool(tool)).status).toBeLessThan(300);
    const statusFilter = page.locator('#filters').getByLabel('Status');
    await statusFilter.fill('4xx');
    const rows = log.locator('tbody tr');
    await rows.first().waitFor();
    expect(await rows.count()).toBe(1);
    const status = rows.first().locator('td:nth-child(5)');
    expect(await status.textContent()).toBe('404 (expected)a PUT that probes for a tool before creating it with POST');
    expect(await status.getAttribute('class')).toBe('st-expected');
    expect(await log.getByText('favicon').count()).toBe(0);
    await statusFilter.fill('');
  });

  it('counts skipped URLs as done: an indexed website with excluded URLs shows a full bar and says how many were skipped', async () => {
    const process = await emulator.call('POST', '/ai-agents/agent-builder/knowledge-base/website/web_blog/discovered-urls/process', { exclude: ['blog_2'] });
    expect(process.status).toBeLessThan(300);
    await emulator.admin('POST', '/clock', { advanceMs: 60_000 });
    await page.goto(`${emulator.dashboardUrl}#kb`);
    const site = page.locator('article[data-website="web_blog"]');
    await site.locator('.site-status', { hasText: 'indexed' }).waitFor();
    expect(await site.locator('.progress-label').textContent()).toBe('Done 3 of 3: 2 indexed, 1 skipped ');
    expect([await site.locator('progress').getAttribute('value'), await site.locator('progress').getAttribute('max')]).toEqual(['3', '3']);
  });

  it('describes every knob in one line beside it', async () => {
    await page.goto(`${emulator.dashboardUrl}#knobs`);
    await page.locator('#knobs-form').waitFor();
    const config = (await emulator.admin('GET', '/config')).json as Record<string, unknown>;
    for (const key of Object.keys(config)) {
      const input = page.getByLabel(key, { exact: true });
      const described = await input.getAttribute('aria-describedby');
      const help = (await page.locator(`[id="${described ?? ''}"]`).textContent()) ?? '';
      expect(help.length, key).toBeGreaterThan(15);
      expect(help.length, key).toBeLessThan(100);
    }
  });

  it("refuses a write from another site, a request without the page's token, and a DNS-rebound Host", async () => {
    const agentsBefore = await emulator.get<AgentRecord[]>('/ai-agents/agents');
    await page.goto(otherOrigin);
    const target = emulator.origin;
    const [agent] = agentsBefore;
    if (!agent) throw new Error('no agent');
    // From another origin, the browser sends what it may: simple requests in no-cors mode, and a CORS request with the token header.
    const outcomes = await page.evaluate(
      async ({ origin, uid }) => {
        const tried: string[] = [];
        const attempt = async (label: string, url: string, init: RequestInit): Promise<void> => {
          try {
            const response = await fetch(url, init);
            tried.push(`${label}: ${response.type} ${response.status}`);
          } catch {
            tried.push(`${label}: blocked`);
          }
        };
        await attempt('reset', `${origin}/__emulator/reset`, { method: 'POST', mode: 'no-cors' });
        await attempt('patch', `${origin}/__dashboard/api/agents/${uid}`, {
          method: 'PATCH',
          headers: { 'content-type': 'application/json', 'x-agentsync-token': 'guess' },
          body: JSON.stringify({ field: 'name', value: 'pwned' }),
        });
        await attempt('config', `${origin}/__dashboard/api/config`, { method: 'POST', mode: 'no-cors', body: '{"failRate":1}' });
        return tried;
      },
      { origin: target, uid: agent.uid },
    );
    expect(outcomes).toEqual(['reset: opaque 0', 'patch: blocked', 'config: opaque 0']);
    expect(await emulator.get<AgentRecord[]>('/ai-agents/agents')).toEqual(agentsBefore);
    expect(((await emulator.admin('GET', '/config')).json as { failRate: number }).failRate).toBe(0);
    // What the server answered to each, seen from outside the browser.
    const status = (path: string, method: string, headers: Record<string, string>): Promise<number> =>
      new Promise((resolve, reject) => {
        const req = request(`${emulator.origin}${path}`, { method, headers }, (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        });
        req.on('error', reject);
        req.end();
      });
    expect(await status('/__emulator/reset', 'POST', { origin: otherOrigin })).toBe(403);
    expect(await status('/__emulator/reset', 'POST', { 'sec-fetch-site': 'cross-site' })).toBe(403);
    expect(await status(`/__dashboard/api/agents/${agent.uid}`, 'DELETE', {})).toBe(403);
    expect(await status('/', 'GET', { host: `${REBOUND}:${emulator.port}` })).toBe(403);
    expect(await status('/__emulator/config', 'GET', { host: `localhost:${emulator.port + 1}` })).toBe(403);
    // A rebound name in the browser itself: the page is refused, so its token is never handed out.
    const rebound = await page.goto(`http://${REBOUND}:${emulator.port}/`);
    expect(rebound?.status()).toBe(403);
    expect(await page.content()).not.toContain('agentsync-token');
    // The CLI sends no Origin: its calls, with the apikey, work as before.
    expect((await emulator.call('GET', '/ai-agents/tools')).status).toBe(200);
  });
});
