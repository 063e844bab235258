// `agentsync kb sync`: one line per website saying what was sent again. JSON is the same data.
import type { KbSyncResult } from '../app/kb-sync.js';
import { countOf } from '../core/plural.js';
import { printableText } from './plan-fields.js';

export function renderKbSyncText(websites: readonly KbSyncResult[], failedOnly: boolean): string {
  if (websites.length === 0) return 'No websites in the state.\n';
  const lines = websites.map((site) => {
    const address = printableText(site.address);
    if (site.mode === 'reindex') return `${address}: re-indexing the whole source (${countOf(site.urls, 'URL')} not excluded).`;
    if (site.calls === 0) return `${address}: ${failedOnly ? 'no failed URLs' : 'no URLs left after the excludes'}; nothing sent.`;
    return `${address}: processing ${countOf(site.urls, failedOnly ? 'failed URL' : 'URL')} again (${countOf(site.calls, 'sync call')}).`;
  });
  return lines.join('\n') + '\n';
}

export function kbSyncToJson(websites: readonly KbSyncResult[]): string {
  return JSON.stringify({ websites }, null, 2) + '\n';
}
