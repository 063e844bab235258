// Where the manifest is, before anything is read: a file, a folder of parts, or several (repeated
// -f), and the default when -f is not given: $AGENTSYNC_MANIFEST, else agents.yaml, else an agents/
// folder of parts when there is no agents.yaml. Both at once is refused: picking one silently would
// plan the other's resources away (issue 40). Kept apart from the reader (manifest-parts.ts) so the
// program fills the default in, and the public types name a location, without the YAML parser.
import { statSync } from 'node:fs';
import { UserError } from '../../core/errors.js';
import { pathForRun } from '../files/run-path.js';

export const DEFAULT_MANIFEST_FILE = 'agents.yaml';
export const DEFAULT_MANIFEST_FOLDER = 'agents';

/** A manifest file or folder, or several (repeated -f). */
export type ManifestLocation = string | readonly string[];

export function manifestPaths(location: ManifestLocation): readonly string[] {
  return typeof location === 'string' ? [location] : location;
}

/** The first file or folder given: the state's default folder (`.agentsync/`) is beside it. */
export function manifestHome(location: ManifestLocation): string {
  return manifestPaths(location)[0] ?? DEFAULT_MANIFEST_FILE;
}

export function manifestName(location: ManifestLocation): string {
  return manifestPaths(location).join(', ');
}

export function defaultManifest(env: Readonly<Record<string, string | undefined>>, cwd: string | undefined): string {
  const named = env.AGENTSYNC_MANIFEST;
  if (named !== undefined && named !== '') return named;
  const isFolder = (path: string): boolean | undefined => {
    try {
      return statSync(pathForRun(cwd, path)).isDirectory();
    } catch {
      return undefined;
    }
  };
  const folder = isFolder(DEFAULT_MANIFEST_FOLDER) === true;
  const file = isFolder(DEFAULT_MANIFEST_FILE) !== undefined;
  if (file && folder) throw ambiguousManifest();
  return folder ? DEFAULT_MANIFEST_FOLDER : DEFAULT_MANIFEST_FILE;
}

/** Both default locations exist: only the user knows which one is the manifest. */
function ambiguousManifest(): UserError {
  return new UserError(
    'usage',
    `both ${DEFAULT_MANIFEST_FILE} and an ${DEFAULT_MANIFEST_FOLDER}/ folder are here, and either could be the manifest; pass -f ${DEFAULT_MANIFEST_FILE} or -f ${DEFAULT_MANIFEST_FOLDER} (or set AGENTSYNC_MANIFEST) to say which`,
  );
}
