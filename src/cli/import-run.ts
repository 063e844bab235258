// `agentsync import`: read the server, match manifest resources to untracked server records, and
// record them in the state as they are on the server. Nothing on the server changes.
import { UserError } from '../core/errors.js';
import { planImport, type ImportRequest } from '../core/import-plan.js';
import { parseAddress } from '../core/kinds/index.js';
import { escapeControl } from '../core/terminal-safe.js';
import { refreshState } from '../core/refresh.js';
import { assertComplete, readServer } from '../io/api/read-server.js';
import { createDigester } from '../io/state/digest.js';
import { connectApi } from './api-connect.js';
import type { ManifestOptions } from './options.js';
import { loadManifestAndStore } from './pipeline.js';
import { printWarnings } from './render-plan.js';

export async function runImport(request: ImportRequest, opts: ManifestOptions): Promise<void> {
  if (request.address !== undefined && parseAddress(request.address) === undefined) {
    throw new UserError('usage', `"${escapeControl(request.address)}" is not an address; addresses look like tool.<name>, agent.<key> or website.<key>`);
  }
  const loaded = await loadManifestAndStore(opts);
  printWarnings(loaded.warnings, opts);
  const connection = connectApi(loaded.desired.environment, { concurrency: 2, retries: 5 });
  const session = await loaded.store.open(loaded.target);
  const client = await connection.open();
  let imported: string[];
  let unmatched: string[];
  try {
    const snapshot = await readServer(client);
    // A record on a page that could not be read would be reported as not found.
    assertComplete(snapshot, 'import');
    const digest = createDigester(session.state.salt);
    const refreshed = refreshState({ state: session.state, snapshot, digest, sensitiveOf: () => [] });
    const planned = planImport({ desired: loaded.desired, state: session.state, snapshot, refreshed, digest, request, now: new Date().toISOString() });
    for (const entry of planned.entries) await session.record(entry);
    // The id is the user's or the server's: its escape sequences are shown, not obeyed.
    imported = planned.entries.map((e) => `${e.address} (${escapeControl(e.remoteId)})`);
    unmatched = planned.unmatched;
  } finally {
    await client.close();
    await session.close();
  }
  if (opts.json) {
    process.stdout.write(JSON.stringify({ imported: imported.length, resources: imported, notFound: unmatched }, null, 2) + '\n');
    return;
  }
  for (const line of imported) process.stdout.write(`  ${line}\n`);
  if (unmatched.length > 0) process.stderr.write(`Not on the server (apply will create ${unmatched.length === 1 ? 'it' : 'them'}): ${unmatched.join(', ')}\n`);
  process.stdout.write(`Imported ${imported.length} ${imported.length === 1 ? 'resource' : 'resources'}.\n`);
}
