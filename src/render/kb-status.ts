// `agentsync kb status`: per website its URL counts by status; with --urls every URL, its status
// and what excluded it. JSON is the same data.
import type { KbSourceStatus } from '../app/kb-sources.js';
import type { KbWebsiteStatus } from '../app/kb-status.js';
import { maxOf } from '../core/arrays.js';
import { palette } from './color.js';
import { printableText } from './plan-fields.js';

export function renderKbStatusText(websites: readonly KbWebsiteStatus[], color: boolean, sources: readonly KbSourceStatus[] = []): string {
  const paint = palette(color);
  if (websites.length === 0 && sources.length === 0) return 'No websites in the state.\n';
  const out: string[] = [];
  for (const site of websites) {
    if (!site.found) {
      out.push(`${paint.bold(printableText(site.address))}: ${paint.yellow('deleted on the server (404)')}`, '');
      continue;
    }
    // Statuses are the server's words: any it sends beyond the reference's are counted under their own name.
    const counts = Object.entries(site.counts)
      .map(([status, n]) => `${n} ${printableText(status)}`)
      .join(', ');
    out.push(`${paint.bold(printableText(site.address))}: ${site.total} URL${site.total === 1 ? '' : 's'} (${counts})`);
    const times = [site.lastCrawledAt === undefined ? undefined : `last crawled ${site.lastCrawledAt}`, site.lastSyncedAt === undefined ? undefined : `last synced ${site.lastSyncedAt}`].filter(
      (t) => t !== undefined,
    );
    if (times.length > 0) out.push(paint.dim(`  ${times.join(', ')}`));
    for (const row of site.urls ?? []) {
      const excluded = row.excludedBy === undefined ? '' : paint.dim(`  excluded by ${row.excludedBy === 'id' ? 'its id' : printableText(JSON.stringify(row.excludedBy))}`);
      const twins = row.twins === undefined ? '' : ` (also listed as ${row.twins.map(printableText).join(', ')})`;
      out.push(`  ${printableText(row.status).padEnd(10)}  ${printableText(row.url)}${twins}${excluded}`);
    }
    out.push('');
  }
  appendSources(out, sources, paint);
  return out.join('\n');
}

/** One line per indexed source (text entries, uploads): its address and its status in the server's word. */
function appendSources(out: string[], sources: readonly KbSourceStatus[], paint: ReturnType<typeof palette>): void {
  if (sources.length === 0) return;
  const width = maxOf(sources.map((s) => printableText(s.address).length));
  for (const source of sources) {
    const status = source.status === undefined ? paint.yellow('not reported by the server (deleted?)') : source.status === 'failed' ? paint.red('failed') : printableText(source.status);
    out.push(`${paint.bold(printableText(source.address).padEnd(width))}  ${status}`);
  }
  out.push('');
}

/** `{websites}`, with `sources` only when there are any (a manifest of websites alone reads as it always did). */
export function kbStatusToJson(websites: readonly KbWebsiteStatus[], sources: readonly KbSourceStatus[] = []): string {
  return JSON.stringify(sources.length === 0 ? { websites } : { websites, sources }, null, 2) + '\n';
}
