// `agentsync import`: read the server, match manifest resources to untracked server records, and
// record them in the state as they are on the server. Nothing on the server changes.
import { UserError } from '../core/errors.js';
import type { ImportRequest } from '../core/import-plan.js';
import { ADDRESS_FORMS, parseAddress } from '../core/kinds/index.js';
import { escapeControl } from '../core/terminal-safe.js';
import { ownConnection } from '../app/connection.js';
import { importResources } from '../app/import.js';
import { connectApi } from './api-connect.js';
import { responseTimeoutMs, type ManifestOptions } from './options.js';
import { loadManifestAndStore } from './pipeline.js';
import { printWarnings } from './render-plan.js';
import type { CliIo } from './cli-io.js';
import { renderImportJson } from '../render/command-json.js';

export async function runImport(request: ImportRequest, opts: ManifestOptions, io: CliIo): Promise<void> {
  if (request.address !== undefined && parseAddress(request.address) === undefined) {
    throw new UserError('usage', `"${escapeControl(request.address)}" is not an address; addresses look like ${ADDRESS_FORMS}`);
  }
  const timeoutMs = responseTimeoutMs(opts.timeout);
  const loaded = await loadManifestAndStore(opts, io);
  printWarnings(io, loaded.warnings, opts);
  const connection = connectApi(loaded.desired.environment, io.env, { concurrency: 2, retries: 5, timeoutMs });
  const found = await importResources({
    desired: loaded.desired,
    store: loaded.store,
    target: loaded.target,
    connect: () => ownConnection(connection.open()),
    request,
    now: new Date().toISOString(),
  });
  // The id is the user's or the server's: its escape sequences are shown, not obeyed.
  const imported = found.imported.map((e) => `${e.address} (${escapeControl(e.remoteId)})`);
  const unmatched = found.unmatched;
  if (opts.json) {
    io.stdout.write(renderImportJson(imported, unmatched));
    return;
  }
  for (const line of imported) io.stdout.write(`  ${line}\n`);
  if (unmatched.length > 0) io.stderr.write(`Not on the server (apply will create ${unmatched.length === 1 ? 'it' : 'them'}): ${unmatched.join(', ')}\n`);
  io.stdout.write(`Imported ${imported.length} ${imported.length === 1 ? 'resource' : 'resources'}.\n`);
}
