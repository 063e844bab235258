// `agentsync kb status [ADDRESS] [--urls]`: the knowledge base's indexing, read from the server.
// `agentsync kb sync [ADDRESS…] [--failed] [--reindex] [--wait]`: process its URLs again.
import type { Command } from 'commander';
import { addManifestOptions, addResponseTimeoutOption, responseTimeoutMs, useColor, type ManifestOptions } from '../options.js';
import { parseWaitTimeout } from '../apply-request.js';
import { viewKindOf, type ViewKind } from '../../render/views.js';
import type { CliIo } from '../cli-io.js';
import { UserError } from '../../core/errors.js';
import { ShownFailure } from '../exit-codes.js';

export interface KbStatusOptions extends ManifestOptions {
  urls?: boolean;
}

export interface KbSyncOptions extends ManifestOptions {
  failed?: boolean;
  reindex?: boolean;
  wait?: boolean;
  waitTimeout?: string;
}

export function registerKbCommand(program: Command, io: CliIo): void {
  const kb = program.command('kb').description('The knowledge base: websites and their discovered URLs.');
  const status = kb
    .command('status')
    .argument('[address]', 'one website (website.<key>, or just <key>) or text entry (text.<key>); default: everything in the state')
    .option('--urls', 'list every URL with its status and the exclude glob that left it out')
    .description("Counts of each website's discovered URLs by status (discovered, processing, processed, failed, skipped), and each text entry's indexing status.");
  addManifestOptions(addResponseTimeoutOption(status)).action(async (address: string | undefined, opts: KbStatusOptions) => {
    const [{ loadManifestAndStore }, { printWarnings }, { connectApi }, { ownConnection }, { kbReportOf }, { KB_VIEWS }] = await Promise.all([
      import('../pipeline.js'),
      import('../render-plan.js'),
      import('../api-connect.js'),
      import('../../app/connection.js'),
      import('../../app/kb.js'),
      import('../../render/kb-view.js'),
    ]);
    const request = parseKbStatus(opts);
    const view = KB_VIEWS[request.view];
    const loaded = await loadManifestAndStore(opts, io);
    printWarnings(io, loaded.warnings, opts);
    const { websites, sources } = await kbReportOf({
      ...loaded,
      ...(address === undefined ? {} : { address }),
      urls: request.urls,
      connect: () => ownConnection(connectApi(loaded.desired.environment, io.env, { concurrency: 8, retries: 5, timeoutMs: request.timeoutMs }).open()),
    });
    // Nothing to report prints the empty report, uncoloured, as before any call.
    io.stdout.write(view.status(websites, websites.length + sources.length > 0 && useColor(opts, io.stdout, io.env), sources));
  });
  registerKbSyncCommand(kb, io);
}

function registerKbSyncCommand(kb: Command, io: CliIo): void {
  const sync = kb
    .command('sync')
    .argument('[addresses...]', 'websites (website.<key>, or just <key>); default: every website in the state')
    .option('--failed', 'only the URLs whose processing failed')
    .option('--reindex', 're-run indexing of the whole source (PATCH …/website/{id}/sync) instead of listing URLs')
    .option('--wait', 'wait until the URLs sent are processed, with the progress of apply --wait')
    .option('--wait-timeout <seconds>', 'with --wait: give up after this long (default 1800)')
    .description("Process websites' discovered URLs again (PATCH …/discovered-urls/sync), honouring their excludes.");
  addManifestOptions(addResponseTimeoutOption(sync)).action(async (addresses: string[], opts: KbSyncOptions) => {
    const [{ loadManifestAndStore }, { printWarnings }, { connectApi }, { ownConnection }, { kbSyncOf }, { syncFailure }, { KB_VIEWS }] = await Promise.all([
      import('../pipeline.js'),
      import('../render-plan.js'),
      import('../api-connect.js'),
      import('../../app/connection.js'),
      import('../../app/kb.js'),
      import('../../app/kb-sync.js'),
      import('../../render/kb-view.js'),
    ]);
    const request = parseKbSync(opts);
    const view = KB_VIEWS[request.view];
    const loaded = await loadManifestAndStore(opts, io);
    printWarnings(io, loaded.warnings, opts);
    let connected = false;
    const outcome = await kbSyncOf({
      ...loaded,
      addresses,
      request: { failedOnly: request.failedOnly, reindex: request.reindex },
      connect: () => ownConnection(connectApi(loaded.desired.environment, io.env, { concurrency: 8, retries: 5, timeoutMs: request.timeoutMs }).open()),
      afterSync: async (sent, client) => {
        connected = true;
        const text = view.synced(sent.websites, sent.failed, request.failedOnly);
        if (text !== '') io.stdout.write(text);
        const failure = syncFailure(sent);
        if (failure) {
          const message = `${failure.message}${request.wait ? '; not waiting for indexing' : ''}`;
          // A second {"error"} document after the one that holds the failures would break a parser.
          throw view.holdsFailures ? new ShownFailure(message) : new UserError(failure.code, message, failure.details);
        }
        if (!request.wait) return;
        const [{ followIndexing }, { waitForUrls }] = await Promise.all([import('../apply-wait.js'), import('../../app/kb-wait.js')]);
        await followIndexing(io, opts, request.waitTimeoutSeconds, 'the sync itself was sent', (options) => waitForUrls(client, sent.targets, { ...options, signal: io.signal }));
      },
    });
    if (!connected) io.stdout.write(view.nothingToSync(outcome.websites));
  });
}

interface KbStatusRequest {
  readonly urls: boolean;
  /** --timeout for each response, in milliseconds. */
  readonly timeoutMs: number;
  readonly view: ViewKind;
}

/** `kb status`'s flags, checked before anything is read. */
export function parseKbStatus(opts: KbStatusOptions): KbStatusRequest {
  return { urls: opts.urls === true, timeoutMs: responseTimeoutMs(opts.timeout), view: viewKindOf(opts) };
}

interface KbSyncRequest {
  readonly failedOnly: boolean;
  readonly reindex: boolean;
  readonly wait: boolean;
  /** --wait-timeout, checked with or without --wait. */
  readonly waitTimeoutSeconds: number;
  readonly timeoutMs: number;
  readonly view: ViewKind;
}

/** `kb sync`'s flags, checked in this order before anything is read or sent. */
export function parseKbSync(opts: KbSyncOptions): KbSyncRequest {
  if (opts.failed === true && opts.reindex === true) throw new UserError('usage', '--failed and --reindex cannot be combined: --reindex re-indexes the whole source, --failed only the failed URLs');
  return {
    failedOnly: opts.failed === true,
    reindex: opts.reindex === true,
    wait: opts.wait === true,
    waitTimeoutSeconds: parseWaitTimeout(opts.waitTimeout),
    timeoutMs: responseTimeoutMs(opts.timeout),
    view: viewKindOf(opts),
  };
}
