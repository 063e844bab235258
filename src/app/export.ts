// The export use case: read one environment's server, every page of it, and turn what it holds
// into a manifest document (core/export-manifest); then, for the CLI and the library alike, render
// it as YAML (one file, or a folder of parts) and write it. Printing it is the caller's.
import type { DesiredEnvironment } from '../core/desired.js';
import { exportManifest, type ExportedManifest, type ManifestSecret } from '../core/export-manifest.js';
import { DEFAULT_API_KEY_ENV } from '../core/resolve.js';
import { assertComplete, readServer } from '../io/api/read-server.js';
import { checkExportFolder, checkExportTarget, schemaBeside, writeExportFile, writeExportFolder } from '../io/files/export-file.js';
import { PACKAGE_VERSION } from '../io/runtime/package-version.js';
import { renderExport, renderExportParts, type ExportOrigin } from '../render/export-text.js';
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
    // A server without a kind's route (no Agent Builder) exports the others and says which it could not.
    snapshot = await readServer(connection.client, undefined, true);
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

export interface ExportWrite {
  /** Replace what is there (otherwise an existing file, or a folder with other files, is refused). */
  force: boolean;
  /** The folder relative paths are in. */
  cwd?: string;
}

export interface ExportedText {
  exported: ExportedManifest;
  /** The manifest as YAML, exactly as `agentsync export` prints it. */
  manifest: string;
}

/**
 * `export [--out FILE]`: the target is checked before the server is read, then the manifest is
 * rendered (pointing at the schema when it is beside the file) and written when `out` is given.
 */
export async function exportToManifest(request: ExportRequest & ExportWrite & { out?: string }): Promise<ExportedText> {
  if (request.out !== undefined) await checkExportTarget(request.out, request.force, request.cwd);
  const exported = await exportEnvironment(request);
  const manifest = renderExport(exported, { ...originOf(request.environment), schemaBeside: await schemaBeside(request.out, request.cwd) });
  if (request.out !== undefined) await writeExportFile(request.out, manifest, request.force, request.cwd);
  return { exported, manifest };
}

export interface ExportedFolder {
  exported: ExportedManifest;
  /** The files written, relative to the folder. */
  files: string[];
  /** Files of an earlier export that are no longer part of this one (with `force`). */
  removed: string[];
}

/** `export --split DIR`: the folder is checked before the server is read, then written as parts. */
export async function exportToFolder(request: ExportRequest & ExportWrite & { folder: string }): Promise<ExportedFolder> {
  await checkExportFolder(request.folder, request.force, request.cwd);
  const exported = await exportEnvironment(request);
  const files = renderExportParts(exported, originOf(request.environment));
  const removed = await writeExportFolder(request.folder, files, request.force, request.cwd);
  return { exported, files: files.map((f) => f.path), removed };
}

function originOf(environment: DesiredEnvironment): Omit<ExportOrigin, 'schemaBeside'> {
  return { agentsyncVersion: PACKAGE_VERSION, environment: environment.name, appId: environment.appId, region: environment.region };
}
