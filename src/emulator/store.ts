// All emulator data lives in Maps keyed by id, so every request is O(1) whatever the data size.
// The store knows nothing about HTTP or files: resources mutate it and call changed(); the
// persistence layer listens to that and saves the snapshot that toData() produces.
import type { BuilderAgentRecord } from '../core/agent-builder-wire.js';
import type { AgentRecord, GroupEntity, MessageRecord, ToolRecord, UserEntity } from '../core/api-types.js';
import { CreatedOrder } from './created-order.js';

export type DiscoveredUrlStatus = 'discovered' | 'processing' | 'processed' | 'failed' | 'skipped';

/**
 * A URL found while crawling a website. The seed's data files hold only the first three fields;
 * `normalizeWebsite` fills the rest on load, so old files keep working.
 */
export interface DiscoveredUrl {
  uniqueId: string;
  url: string;
  /** While `processing`, the status a reader sees is worked out from `finishesAt` (kb/progress.ts). */
  status: DiscoveredUrlStatus;
  /** Position in discovery order, 1-based; the paging cursor carries it. */
  seq?: number;
  title?: string;
  description?: string;
  /** A preview of the page text, at most 500 characters, as the reference's field says. */
  content?: string;
  /** Epoch ms on the emulator's clock. */
  createdAt?: number;
  updatedAt?: number;
  lastCrawledAt?: number;
  retryCount?: number;
  /** Set by process/sync: when this URL stops being `processing`, and what it becomes then. */
  finishesAt?: number;
  outcome?: 'processed' | 'failed';
}

export interface Website {
  parentUniqueId: string;
  url: string;
  discoveredUrls: DiscoveredUrl[];
  /** When process, sync or re-index last started (epoch ms): the knowledge-base list's `lastSynced`. */
  lastSyncedAt?: number;
  /** The batch started by the latest process call, if any. */
  lastBatchId: string | null;
  /** Crawl settings of the scrape that made it (absent for seed websites). */
  maxDepth?: number;
  maxPages?: number;
  /** Epoch ms on the emulator's clock; orders the knowledge-base list (newest first). */
  createdAt?: number;
  updatedAt?: number;
  /** Creation order, so websites made in the same millisecond still page in one order. */
  seq?: number;
}

/** What text entries and uploads share: their place in the knowledge-base list, and their indexing. */
interface KbFileSource {
  /** Epoch ms on the emulator's clock. */
  createdAt: number;
  updatedAt: number;
  /** Creation order among all knowledge-base sources (websites too): the list's cursor carries it. */
  seq: number;
  /** When indexing ends (epoch ms); absent while it has not begun (an upload whose bytes never came). */
  indexedAt?: number;
  /** When indexing last started: the knowledge-base list's `lastSynced`. */
  lastSyncedAt?: number;
}

/** A knowledge-base text entry. The title and text become a markdown file, `fileName`, under `s3Key`. */
export interface StoredTextEntry extends KbFileSource {
  uniqueId: string;
  title: string;
  text: string;
  fileName: string;
  s3Key: string;
}

/** A knowledge-base upload: made by initiate, filled by the PUT to its presigned URL. */
export interface StoredUpload extends KbFileSource {
  uploadId: string;
  fileName: string;
  mimeType: string;
  fileSize: number;
  s3Key: string;
  /** The presigned URL's signature (random hex); it alone authorises the PUT. */
  signature: string;
  /** When the presigned URL stops working (epoch ms). */
  expiresAt: number;
  /** What the last PUT delivered: its size and digest, never the bytes. */
  content?: { size: number; sha256: string };
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
  /** Absent from files written before Agent Builder agents and their knowledge: read as empty. */
  builderAgents?: BuilderAgentRecord[];
  kbTexts?: StoredTextEntry[];
  kbUploads?: StoredUpload[];
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
  /** Agent Builder agents (hard-deleted), in creation order for the cursor-paged list. */
  readonly builderAgents = new CreatedOrder<BuilderAgentRecord>((agent) => agent.uid);
  readonly kbTexts = new Map<string, StoredTextEntry>();
  readonly kbUploads = new Map<string, StoredUpload>();
  private nextMessageId = 1;
  /** The last `seq` given to a knowledge-base source (websites, text entries, uploads share it). */
  private sourceSeq = 0;
  /** Moves whenever a knowledge-base source is added or removed, so a cached list knows it is stale. */
  private sourceGeneration = 0;
  private listener: () => void = () => {};

