// The export use case: read one environment's server, every page of it, and turn what it holds
// into a manifest document (core/export-manifest). Writing it out, as YAML to stdout or a file, is
// the caller's.
import type { DesiredEnvironment } from '../core/desired.js';
import { exportManifest, type ExportedManifest, type ManifestSecret } from '../core/export-manifest.js';
import { DEFAULT_API_KEY_ENV } from '../core/resolve.js';
import { assertComplete, readServer } from '../io/api/read-server.js';
import type { Connection } from './connection.js';

export interface ExportRequest {
  /** With the values the manifest reads from `${secret:…}`, which the export writes as placeholders again. */
  environment: DesiredEnvironment & { manifestSecrets?: readonly ManifestSecret[] };
  /** The base URL as the manifest wrote it, when it is not the region's default. */
  manifestBaseUrl?: string;
  connect: () => Promise<Connection>;
}

export async function exportEnvironment(request: ExportRequest): Promise<ExportedManifest> {
  const connection = await request.connect();
  let snapshot;
  try {
    snapshot = await readServer(connection.client);
  } finally {
    await connection.release();
  }
  // An export that silently missed a page would drop those resources from the clone.
  assertComplete(snapshot, 'export');
  const { environment } = request;
  return exportManifest(
    snapshot,
    {
      name: environment.name,
      appId: environment.appId,
      region: environment.region,
      ...(request.manifestBaseUrl === undefined ? {} : { baseUrl: request.manifestBaseUrl }),
      ...(environment.apiKeyEnv === DEFAULT_API_KEY_ENV ? {} : { apiKeyEnv: environment.apiKeyEnv }),
    },
    environment.manifestSecrets ?? [],
  );
}
