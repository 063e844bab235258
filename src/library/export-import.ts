// export() and importResources(): the CLI's `export` and `import` as functions.
import type { ResourceType } from '../core/desired.js';
import { exportToManifest } from '../app/export.js';
import { importResources as importUseCase } from '../app/import.js';
import { lentConnection } from '../app/connection.js';
import { loadEnvironment } from '../io/manifest/load-environment.js';
import type { ApiClient } from '../io/api/index.js';
import { connectorOf, cwdOf, envOf, inCall, loadWithStore, manifestOf, withClient, type ClientOptions, type LoadOptions, type StateOptions } from './call.js';

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
    const { environment } = loaded;
    const { exported, manifest } = await exportToManifest({
      environment,
      ...(loaded.manifestBaseUrl === undefined ? {} : { manifestBaseUrl: loaded.manifestBaseUrl }),
      connect: connectorOf(environment, options, 2),
      force: options.force === true,
      cwd,
      ...(options.out === undefined ? {} : { out: options.out }),
    });
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
