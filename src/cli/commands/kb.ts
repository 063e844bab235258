// `agentsync kb status [ADDRESS] [--urls]`: the knowledge base's indexing, read from the server.
import type { Command } from 'commander';
import { addManifestOptions, useColor, type ManifestOptions } from '../options.js';
import type { CliIo } from '../cli-io.js';

interface KbStatusOptions extends ManifestOptions {
  urls?: boolean;
}

export function registerKbCommand(program: Command, io: CliIo): void {
  const kb = program.command('kb').description('The knowledge base: websites and their discovered URLs.');
  const status = kb
    .command('status')
    .argument('[address]', 'one website (website.<key>); default: every website in the state')
    .option('--urls', 'list every URL with its status and the exclude glob that left it out')
    .description("Counts of each website's discovered URLs by status (discovered, processing, processed, failed, skipped).");
  addManifestOptions(status).action(async (address: string | undefined, opts: KbStatusOptions) => {
    const [{ loadManifestAndStore }, { printWarnings }, { connectApi }, app, render] = await Promise.all([
      import('../pipeline.js'),
      import('../render-plan.js'),
      import('../api-connect.js'),
      import('../../app/kb-status.js'),
      import('../../render/kb-status.js'),
    ]);
    const loaded = await loadManifestAndStore(opts, io);
    printWarnings(io, loaded.warnings, opts);
    const state = await loaded.store.read(loaded.target);
    // A bad address is refused before the key is needed or anything is sent.
    const addresses = app.websitesToReport(state, address);
    if (state === null || addresses.length === 0) {
      io.stdout.write(opts.json === true ? render.kbStatusToJson([]) : render.renderKbStatusText([], false));
      return;
    }
    const client = await connectApi(loaded.desired.environment, io.env, { concurrency: 8, retries: 5 }).open();
    try {
      const websites = await app.readKbStatus(client, state, addresses, opts.urls === true);
      io.stdout.write(opts.json === true ? render.kbStatusToJson(websites) : render.renderKbStatusText(websites, useColor(opts, io.stdout, io.env)));
    } finally {
      await client.close();
    }
  });
}
