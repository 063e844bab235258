// `agentsync kb sync`: one line per website saying what was sent again. JSON is the same data.
import type { KbSyncFailure, KbSyncResult } from '../app/kb-sync.js';
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

/** `failed` is there only when a website failed (`{address, code, message}` each). */
export function kbSyncToJson(websites: readonly KbSyncResult[], failed: readonly KbSyncFailure[] = []): string {
  return JSON.stringify(failed.length === 0 ? { websites } : { websites, failed }, null, 2) + '\n';
}