  constructor(readonly appId: string) {}

  load(data: EmulatorData): void {
    for (const map of [this.users, this.groups, this.websites, this.discoveredUrls, this.tools, this.agents, this.messages, this.kbTexts, this.kbUploads]) map.clear();
    this.builderAgents.clear();
    this.sourceSeq = 0;
    this.sourceGeneration++;
    for (const user of data.users) this.users.set(user.uid, user);
    for (const group of data.groups) this.groups.set(group.guid, group);
    for (const website of data.websites) this.putWebsite(website);
    for (const tool of data.tools) this.tools.set(tool.name, tool);
    for (const agent of data.agents) this.agents.set(agent.uid, agent);
    for (const message of data.messages) this.messages.set(message.id, message);
    for (const agent of data.builderAgents ?? []) this.builderAgents.put(agent);
    for (const text of data.kbTexts ?? []) this.putKbText(text);
    for (const upload of data.kbUploads ?? []) this.putKbUpload(upload);
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
      builderAgents: [...this.builderAgents.values()],
      kbTexts: [...this.kbTexts.values()],
      kbUploads: [...this.kbUploads.values()],
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

  /** Adds (or replaces) a website and indexes its discovered URLs; fills fields old files lack. */
  putWebsite(website: Website): void {
    normalizeWebsite(website, this.sourceSeq + 1);
    this.sourceSeq = Math.max(this.sourceSeq, website.seq ?? 0);
    this.websites.set(website.parentUniqueId, website);
    this.discoveredUrls.set(website.parentUniqueId, new Map(website.discoveredUrls.map((entry) => [entry.uniqueId, entry])));
    this.sourceGeneration++;
  }

  deleteWebsite(parentUniqueId: string): boolean {
    this.discoveredUrls.delete(parentUniqueId);
    this.sourceGeneration++;
    return this.websites.delete(parentUniqueId);
  }

  /** The `seq` for a new knowledge-base source. */
  takeSourceSeq(): number {
    return ++this.sourceSeq;
  }

  get sourcesVersion(): number {
    return this.sourceGeneration;
  }

  putKbText(text: StoredTextEntry): void {
    this.sourceSeq = Math.max(this.sourceSeq, text.seq);
    if (!this.kbTexts.has(text.uniqueId)) this.sourceGeneration++;
    this.kbTexts.set(text.uniqueId, text);
  }

  putKbUpload(upload: StoredUpload): void {
    this.sourceSeq = Math.max(this.sourceSeq, upload.seq);
    if (!this.kbUploads.has(upload.uploadId)) this.sourceGeneration++;
    this.kbUploads.set(upload.uploadId, upload);
  }

  /** Removes a text entry or an upload by id; true when there was one. */
  deleteKbFile(id: string): boolean {
    const removed = this.kbTexts.delete(id) || this.kbUploads.delete(id);
    if (removed) this.sourceGeneration++;
    return removed;
  }

  /** Takes these ids off every Agent Builder agent (`files` and `websites`); true when one held any. */
  detachEverywhere(ids: ReadonlySet<string>, now: number): boolean {
    let detached = false;
    for (const agent of this.builderAgents.values()) {
      if (!detachIds(agent, ids)) continue;
      agent.updatedAt = Math.max(now, agent.updatedAt + 1);
      detached = true;
    }
    return detached;
  }
}

/** Takes the ids off an agent's `files` and `websites` (ids are unique across source types); true when it held any. */
export function detachIds(agent: BuilderAgentRecord, ids: ReadonlySet<string>): boolean {
  const files = agent.files.filter((id) => !ids.has(id));
  const websites = agent.websites.filter((id) => !ids.has(id));
  if (files.length === agent.files.length && websites.length === agent.websites.length) return false;
  agent.files = files;
  agent.websites = websites;
  return true;
}

/** 2025-01-01T00:00:00Z: the time given to seed records that carry none. */
const SEED_EPOCH_MS = 1735689600000;

function normalizeWebsite(website: Website, seq: number): void {
  website.createdAt ??= SEED_EPOCH_MS;
  website.updatedAt ??= website.createdAt;
  website.seq ??= seq;
  website.discoveredUrls.forEach((entry, index) => {
    entry.seq ??= index + 1;
    entry.createdAt ??= website.createdAt;
    entry.updatedAt ??= entry.createdAt;
    entry.retryCount ??= 0;
  });
}
