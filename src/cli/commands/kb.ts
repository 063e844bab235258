// `agentsync kb status [ADDRESS] [--urls]`: the knowledge base's indexing, read from the server.
// `agentsync kb sync [ADDRESS…] [--failed] [--reindex] [--wait]`: process its URLs again.
import type { Command } from 'commander';
import { addManifestOptions, addResponseTimeoutOption, parseCount, responseTimeoutMs, useColor, type ManifestOptions } from '../options.js';
import type { CliIo } from '../cli-io.js';
import { UserError } from '../../core/errors.js';
import { ExitRequest } from '../exit-request.js';
import { renderErrorLine } from '../../render/error-line.js';

interface KbStatusOptions extends ManifestOptions {
  urls?: boolean;
}

interface KbSyncOptions extends ManifestOptions {
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
    const [{ loadManifestAndStore }, { printWarnings }, { connectApi }, { ownConnection }, { kbReportOf }, render] = await Promise.all([
      import('../pipeline.js'),
      import('../render-plan.js'),
      import('../api-connect.js'),
      import('../../app/connection.js'),
      import('../../app/kb.js'),
      import('../../render/kb-status.js'),
    ]);
    const timeoutMs = responseTimeoutMs(opts.timeout);
    const loaded = await loadManifestAndStore(opts, io);
    printWarnings(io, loaded.warnings, opts);
    const { websites, sources } = await kbReportOf({
      ...loaded,
      ...(address === undefined ? {} : { address }),
      urls: opts.urls === true,
      connect: () => ownConnection(connectApi(loaded.desired.environment, io.env, { concurrency: 8, retries: 5, timeoutMs }).open()),
    });
    // Nothing to report prints the empty report, uncoloured, as before any call.
    const color = websites.length + sources.length > 0 && useColor(opts, io.stdout, io.env);
    io.stdout.write(opts.json === true ? render.kbStatusToJson(websites, sources) : render.renderKbStatusText(websites, color, sources));
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
    const [{ loadManifestAndStore }, { printWarnings }, { connectApi }, { ownConnection }, { kbSyncOf }, { syncFailure }, render] = await Promise.all([
      import('../pipeline.js'),
      import('../render-plan.js'),
      import('../api-connect.js'),
      import('../../app/connection.js'),
      import('../../app/kb.js'),
      import('../../app/kb-sync.js'),
      import('../../render/kb-sync.js'),
    ]);
    if (opts.failed === true && opts.reindex === true) throw new UserError('usage', '--failed and --reindex cannot be combined: --reindex re-indexes the whole source, --failed only the failed URLs');
    // A bad value is refused before anything is read or sent.
    const timeoutSeconds = parseCount(opts.waitTimeout ?? '1800', '--wait-timeout', 1, 86_400);
    const timeoutMs = responseTimeoutMs(opts.timeout);
    const loaded = await loadManifestAndStore(opts, io);
    printWarnings(io, loaded.warnings, opts);
    let connected = false;
    const outcome = await kbSyncOf({
      ...loaded,
      addresses,
      request: { failedOnly: opts.failed === true, reindex: opts.reindex === true },
      connect: () => ownConnection(connectApi(loaded.desired.environment, io.env, { concurrency: 8, retries: 5, timeoutMs }).open()),
      afterSync: async (sent, client) => {
        connected = true;
        // What was sent is printed even when another website failed: a rerun must know what it would repeat.
        if (opts.json === true) io.stdout.write(render.kbSyncToJson(sent.websites, sent.failed));
        else if (sent.websites.length > 0) io.stdout.write(render.renderKbSyncText(sent.websites, opts.failed === true));
        const failure = syncFailure(sent);
        if (failure) {
          const message = `${failure.message}${opts.wait === true ? '; not waiting for indexing' : ''}`;
          // The JSON above already holds the failures; a second {"error"} document would break a parser.
          if (opts.json !== true) throw new UserError(failure.code, message, failure.details);
          throw new ExitRequest(1, { stderr: renderErrorLine(message) });
        }
        if (opts.wait !== true) return;
        const [{ followIndexing }, { waitForUrls }] = await Promise.all([import('../apply-wait.js'), import('../../app/kb-wait.js')]);
        await followIndexing(io, opts, timeoutSeconds, 'the sync itself was sent', (options) => waitForUrls(client, sent.targets, { ...options, signal: io.signal }));
      },
    });
    // No website to sync: the empty report, with no call made.
    if (!connected) io.stdout.write(opts.json === true ? render.kbSyncToJson(outcome.websites) : render.renderKbSyncText(outcome.websites, false));
  });
}
