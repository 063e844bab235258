// `agentsync export`: the environment from the manifest → the server's two lists → a manifest
// document (core/export-manifest) → YAML (render/export-text) → stdout or --out.
import type { ManifestOptions } from './options.js';
import { exportManifest } from '../core/export-manifest.js';
import { checkExportTarget, writeExportFile } from '../io/files/export-file.js';
import { loadEnvironment } from '../io/manifest/load-environment.js';
import { PACKAGE_VERSION } from '../io/runtime/package-version.js';
import { assertComplete, readServer } from '../io/api/read-server.js';
import { renderExport } from '../render/export-text.js';
import { connectApi } from './api-connect.js';
import { printWarnings } from './render-plan.js';

const DEFAULT_API_KEY_ENV = 'COMETCHAT_API_KEY';

export async function runExport(opts: ExportOptions): Promise<void> {
  const out = opts.out === undefined || opts.out === '-' ? undefined : opts.out;
  const loaded = await loadEnvironment({ file: opts.file, ...(opts.env === undefined ? {} : { environment: opts.env }), env: process.env });
  printWarnings(loaded.warnings, opts);
  if (out !== undefined) await checkExportTarget(out, opts.force === true);
  const { environment } = loaded;
  const client = await connectApi(environment, { concurrency: 2, retries: 5 }).open();
  let snapshot;
  try {
    snapshot = await readServer(client);
  } finally {
    await client.close();
  }
  // An export that silently missed a page would drop those resources from the clone.
  assertComplete(snapshot, 'export');
  const exported = exportManifest(snapshot, {
    name: environment.name,
    appId: environment.appId,
    region: environment.region,
    ...(loaded.manifestBaseUrl === undefined ? {} : { baseUrl: loaded.manifestBaseUrl }),
    ...(environment.apiKeyEnv === DEFAULT_API_KEY_ENV ? {} : { apiKeyEnv: environment.apiKeyEnv }),
  });
  const text = renderExport(exported, { agentsyncVersion: PACKAGE_VERSION, environment: environment.name, appId: environment.appId, region: environment.region });
  if (out !== undefined) await writeExportFile(out, text, opts.force === true);
  const secrets = exported.secrets.map((s) => s.name);
  if (opts.json) {
    process.stdout.write(JSON.stringify({ out: out ?? null, counts: exported.counts, secrets, ...(out === undefined ? { manifest: text } : {}) }, null, 2) + '\n');
    return;
  }
  if (out === undefined) process.stdout.write(text);
  else process.stdout.write(`Exported ${Object.entries(exported.counts).map(([type, n]) => `${n} ${type}${n === 1 ? '' : 's'}`).join(' and ')} to ${out}.\n`);
  if (secrets.length > 0) process.stderr.write(`The export needs ${secrets.length} secret${secrets.length === 1 ? '' : 's'} set before import, plan or apply: ${secrets.join(', ')} (listed at the end of the file).\n`);
}

export interface ExportOptions extends ManifestOptions {
  out?: string;
  force?: boolean;
}
