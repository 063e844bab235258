// `agentsync export`: the environment from the manifest → the server's two lists → a manifest
// document (core/export-manifest) → YAML (render/export-text) → stdout or --out.
import { responseTimeoutMs, type ManifestOptions } from './options.js';
import { ownConnection } from '../app/connection.js';
import { exportToFolder, exportToManifest } from '../app/export.js';
import { UserError } from '../core/errors.js';
import { loadEnvironment } from '../io/manifest/load-environment.js';
import { connectApi } from './api-connect.js';
import { printWarnings } from './render-plan.js';
import { manifestSource, type CliIo } from './cli-io.js';
import { renderExportFolderJson, renderExportManifestJson } from '../render/command-json.js';
import { leftOutWarnings, suppliedFileWarnings } from '../render/export-text.js';

export async function runExport(opts: ExportOptions, io: CliIo): Promise<void> {
  if (opts.split !== undefined && opts.out !== undefined) throw new UserError('usage', 'use either --out or --split, not both');
  const timeoutMs = responseTimeoutMs(opts.timeout);
  if (opts.split === '' || opts.split === '-') throw new UserError('usage', '--split needs a folder to write');
  const out = opts.out === undefined || opts.out === '-' ? undefined : opts.out;
  const loaded = await loadEnvironment({ file: opts.file, source: manifestSource(io), ...(opts.env === undefined ? {} : { environment: opts.env }), env: io.env });
  printWarnings(io, loaded.warnings, opts);
  const { environment } = loaded;
  const source = {
    environment,
    ...(loaded.manifestBaseUrl === undefined ? {} : { manifestBaseUrl: loaded.manifestBaseUrl }),
    // The target is checked first; the key, as the server is about to be read.
    connect: () => ownConnection(connectApi(environment, io.env, { concurrency: 2, retries: 5, timeoutMs }).open()),
    force: opts.force === true,
    cwd: io.cwd,
  };
  if (opts.split !== undefined) {
    const folder = opts.split;
    const { exported, files, removed } = await exportToFolder({ ...source, folder });
    io.stderr.write(leftOutWarnings(exported.leftOut) + suppliedFileWarnings(exported.supplied, `${folder.replace(/\/+$/, '')}/`));
    const secrets = exported.secrets.map((s) => s.name);
    if (opts.json) {
      io.stdout.write(renderExportFolderJson(folder, files, removed, exported.counts, secrets));
      return;
    }
    io.stdout.write(
      `Exported ${countsLine(exported.counts)} to ${folder} (${files.length} file${files.length === 1 ? '' : 's'}${removed.length > 0 ? `; removed ${removed.length} old one${removed.length === 1 ? '' : 's'}` : ''}).\n`,
    );
    io.stderr.write(secretsNote(secrets, 'listed at the end of each file that needs one'));
    return;
  }
  const { exported, manifest: text } = await exportToManifest({ ...source, ...(out === undefined ? {} : { out }) });
  io.stderr.write(leftOutWarnings(exported.leftOut) + suppliedFileWarnings(exported.supplied, folderOf(out)));
  const secrets = exported.secrets.map((s) => s.name);
  if (opts.json) {
    io.stdout.write(renderExportManifestJson(out, exported.counts, secrets, text));
    return;
  }
  if (out === undefined) io.stdout.write(text);
  else io.stdout.write(`Exported ${countsLine(exported.counts)} to ${out}.\n`);
  io.stderr.write(secretsNote(secrets, 'listed at the end of the file'));
}

/** The kinds exported, in apply order; a kind with none is left out (an app without builder agents says nothing of them), unless every kind has none. */
function countsLine(counts: Readonly<Record<string, number | undefined>>): string {
  const all = Object.entries(counts);
  const some = all.filter(([, n]) => n !== 0);
  return (some.length > 0 ? some : all).map(([type, n]) => `${n} ${type}${n === 1 ? '' : 's'}`).join(' and ');
}

function secretsNote(secrets: readonly string[], where: string): string {
  return secrets.length > 0 ? `The export needs ${secrets.length} secret${secrets.length === 1 ? '' : 's'} set before import, plan or apply: ${secrets.join(', ')} (${where}).\n` : '';
}

export interface ExportOptions extends ManifestOptions {
  out?: string;
  /** --split DIR: a folder of parts instead of one file. */
  split?: string;
  force?: boolean;
}

/** The folder a single exported file's relative paths start from, as a prefix (`out/`, or empty for stdout and the current folder). */
function folderOf(out: string | undefined): string {
  const at = out === undefined ? -1 : Math.max(out.lastIndexOf('/'), out.lastIndexOf('\\'));
  return out === undefined || at < 0 ? '' : out.slice(0, at + 1);
}
