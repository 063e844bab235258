// All emulator data lives in Maps keyed by id, so every request is O(1) whatever the data size.
// The store knows nothing about HTTP or files: resources mutate it and call changed(); the
// persistence layer listens to that and saves the snapshot that toData() produces.
import type { AgentRecord, GroupEntity, MessageRecord, ToolRecord, UserEntity } from '../core/api-types.js';

export type DiscoveredUrlStatus = 'discovered' | 'processing' | 'processed' | 'failed' | 'skipped';

/** A URL found while crawling a website. The interface does not show its fields; these are ours. */
export interface DiscoveredUrl {
  uniqueId: string;
  url: string;
  status: DiscoveredUrlStatus;
}

export interface Website {
  parentUniqueId: string;
  url: string;
  discoveredUrls: DiscoveredUrl[];
  /** The batch started by the latest process call, if any. */
  lastBatchId: string | null;
}

/** Messages are stored without the embedded quotedMessage; responses add it on the way out. */
export type StoredMessage = Omit<MessageRecord, 'quotedMessage'>;

/** The on-disk (and seed) form of the whole data set. */
export interface EmulatorData {
  version: 1;
  appId: string;
  nextMessageId: number;
  users: UserEntity[];
  groups: GroupEntity[];
  websites: Website[];
  tools: ToolRecord[];
  agents: AgentRecord[];
  messages: StoredMessage[];
}

export class EmulatorStore {
  readonly users = new Map<string, UserEntity>();
  readonly groups = new Map<string, GroupEntity>();
  readonly websites = new Map<string, Website>();
  /** The discovered URLs of each website, by uniqueId, for O(1) exclude checks. */
  readonly discoveredUrls = new Map<string, Map<string, DiscoveredUrl>>();
  readonly tools = new Map<string, ToolRecord>();
  /** Soft-deleted agents stay here with deletedAt set; lookups treat them as absent. */
  readonly agents = new Map<string, AgentRecord>();
  readonly messages = new Map<string, StoredMessage>();
  private nextMessageId = 1;
  private listener: () => void = () => {};

  constructor(readonly appId: string) {}

  load(data: EmulatorData): void {
    for (const map of [this.users, this.groups, this.websites, this.discoveredUrls, this.tools, this.agents, this.messages]) map.clear();
    for (const user of data.users) this.users.set(user.uid, user);
    for (const group of data.groups) this.groups.set(group.guid, group);
    for (const website of data.websites) this.addWebsite(website);
    for (const tool of data.tools) this.tools.set(tool.name, tool);
    for (const agent of data.agents) this.agents.set(agent.uid, agent);
    for (const message of data.messages) this.messages.set(message.id, message);
    this.nextMessageId = data.nextMessageId;
  }

  toData(): EmulatorData {
    return {
      version: 1,
      appId: this.appId,
      nextMessageId: this.nextMessageId,
      users: [...this.users.values()],
      groups: [...this.groups.values()],
      websites: [...this.websites.values()],
      tools: [...this.tools.values()],
      agents: [...this.agents.values()],
      messages: [...this.messages.values()],
    };
  }

  onChange(listener: () => void): void {
    this.listener = listener;
  }

  /** Resources call this after every mutation so the data file follows. */
  changed(): void {
    this.listener();
  }

  liveAgent(uid: string): AgentRecord | undefined {
    const agent = this.agents.get(uid);
    return agent && agent.deletedAt === null ? agent : undefined;
  }

  takeMessageId(): string {
    return String(this.nextMessageId++);
  }

  private addWebsite(website: Website): void {
    this.websites.set(website.parentUniqueId, website);
    this.discoveredUrls.set(website.parentUniqueId, new Map(website.discoveredUrls.map((entry) => [entry.uniqueId, entry])));
  }
}
