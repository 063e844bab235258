// The manifest stage for `agentsync export`: only the selected environment is needed, so only
// `version` and `environments` are resolved. Resources may be broken, missing or need secrets that
// are not set; none of that stops an export, which replaces them anyway.
import { hasErrors, ManifestError, type Diagnostic } from '../../core/diagnostics.js';
import { defaultBaseUrl } from '../../core/base-url.js';
import type { DesiredEnvironment } from '../../core/desired.js';
import { manifestSecretsOf, type ManifestSecret } from '../../core/export-manifest.js';
import { UserError } from '../../core/errors.js';
import { resolveManifest } from '../../core/resolve.js';
import { normalizeBaseUrl } from '../../core/base-url.js';
import type { ManifestSource } from './manifest-file.js';
import { parseManifestRead, readManifest } from './manifest-parts.js';
import { type ManifestLocation } from './manifest-location.js';

/** The environment an export reads, with the values its manifest takes from secrets (never written back). */
export interface ExportSourceEnvironment extends DesiredEnvironment {
  manifestSecrets: readonly ManifestSecret[];
}

export interface LoadedEnvironment {
  /** What to connect to: AGENTSYNC_BASE_URL applies, as for every command. */
  environment: ExportSourceEnvironment;
  /** The base URL the manifest itself gives, when it is not the regional default. */
  manifestBaseUrl?: string;
  warnings: Diagnostic[];
}

export async function loadEnvironment(options: {
  file: ManifestLocation;
  source?: ManifestSource;
  environment?: string;
  env: Readonly<Record<string, string | undefined>>;
}): Promise<LoadedEnvironment> {
  const parsed = parseManifestRead(await readManifest(options.file, options.source));
  const value = parsed.value === undefined ? undefined : { version: parsed.value.version, environments: parsed.value.environments };
  const sites = parsed.sites.filter((site) => site.path[0] === 'environments');
  // Without the override, the resolved base URL is the manifest's own (or the regional default).
  const { AGENTSYNC_BASE_URL: override, ...env } = options.env;
  const resolution = resolveManifest({ ...parsed, value, sites }, { env, mode: 'plan', ...(options.environment === undefined ? {} : { environment: options.environment }) });
  if (hasErrors(resolution.diagnostics)) throw new ManifestError(resolution.diagnostics);
  const desired = resolution.desired;
  if (desired === undefined) {
    throw new UserError('environment_invalid', `choose one environment with -e (the manifest defines ${resolution.environments.join(', ')})`);
  }
  const own = desired.environment;
  const manifestBaseUrl = own.baseUrl === defaultBaseUrl(own.appId, own.region) ? undefined : own.baseUrl;
  const baseUrl = override === undefined || override === '' ? own.baseUrl : normalizeBaseUrl(override);
  // The resources are not resolved, but where they read a secret is known, so the export can write
  // the same placeholder where it finds that value on the server.
  const manifestSecrets = manifestSecretsOf(parsed.sites, env).filter((secret) => secret.name !== own.apiKeyEnv);
  return {
    environment: { ...own, baseUrl, manifestSecrets },
    ...(manifestBaseUrl === undefined ? {} : { manifestBaseUrl }),
    warnings: resolution.diagnostics.filter((d) => d.severity === 'warning'),
  };
}
