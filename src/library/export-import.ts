// export() and importResources(): the CLI's `export` and `import` as functions.
import type { ResourceType } from '../core/desired.js';
import { exportEnvironment } from '../app/export.js';
import { importResources as importUseCase } from '../app/import.js';
import { lentConnection } from '../app/connection.js';
import { checkExportTarget, schemaBeside, writeExportFile } from '../io/files/export-file.js';
import { loadEnvironment } from '../io/manifest/load-environment.js';
import { PACKAGE_VERSION } from '../io/runtime/package-version.js';
import { renderExport } from '../render/export-text.js';
import type { ApiClient } from '../io/api/index.js';
import { cwdOf, envOf, inCall, loadWithStore, manifestOf, withClient, type ClientOptions, type LoadOptions, type StateOptions } from './call.js';

export interface ExportOptions extends LoadOptions, ClientOptions {
  /** Write the manifest to this file as well (relative to `cwd`). */
  out?: string;
  /** Replace `out` if it exists (otherwise an existing file is refused). */
  force?: boolean;
  /** Read the server through this client instead of one made from the API key. It is not closed. */
  client?: ApiClient;
}

export interface Exported {
  /** The manifest as YAML, exactly as `agentsync export` prints it. */
  manifest: string;
  counts: Partial<Record<ResourceType, number>>;
  /** The `${secret:…}` names the manifest uses and that must be set before plan or apply. */
  secrets: string[];
}

/**
 * `agentsync export`: what one environment's server holds, as a manifest. Only the manifest's
 * `version` and `environments` are read (its resources may be missing or broken).
 */
export function exportManifest(options: ExportOptions = {}): Promise<Exported> {
  return inCall(options, async () => {
    const cwd = cwdOf(options);
    const loaded = await loadEnvironment({
      file: manifestOf(options),
      source: { cwd },
      env: envOf(options),
      ...(options.environment === undefined ? {} : { environment: options.environment }),
    });
    if (options.out !== undefined) await checkExportTarget(options.out, options.force === true, cwd);
    const { environment } = loaded;
    const exported = await withClient(environment, { ...options, concurrency: options.concurrency ?? 2 }, (client) =>
      exportEnvironment({ environment, ...(loaded.manifestBaseUrl === undefined ? {} : { manifestBaseUrl: loaded.manifestBaseUrl }), connect: async () => lentConnection(client) }),
    );
    const manifest = renderExport(exported, {
      agentsyncVersion: PACKAGE_VERSION,
      environment: environment.name,
      appId: environment.appId,
      region: environment.region,
      schemaBeside: await schemaBeside(options.out, cwd),
    });
    if (options.out !== undefined) await writeExportFile(options.out, manifest, options.force === true, cwd);
    return { manifest, counts: exported.counts, secrets: exported.secrets.map((s) => s.name) };
  });
}

export interface ImportOptions extends LoadOptions, ClientOptions, StateOptions {
  /** One manifest address to adopt; default: every manifest resource not in the state. */
  address?: string;
  /** The server record to adopt for `address`, when several share its name. */
  remoteId?: string;
  client?: ApiClient;
}

export interface ImportOutcome {
  /** What was recorded in the state, with the server id each was matched to. */
  imported: { address: string; remoteId: string }[];
  /** Manifest resources the server does not have: apply will create them. */
  notFound: string[];
}

/** `agentsync import`: adopts what the server already has into the state. Nothing on the server changes. */
export function importResources(options: ImportOptions = {}): Promise<ImportOutcome> {
  return inCall(options, async () => {
    const loaded = await loadWithStore(options);
    const found = await withClient(loaded.desired.environment, { ...options, concurrency: options.concurrency ?? 2 }, (client) =>
      importUseCase({
        desired: loaded.desired,
        store: loaded.store,
        target: loaded.target,
        connect: async () => lentConnection(client),
        request: { ...(options.address === undefined ? {} : { address: options.address }), ...(options.remoteId === undefined ? {} : { remoteId: options.remoteId }) },
        now: new Date().toISOString(),
      }),
    );
    return { imported: found.imported, notFound: found.unmatched };
  });
}
