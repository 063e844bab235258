// The resolved, normalized manifest for one environment: what the API should hold.
// Produced by resolveManifest (resolve.ts); consumed by the diff and by the executor.
import type { JsonObject, Region } from './api-types.js';
import type { NotifyConfig, StateConfig } from './schema.js';
import type { KindSpecs } from './kinds/entries.js';

export type { ResourceType } from './kinds/kind.js';
import type { ResourceType } from './kinds/kind.js';
export type { ToolSpec } from './kinds/tool/manifest.js';
export type { AgentSpec } from './kinds/agent/manifest.js';
export type { WebsiteSpec } from './kinds/website/manifest.js';

export type { SensitivePath } from './kinds/entry.js';
import type { SensitivePath } from './kinds/entry.js';

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
  /** The absolute path of the local file the entry names (`file:`), for the calls that send its bytes. */
  localFile?: string;
}

/** A desired resource of one kind. */
export type DesiredOf<T extends ResourceType> = DesiredBase<T, KindSpecs[T]>;
export type DesiredResource = { [T in ResourceType]: DesiredOf<T> }[ResourceType];
export type DesiredTool = DesiredOf<'tool'>;

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
