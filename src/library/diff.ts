// `diff()`: two environments compared live through the manifest, as `agentsync diff --json` prints
// it (the same document, formatVersion included). Reads only: no lock, no state written.
import { diffEnvironments } from '../app/diff.js';
import { ownConnection } from '../app/connection.js';
import { hideInOutput } from '../io/api/outside-text.js';
import { diffToJson, type DiffJson } from '../render/diff-json.js';
import { createClient, cwdOf, envOf, inCall, manifestOf, type ClientOptions, type LoadOptions } from './call.js';

export interface DiffOptions extends Omit<LoadOptions, 'environment'>, Omit<ClientOptions, 'apiKey'> {
  /** The two environments, left then right. */
  environments: readonly [string, string];
  /** Compare the two servers directly (tools and agents by name), without the manifest's resources or states. */
  liveOnly?: boolean;
  /** API keys by environment name; an environment left out uses the variable its `apiKeyEnv` names. */
  apiKeys?: Readonly<Record<string, string>>;
}

export function diff(options: DiffOptions): Promise<DiffJson> {
  return inCall(options, async () => {
    hideInOutput(Object.values(options.apiKeys ?? {}));
    const result = await diffEnvironments({
      file: manifestOf(options),
      source: { cwd: cwdOf(options) },
      environments: options.environments,
      env: envOf(options),
      liveOnly: options.liveOnly === true,
      connector: (environment) => {
        const apiKey = options.apiKeys?.[environment.name];
        const client = createClient(environment, { ...options, concurrency: options.concurrency ?? 2, ...(apiKey === undefined ? {} : { apiKey }) });
        return () => ownConnection(Promise.resolve(client));
      },
      onSensitiveValues: hideInOutput,
    });
    return diffToJson(result);
  });
}
