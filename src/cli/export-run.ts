// `agentsync export`: the environment from the manifest → the server's two lists → a manifest
// document (core/export-manifest) → YAML (render/export-text) → stdout or --out.
import type { ManifestOptions } from './options.js';
import { ownConnection } from '../app/connection.js';
import { exportEnvironment } from '../app/export.js';
import { checkExportTarget, schemaBeside, writeExportFile } from '../io/files/export-file.js';
import { loadEnvironment } from '../io/manifest/load-environment.js';
import { PACKAGE_VERSION } from '../io/runtime/package-version.js';
import { renderExport } from '../render/export-text.js';
import { connectApi } from './api-connect.js';
import { printWarnings } from './render-plan.js';
import { manifestSource, type CliIo } from './cli-io.js';

export async function runExport(opts: ExportOptions, io: CliIo): Promise<void> {
  const out = opts.out === undefined || opts.out === '-' ? undefined : opts.out;
  const loaded = await loadEnvironment({ file: opts.file, source: manifestSource(io), ...(opts.env === undefined ? {} : { environment: opts.env }), env: io.env });
  printWarnings(io, loaded.warnings, opts);
  if (out !== undefined) await checkExportTarget(out, opts.force === true, io.cwd);
  const { environment } = loaded;
  const connection = connectApi(environment, io.env, { concurrency: 2, retries: 5 });
  const exported = await exportEnvironment({
    environment,
    ...(loaded.manifestBaseUrl === undefined ? {} : { manifestBaseUrl: loaded.manifestBaseUrl }),
    connect: () => ownConnection(connection.open()),
  });
  const text = renderExport(exported, {
    agentsyncVersion: PACKAGE_VERSION,
    environment: environment.name,
    appId: environment.appId,
    region: environment.region,
    schemaBeside: await schemaBeside(out, io.cwd),
  });
  if (out !== undefined) await writeExportFile(out, text, opts.force === true, io.cwd);
  const secrets = exported.secrets.map((s) => s.name);
  if (opts.json) {
    io.stdout.write(JSON.stringify({ out: out ?? null, counts: exported.counts, secrets, ...(out === undefined ? { manifest: text } : {}) }, null, 2) + '\n');
    return;
  }
  if (out === undefined) io.stdout.write(text);
  else
    io.stdout.write(
      `Exported ${Object.entries(exported.counts)
        .map(([type, n]) => `${n} ${type}${n === 1 ? '' : 's'}`)
        .join(' and ')} to ${out}.\n`,
    );
  if (secrets.length > 0)
    io.stderr.write(`The export needs ${secrets.length} secret${secrets.length === 1 ? '' : 's'} set before import, plan or apply: ${secrets.join(', ')} (listed at the end of the file).\n`);
}

export interface ExportOptions extends ManifestOptions {
  out?: string;
  force?: boolean;
}
