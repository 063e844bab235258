// What the state commands print, as two views chosen once (render/views.ts): the text of
// state-text.ts, or the JSON documents of command-json.ts and state-text.ts.
import type { MigrateResult } from '../core/state.js';
import type { Forgotten, Moved, StateEntry, StateListing } from '../app/state.js';
import { renderForgottenJson, renderMigratedJson, renderMovedJson, renderStateEntryJson } from './command-json.js';
import { renderForgotten, renderMigrated, renderMoved, renderStateEntry, renderStateList, stateListJson } from './state-text.js';
import type { Views } from './views.js';

export interface StateView {
  /** `state list`: stdout's listing, and stderr's line when there is nothing to list. */
  list(listing: StateListing, location: string): { stdout: string; stderr: string };
  /** `state show ADDRESS`. */
  entry(entry: StateEntry, address: string): string;
  /** The receipts of `state rm`, `mv` and `migrate`. */
  forgotten(removed: Forgotten, location: string): string;
  moved(moved: Moved, location: string): string;
  migrated(result: MigrateResult): string;
}

export const STATE_VIEWS: Views<StateView> = {
  human: {
    list: renderStateList,
    entry: (entry) => renderStateEntry(entry),
    forgotten: renderForgotten,
    moved: renderMoved,
    migrated: renderMigrated,
  },
  json: {
    list: (listing, location) => ({ stdout: stateListJson(listing, location), stderr: '' }),
    entry: (entry, address) => renderStateEntryJson({ ...entry, address }),
    forgotten: (removed) => renderForgottenJson(removed),
    moved: (moved) => renderMovedJson(moved),
    migrated: (result) => renderMigratedJson(result),
  },
};
