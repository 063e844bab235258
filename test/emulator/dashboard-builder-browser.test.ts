/// <reference lib="dom" />
// The dashboard's Agent Builder view and the knowledge base's text entries and files, in Debian's
// Chromium driven by playwright-core, against emulators in this process. The records are made
// through the real API (and a real PUT to the presigned URL); an attached id whose source no longer
// exists comes from a data file edited between two runs, the only way a server ends up with one.
// AGENTSYNC_DASHBOARD_SCREENSHOTS=1 also writes docs/dashboard-builder.png.
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EmulatorData } from '../../src/emulator/store.js';
import { ROOT } from '../support/cli.js';
import { startTestEmulator, type TestEmulator } from '../support/emulator.js';
import { attach, createAgent, createText, initiate, PDF, putBytes } from './builder-helpers.js';
import { rawRequest } from './helpers.js';

const CHROMIUM = [process.env.AGENTSYNC_CHROMIUM, '/usr/bin/chromium', '/usr/bin/chromium-headless-shell'].find((path) => path !== undefined && path !== '' && existsSync(path));
const SCREENSHOTS = process.env.AGENTSYNC_DASHBOARD_SCREENSHOTS === '1';
/** Long enough that nothing finishes indexing until a test moves the emulator's clock. */
const PROCESSING_MS = 600_000;
/** Every server string is untrusted: one that would run script if it were put in the page as HTML. */
const HOSTILE_TITLE = '<img src=x onerror="window.__pwned=1">Refund policy';
const HOSTILE_AGENT = 'Helper <script>window.__pwned=2</script>';

const TITLE =
  CHROMIUM === undefined ? 'the Agent Builder dashboard in Chromium (skipped: no Chromium at /usr/bin/chromium; .ci/run installs it)' : `the Agent Builder dashboard in Chromium (${CHROMIUM})`;

interface Made {
  concierge: string;
  helper: string;
  refunds: string;
  faq: string;
  handbook: string;
  lost: string;
}

/** Agents, text entries, two uploads (one never PUT) and a website, attached through the API. */
async function makeRecords(emu: TestEmulator): Promise<Made> {
  const concierge = await createAgent(emu, { name: 'Concierge', description: 'Answers questions about orders', model: 'gpt-4o', isActive: false });
  const helper = await createAgent(emu, { name: HOSTILE_AGENT });
  const refunds = await createText(emu, HOSTILE_TITLE, 'Refunds within 30 days.\n');
  const faq = await createText(emu, 'FAQ', 'Q. A.');
  const bytes = Buffer.from('%PDF-1.4 handbook');
  const [handbook, lost] = await initiate(emu, [
    { fileName: 'handbook.pdf', mimeType: PDF, fileSize: bytes.length },
    { fileName: 'lost.pdf', mimeType: PDF, fileSize: 10 },
  ]);
  if (!handbook || !lost) throw new Error('initiate answered fewer uploads than asked');
  expect((await putBytes(handbook, bytes)).status).toBe(200);
  await emu.admin('POST', '/kb/websites', { count: 2, url: 'https://docs.example.com', parentUniqueId: 'web_docs', status: 'processed' });
  for (const [uid, type, ids] of [
    [concierge.uid, 'text', [refunds.uniqueId, faq.uniqueId]],
    [concierge.uid, 'uploads', [handbook.uploadId, lost.uploadId]],
    [concierge.uid, 'website', ['web_docs']],
    [helper.uid, 'text', [refunds.uniqueId]],
  ] as const) {
    const reply = await attach(emu, uid, type, 'add', ids);
    expect(reply.status, JSON.stringify(reply.json)).toBe(200);
  }
  return { concierge: concierge.uid, helper: helper.uid, refunds: refunds.uniqueId, faq: faq.uniqueId, handbook: handbook.uploadId, lost: lost.uploadId };
}

