// P11 knowledge-base refresh (docs/spec/knowledge-base.md#refresh-and-drift): `plan` reads every
// website's discovered URLs, one paged read per website, websites concurrently. 10 websites × 1,000
// URLs is 10 × 10 pages of 100. The floor is `plan --offline` plus those 100 pages fetched and
// parsed from this process the way plan must (each website's pages one after another, cursor by
// cursor; the websites in parallel): the refresh may add its network time, but little work of its
// own per URL.
import process from 'node:process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { URLSearchParams } from 'node:url';
import { applyArgs, emulatorEnv } from '../lib/cli.mjs';
import { EMULATOR_API_KEY, startEmulatorProcess } from '../lib/emulator.mjs';
import { expectExit, measure, median } from '../lib/measure.mjs';
import { notMeasuredRow, ratioRow } from '../lib/result.mjs';

const WEBSITES = 10;
const URLS = 1000;
const LIMIT = 1.5;

export async function benchKbRefresh(ctx) {
  if (!ctx.commands.has('kb')) {
    return [notMeasuredRow({ id: 'P11', scenario: 'P11 knowledge-base refresh', target: `≤ ${LIMIT}×`, reason: 'websites by URL not yet landed' })];
  }
  const emulator = await startEmulatorProcess(ctx.cli);
  try {
    const ids = [];
    for (let i = 0; i < WEBSITES; i++) {
      const seeded = await emulator.admin('/__emulator/kb/websites', { method: 'POST', body: JSON.stringify({ count: URLS, url: `https://site-${i}.example.com` }) });
      ids.push(seeded.parentUniqueId);
    }
    const dir = join(ctx.workDir, 'p11');
    mkdirSync(dir, { recursive: true });
    const file = join(dir, 'agents.yaml');
    const state = join(dir, 'state.json');
    const sites = ids.map((id, i) => `    site_${i}: { parentUniqueId: ${id}, exclude: [] }`).join('\n');
    writeFileSync(file, `version: 1\nenvironments:\n  local: { appId: local, region: us }\nknowledgeBase:\n  websites:\n${sites}\n`);
    const env = emulatorEnv(emulator);
    expectExit(await measure(process.execPath, applyArgs(ctx.cli, { file, state, concurrency: 10 }), { env }), 0, 'apply of 10 websites');
    const refreshed = [];
    const offline = [];
    const pages = [];
    for (let i = 0; i < ctx.runs; i++) {
      offline.push(expectExit(await measure(process.execPath, [ctx.cli, 'plan', '--offline', '-f', file, '--state', state], { env }), 0, 'plan --offline').ms);
      refreshed.push(expectExit(await measure(process.execPath, [ctx.cli, 'plan', '-f', file, '--state', state], { env }), 0, 'plan').ms);
      pages.push(await pagedReads(emulator.url, ids));
    }
    return [
      ratioRow({
        id: 'P11-10x1000',
        scenario: `P11 plan with refresh, ${WEBSITES} websites × ${URLS.toLocaleString('en-US')} discovered URLs, no changes`,
        unit: 'ms',
        samples: refreshed,
        baseline: median(offline) + median(pages),
        baselineLabel: `plan --offline + the ${WEBSITES} × ${URLS / 100} paged requests`,
        baselineSamples: offline.map((ms, i) => ms + (pages[i] ?? 0)),
        limit: LIMIT,
        notes: `the ${WEBSITES * (URLS / 100)} pages took ${Math.round(median(pages))} ms (fetched and parsed from this process, websites in parallel)`,
      }),
    ];
  } finally {
    await emulator.stop();
  }
}

/** Every website's pages, cursor by cursor, the websites in parallel: the network part of the refresh. */
async function pagedReads(url, ids) {
  const started = performance.now();
  await Promise.all(
    ids.map(async (id) => {
      let query = 'limit=100';
      for (;;) {
        const response = await globalThis.fetch(`${url}/ai-agents/agent-builder/knowledge-base/website/${id}/discovered-urls?${query}`, { headers: { apikey: EMULATOR_API_KEY } });
        const page = JSON.parse(await response.text());
        const next = page.meta?.next;
        if (!next?.cursor) return;
        query = new URLSearchParams({ limit: '100', cursor: next.cursor, affix: next.affix ?? 'append' }).toString();
      }
    }),
  );
  return performance.now() - started;
}
