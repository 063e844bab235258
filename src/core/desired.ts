// The resolved, normalized manifest for one environment: what the API should hold.
// Produced by resolveManifest (resolve.ts); consumed by the diff and by the executor.
import type { JsonObject, Region } from './api-types.js';
import type { ManifestAgent, ManifestTool, ManifestWebsite, NotifyConfig, StateConfig } from './schema.js';

export type { ResourceType } from './kinds/kind.js';
import type { ResourceType } from './kinds/kind.js';

/** What `PUT /ai-agents/tools/{name}` sends: every managed field, defaults applied (the server merges). */
export type ToolSpec = Omit<ManifestTool, 'description' | 'parameters' | 'environments'> & {
  name: string;
  description: string;
  parameters: NonNullable<ManifestTool['parameters']>;
};
/** What POST/PATCH `/ai-agents/agents` sends. Set-like arrays are sorted and de-duplicated. */
export type AgentSpec = Omit<ManifestAgent, 'environments'>;
/**
 * A website: `url` (+ crawl settings, `exclude` as URL globs) or the seed's `parentUniqueId` +
 * `exclude` of ids. `matchedUrls` is never written in a manifest: it is a fingerprint of the
 * discovered URLs the globs matched (filled from the server at plan time, recorded by apply), so a
 * changed set of matched URLs is an update (core/kinds/website/match.ts).
 */
export type WebsiteSpec = Omit<ManifestWebsite, 'environments'> & { matchedUrls?: string };

/**
 * Sensitive locations inside a spec, as key paths (e.g. ['integrationMeta', 'headers']).
 * The value at each path (a string or a whole subtree) is never printed or stored: plans show
 * "(sensitive)" and state keeps a keyed digest.
 */
export type SensitivePath = readonly (string | number)[];

interface DesiredBase<T extends ResourceType, S> {
  type: T;
  /** The manifest key: tool name, agent key or website key. */
  key: string;
  /** `tool.<name>`, `agent.<key>` or `website.<key>`. */
  address: string;
  spec: S;
  sensitive: SensitivePath[];
  /** Spec fields the manifest left out that hold an empty default (`tools: []`); absent when none, or unknown. */
  defaulted?: readonly string[];
}

export type DesiredTool = DesiredBase<'tool', ToolSpec>;
export type DesiredAgent = DesiredBase<'agent', AgentSpec>;
export type DesiredWebsite = DesiredBase<'website', WebsiteSpec>;
export type DesiredResource = DesiredTool | DesiredAgent | DesiredWebsite;

export interface DesiredEnvironment {
  name: string;
  appId: string;
  region: Region;
  /** Effective base URL: AGENTSYNC_BASE_URL, else the manifest's, else the regional default. */
  baseUrl: string;
  apiKeyEnv: string;
}

/** A renamed manifest key (`moved:`): the state entry at `from` belongs at `to`. */
export interface Move {
  from: string;
  to: string;
}

export interface Desired {
  environment: DesiredEnvironment;
  /** Ordered: tools, then agents, then websites, each by address. */
  resources: DesiredResource[];
  notify?: NotifyConfig;
  /** Names that the manifest references but does not manage (external.tools). */
  externalTools: string[];
  /** Where the state lives, when the manifest says (never part of a plan or its digest). */
  state?: StateConfig;
  /** Renamed keys (`moved:`), whose state entries move to their new address; absent means none. */
  moved?: Move[];
}

export { addressOf } from './kinds/kind.js';

/** The spec as it would be stored and compared: the generic JSON view of any resource spec. */
export type SpecJson = JsonObject;
