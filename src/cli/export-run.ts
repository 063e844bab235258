// `agentsync export`: the environment from the manifest → the server's two lists → a manifest
// document (core/export-manifest) → YAML (render/export-text) → stdout or --out.
import { responseTimeoutMs, type ManifestOptions } from './options.js';
import { ownConnection } from '../app/connection.js';
import { exportEnvironment } from '../app/export.js';
import { checkExportFolder, checkExportTarget, schemaBeside, writeExportFile, writeExportFolder } from '../io/files/export-file.js';
import { UserError } from '../core/errors.js';
import { loadEnvironment } from '../io/manifest/load-environment.js';
import { PACKAGE_VERSION } from '../io/runtime/package-version.js';
import { renderExport, renderExportParts } from '../render/export-text.js';
import { connectApi } from './api-connect.js';
import { printWarnings } from './render-plan.js';
import { manifestSource, type CliIo } from './cli-io.js';

export async function runExport(opts: ExportOptions, io: CliIo): Promise<void> {
  if (opts.split !== undefined && opts.out !== undefined) throw new UserError('usage', 'use either --out or --split, not both');
  const timeoutMs = responseTimeoutMs(opts.timeout);
  if (opts.split === '' || opts.split === '-') throw new UserError('usage', '--split needs a folder to write');
  const out = opts.out === undefined || opts.out === '-' ? undefined : opts.out;
  const loaded = await loadEnvironment({ file: opts.file, source: manifestSource(io), ...(opts.env === undefined ? {} : { environment: opts.env }), env: io.env });
  printWarnings(io, loaded.warnings, opts);
  if (out !== undefined) await checkExportTarget(out, opts.force === true, io.cwd);
  if (opts.split !== undefined) await checkExportFolder(opts.split, opts.force === true, io.cwd);
  const { environment } = loaded;
  const connection = connectApi(environment, io.env, { concurrency: 2, retries: 5, timeoutMs });
  const exported = await exportEnvironment({
    environment,
    ...(loaded.manifestBaseUrl === undefined ? {} : { manifestBaseUrl: loaded.manifestBaseUrl }),
    connect: () => ownConnection(connection.open()),
  });
  const secrets = exported.secrets.map((s) => s.name);
  const counts = `${Object.entries(exported.counts)
    .map(([type, n]) => `${n} ${type}${n === 1 ? '' : 's'}`)
    .join(' and ')}`;
  const secretsNote = (where: string): string =>
    secrets.length > 0 ? `The export needs ${secrets.length} secret${secrets.length === 1 ? '' : 's'} set before import, plan or apply: ${secrets.join(', ')} (${where}).\n` : '';
  if (opts.split !== undefined) {
    const origin = { agentsyncVersion: PACKAGE_VERSION, environment: environment.name, appId: environment.appId, region: environment.region };
    const files = renderExportParts(exported, origin);
    const removed = await writeExportFolder(opts.split, files, opts.force === true, io.cwd);
    if (opts.json) {
      io.stdout.write(JSON.stringify({ out: opts.split, files: files.map((f) => f.path), removed, counts: exported.counts, secrets }, null, 2) + '\n');
      return;
    }
    io.stdout.write(
      `Exported ${counts} to ${opts.split} (${files.length} file${files.length === 1 ? '' : 's'}${removed.length > 0 ? `; removed ${removed.length} old one${removed.length === 1 ? '' : 's'}` : ''}).\n`,
    );
    io.stderr.write(secretsNote('listed at the end of each file that needs one'));
    return;
  }
  const text = renderExport(exported, {
    agentsyncVersion: PACKAGE_VERSION,
    environment: environment.name,
    appId: environment.appId,
    region: environment.region,
    schemaBeside: await schemaBeside(out, io.cwd),
  });
  if (out !== undefined) await writeExportFile(out, text, opts.force === true, io.cwd);
  if (opts.json) {
    io.stdout.write(JSON.stringify({ out: out ?? null, counts: exported.counts, secrets, ...(out === undefined ? { manifest: text } : {}) }, null, 2) + '\n');
    return;
  }
  if (out === undefined) io.stdout.write(text);
  else io.stdout.write(`Exported ${counts} to ${out}.\n`);
  io.stderr.write(secretsNote('listed at the end of the file'));
}

export interface ExportOptions extends ManifestOptions {
  out?: string;
  /** --split DIR: a folder of parts instead of one file. */
  split?: string;
  force?: boolean;
}