describe.skipIf(CHROMIUM === undefined)(TITLE, () => {
  let emulator: TestEmulator;
  let browser: Browser;
  let page: Page;
  let dir: string;
  let made: Made;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'agentsync-dashboard-builder-'));
    const dataFile = join(dir, 'emulator.json');
    const first = await startTestEmulator({ dataFile, kb: { kbProcessingMs: PROCESSING_MS } });
    made = await makeRecords(first);
    await first.close();
    // The FAQ entry vanishes behind the server's back: Concierge still holds its id.
    const data = JSON.parse(await readFile(dataFile, 'utf8')) as EmulatorData;
    data.kbTexts = (data.kbTexts ?? []).filter((text) => text.uniqueId !== made.faq);
    await writeFile(dataFile, JSON.stringify(data));
    emulator = await startTestEmulator({ dataFile, kb: { kbProcessingMs: PROCESSING_MS } });
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    });
    page = await browser.newPage({ viewport: { width: 1200, height: 800 } });
    page.setDefaultTimeout(15_000);
  });

  afterAll(async () => {
    await browser?.close();
    await emulator?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it("shows each Agent Builder agent's name, model, active and description, and its knowledge named by what it is, with status; a vanished id is shown as such", async () => {
    await page.goto(`${emulator.dashboardUrl}#builder`);
    const summary = page.getByRole('table', { name: /^Agent Builder agents: 2$/ });
    await summary.waitFor();
    const row = summary.locator(`tr[data-builder-agent="${made.concierge}"]`);
    expect(await row.locator('th, td').allTextContents()).toEqual(['Concierge', 'gpt-4o', 'no', 'Answers questions about orders', '5 attached']);
    // Newest first, as the API lists them; the defaults the server filled in show as stored.
    expect(await summary.locator('tbody th').allTextContents()).toEqual([HOSTILE_AGENT, 'Concierge']);
    expect(await summary.locator(`tr[data-builder-agent="${made.helper}"] td`).allTextContents()).toEqual(['gpt-4o-mini', 'yes', '', '1 attached']);

    const knowledge = page.getByRole('table', { name: 'Knowledge of agent Concierge: 5 attached' });
    const rows = async (): Promise<string[][]> => Promise.all((await knowledge.locator('tbody tr').all()).map((tr) => tr.locator('th, td').allTextContents()));
    expect(await rows()).toEqual([
      [HOSTILE_TITLE, 'Text entry', 'indexing', made.refunds],
      [made.faq, 'Unknown id', 'no longer exists', made.faq],
      ['handbook.pdf', 'File', 'indexing', made.handbook],
      ['lost.pdf', 'File', 'waiting for bytes', made.lost],
      ['https://docs.example.com', 'Website', 'indexed', 'web_docs'],
    ]);
    expect(await knowledge.locator(`tr[data-source="${made.faq}"] td`).nth(1).getAttribute('class')).toBe('s-no-longer-exists');
    // Indexing finishes by itself: the page polls, nothing reloads it.
    await emulator.admin('POST', '/clock', { advanceMs: PROCESSING_MS });
    await knowledge.locator(`tr[data-source="${made.handbook}"] td`, { hasText: /^indexed$/ }).waitFor();
    expect(await knowledge.locator(`tr[data-source="${made.refunds}"] td`).nth(1).textContent()).toBe('indexed');
    expect(await knowledge.locator(`tr[data-source="${made.lost}"] td`).nth(1).textContent()).toBe('waiting for bytes');
    if (SCREENSHOTS) await page.screenshot({ path: join(ROOT, 'docs', 'dashboard-builder.png'), fullPage: false });
  });

  it('lists text entries and files with their status, length, size and type, "waiting for bytes", and the agents each is attached to', async () => {
    await page.goto(`${emulator.dashboardUrl}#kb`);
    const texts = page.getByRole('table', { name: 'Text entries: 1' });
    await texts.waitFor();
    expect(await texts.locator(`tr[data-text="${made.refunds}"]`).locator('th, td').allTextContents()).toEqual([
      HOSTILE_TITLE,
      'img-src-x-onerror-window-pwned-1-refund-policy.md',
      'indexed',
      '24 characters',
      `${HOSTILE_AGENT}, Concierge`,
    ]);
    const files = page.getByRole('table', { name: 'Files: 2' });
    expect(await files.locator(`tr[data-upload="${made.handbook}"]`).locator('th, td').allTextContents()).toEqual(['handbook.pdf', '17 bytes', PDF, 'indexed', 'Concierge']);
    const lost = files.locator(`tr[data-upload="${made.lost}"]`);
    expect(await lost.locator('td').nth(2).textContent()).toMatch(/^waiting for bytes.*never came/);
    const site = page.locator('article[data-website="web_docs"]');
    expect(await site.locator('.attached').textContent()).toBe('Attached to: Concierge');
    // An agent's name links to its card in the Agent Builder view, and a source back to its row here.
    await texts.getByRole('link', { name: HOSTILE_AGENT }).click();
    await page.getByRole('table', { name: `Knowledge of agent ${HOSTILE_AGENT}: 1 attached` }).waitFor();
    expect(await page.evaluate(() => document.activeElement?.id)).toBe(`builder-agent-${made.helper}`);
    await page
      .getByRole('table', { name: `Knowledge of agent ${HOSTILE_AGENT}: 1 attached` })
      .getByRole('link', { name: HOSTILE_TITLE })
      .click();
    await texts.waitFor();
    expect(await page.evaluate(() => document.activeElement?.id)).toBe(`source-${made.refunds}`);
  });

  it('puts every server string in the page as text: a title with <img onerror> and an agent named with <script> run nothing', async () => {
    for (const view of ['builder', 'kb']) {
      await page.goto(`${emulator.dashboardUrl}#${view}`);
      await page.locator(`#view-${view} table`).first().waitFor();
      const found = await page.evaluate(
        (id) => ({
          pwned: (window as unknown as { __pwned?: number }).__pwned,
          images: document.querySelectorAll(`#view-${id} img`).length,
          scripts: document.querySelectorAll(`#view-${id} script`).length,
        }),
        view,
      );
      expect(found).toEqual({ pwned: undefined, images: 0, scripts: 0 });
      expect(await page.locator(`#view-${view}`).textContent()).toContain(view === 'kb' ? HOSTILE_TITLE : HOSTILE_AGENT);
    }
  });

  it('has semantic tables: a caption, column headers with scope, and a row header per row', async () => {
    for (const view of ['builder', 'kb']) {
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

  it('keeps the poll bounded: 205 text entries show the newest 200, and the poll carries no text body', async () => {
    for (let i = 0; i < 204; i++) await createText(emulator, `Entry ${i}`, `body-${i}-`.padEnd(4000, 'x'));
    await page.goto(`${emulator.dashboardUrl}#kb`);
    const texts = page.getByRole('table', { name: 'Text entries: 205 (first 200 of 205)' });
    await texts.waitFor();
    expect(await texts.locator('tbody tr').count()).toBe(200);
    expect(await texts.locator('tbody th').first().textContent()).toBe('Entry 203');
    const token = (await page.locator('meta[name="agentsync-token"]').getAttribute('content')) ?? '';
    const reply = await rawRequest(emulator.origin, { method: 'GET', path: '/__dashboard/api/kb', headers: { 'x-agentsync-token': token } });
    expect(reply.status).toBe(200);
    expect(reply.text).not.toContain('body-1-');
    // 200 entries of at most a few hundred characters each, not 205 × 4,000 characters of text.
    expect(reply.text.length).toBeLessThan(150_000);
  });

  it("refuses the new endpoints without the page's token, from another origin, and under a Host that is not the emulator's", async () => {
    const token = (await page.locator('meta[name="agentsync-token"]').getAttribute('content')) ?? '';
    const host = `127.0.0.1:${emulator.port}`;
    for (const path of ['/__dashboard/api/builder-agents', '/__dashboard/api/kb']) {
      const get = (headers: Record<string, string>) => rawRequest(emulator.origin, { method: 'GET', path, headers: { host, ...headers } });
      expect((await get({ 'x-agentsync-token': token })).status).toBe(200);
      expect((await get({})).status).toBe(403);
      expect((await get({ 'x-agentsync-token': token, origin: 'http://evil.example' })).status).toBe(403);
      expect((await get({ 'x-agentsync-token': token, host: `rebound.attacker.test:${emulator.port}` })).status).toBe(403);
    }
  });
});
