// What `kb status` and `kb sync` print, as two views chosen once (render/views.ts).
import type { KbSourceStatus } from '../app/kb-sources.js';
import type { KbWebsiteStatus } from '../app/kb-status.js';
import type { KbSyncFailure, KbSyncResult } from '../app/kb-sync.js';
import { kbStatusToJson, renderKbStatusText } from './kb-status.js';
import { kbSyncToJson, renderKbSyncText } from './kb-sync.js';
import type { Views } from './views.js';

export interface KbView {
  /** `kb status`: the websites, and the indexed sources (text entries); `color` only where there is something to report. */
  status(websites: readonly KbWebsiteStatus[], color: boolean, sources: readonly KbSourceStatus[]): string;
  /** What `kb sync` sent, printed even when another website failed: a rerun must know what it would repeat. */
  synced(websites: readonly KbSyncResult[], failed: readonly KbSyncFailure[], failedOnly: boolean): string;
  /** `kb sync` with no website to sync: the empty report, with no call made. */
  nothingToSync(websites: readonly KbSyncResult[]): string;
  /** The sync's failures are in the document already, so no `{"error"}` document may follow it. */
  readonly holdsFailures: boolean;
}

export const KB_VIEWS: Views<KbView> = {
  human: {
    status: (websites, color, sources) => renderKbStatusText(websites, color, sources),
    synced: (websites, _failed, failedOnly) => (websites.length > 0 ? renderKbSyncText(websites, failedOnly) : ''),
    nothingToSync: (websites) => renderKbSyncText(websites, false),
    holdsFailures: false,
  },
  json: {
    status: (websites, _color, sources) => kbStatusToJson(websites, sources),
    synced: (websites, failed) => kbSyncToJson(websites, failed),
    nothingToSync: (websites) => kbSyncToJson(websites),
    holdsFailures: true,
  },
};
