// What the dashboard shows of Agent Builder agents and their knowledge: each agent with its attached
// sources named in words (a website's URL, a text entry's title, a file's name) and their status, and
// each text entry and upload with the agents it is attached to. Pure: the routes hand it the store's
// records and the clock's time.
// Bounded, since the page polls it every second: at most SHOWN.* of each list, texts clipped, no text
// body (only its length). One pass over the agents' attachments builds both directions, so a poll
// costs O(agents + attachments + sources), never agents × sources.
import type { BuilderAgentRecord } from '../../core/agent-builder-wire.js';
import { fileSourceStatus, websiteStatus } from '../kb/progress.js';
import type { StoredTextEntry, StoredUpload, Website } from '../store.js';

export const SHOWN = {
  agents: 200,
  /** Text entries, and uploads, each. */
  sources: 200,
  knowledgePerAgent: 100,
  agentsPerSource: 50,
  /** A description, title, URL or file name longer than this is cut, ending in an ellipsis. */
  chars: 300,
} as const;

export interface ShownList<T> {
  /** How many there are; `shown` holds the first of them. */
  total: number;
  shown: T[];
}

/** An attached id, named by what it is; `missing` when no source of the app has that id any more. */
export interface AttachedSource {
  id: string;
  kind: 'website' | 'text' | 'file' | 'missing';
  name: string;
  status: string;
}

export interface AgentLink {
  uid: string;
  name: string;
}

export interface BuilderAgentView {
  uid: string;
  name: string;
  model: string | null;
  isActive: boolean | null;
  description: string;
  knowledge: ShownList<AttachedSource>;
}

export interface TextEntryView {
  uniqueId: string;
  title: string;
  fileName: string;
  status: string;
  /** The text's length in characters: the text itself stays off the poll. */
  length: number;
  agents: ShownList<AgentLink>;
}

export interface UploadView {
  uploadId: string;
  fileName: string;
  fileSize: number;
  mimeType: string;
  status: string;
  /** The PUT to the presigned URL never came: the API still reports `indexing`, forever. */
  waitingForBytes: boolean;
  agents: ShownList<AgentLink>;
}

export interface KnowledgeRecords {
  /** Oldest first, as the store keeps them; shown newest first, as the API lists them. */
  agents: readonly BuilderAgentRecord[];
  texts: ReadonlyMap<string, StoredTextEntry>;
  uploads: ReadonlyMap<string, StoredUpload>;
  websites: ReadonlyMap<string, Website>;
  now: number;
}

export function clip(text: string): string {
  return text.length > SHOWN.chars ? `${text.slice(0, SHOWN.chars - 1)}\u2026` : text;
}

function firstOf<T>(items: readonly T[], cap: number): ShownList<T> {
  return { total: items.length, shown: items.slice(0, cap) };
}

/** An agent's attached ids, once each: `files` then `websites` (the `kbAttachArrays` mode decides which holds what). */
function attachedIds(agent: BuilderAgentRecord): string[] {
  return [...new Set([...agent.files, ...agent.websites])];
}

/** The agents a source is attached to, the first SHOWN.agentsPerSource of them. */
export function agentsOf(bySource: ReadonlyMap<string, readonly AgentLink[]>, id: string): ShownList<AgentLink> {
  return firstOf(bySource.get(id) ?? [], SHOWN.agentsPerSource);
}

function agentLink(agent: BuilderAgentRecord): AgentLink {
  return { uid: agent.uid, name: clip(agent.name || agent.uid) };
}

/** Source id → the agents it is attached to, newest agent first, all of them (the caller caps). */
export function agentsBySource(agents: readonly BuilderAgentRecord[]): Map<string, AgentLink[]> {
  const bySource = new Map<string, AgentLink[]>();
  for (let i = agents.length - 1; i >= 0; i--) {
    const agent = agents[i] as BuilderAgentRecord;
    const link = agentLink(agent);
    for (const id of attachedIds(agent)) {
      const held = bySource.get(id);
      if (held) held.push(link);
      else bySource.set(id, [link]);
    }
  }
  return bySource;
}

/** Names one attached id by looking it up in every source type, so it reads right whatever array it sits in. */
function attachedSource(records: KnowledgeRecords, id: string, websiteStatusOf: (website: Website) => string): AttachedSource {
  const website = records.websites.get(id);
  if (website) return { id, kind: 'website', name: clip(website.url), status: websiteStatusOf(website) };
  const text = records.texts.get(id);
  if (text) return { id, kind: 'text', name: clip(text.title), status: fileSourceStatus(text, records.now) };
  const upload = records.uploads.get(id);
  if (upload) return { id, kind: 'file', name: clip(upload.fileName), status: uploadStatus(upload, records.now) };
  return { id, kind: 'missing', name: clip(id), status: 'no longer exists' };
}

function uploadStatus(upload: StoredUpload, now: number): string {
  return upload.content === undefined ? 'waiting for bytes' : fileSourceStatus(upload, now);
}

/** The newest SHOWN.agents agents, each with its first SHOWN.knowledgePerAgent attached sources. */
export function builderAgentsView(records: KnowledgeRecords): ShownList<BuilderAgentView> {
  // A website's status walks its discovered URLs: worked out once per poll, however many agents share it.
  const websiteStatuses = new Map<string, string>();
  const websiteStatusOf = (website: Website): string => {
    let status = websiteStatuses.get(website.parentUniqueId);
    if (status === undefined) websiteStatuses.set(website.parentUniqueId, (status = websiteStatus(website, records.now)));
    return status;
  };
  const shown: BuilderAgentView[] = [];
  for (let i = records.agents.length - 1; i >= 0 && shown.length < SHOWN.agents; i--) {
    const agent = records.agents[i] as BuilderAgentRecord;
    const ids = attachedIds(agent);
    shown.push({
      uid: agent.uid,
      name: clip(agent.name),
      model: agent.model ?? null,
      isActive: agent.isActive ?? null,
      description: clip(agent.description ?? ''),
      knowledge: { total: ids.length, shown: ids.slice(0, SHOWN.knowledgePerAgent).map((id) => attachedSource(records, id, websiteStatusOf)) },
    });
  }
  return { total: records.agents.length, shown };
}

interface Ordered {
  createdAt: number;
  seq: number;
}

/** Newest first, as the knowledge-base list orders sources; only the first `SHOWN.sources` are kept. */
function newestFirst<T extends Ordered>(records: Iterable<T>): ShownList<T> {
  const all = [...records].sort((a, b) => b.createdAt - a.createdAt || b.seq - a.seq);
  return firstOf(all, SHOWN.sources);
}

export function textEntriesView(records: KnowledgeRecords, bySource: ReadonlyMap<string, readonly AgentLink[]>): ShownList<TextEntryView> {
  const { total, shown } = newestFirst(records.texts.values());
  return {
    total,
    shown: shown.map((text) => ({
      uniqueId: text.uniqueId,
      title: clip(text.title),
      fileName: clip(text.fileName),
      status: fileSourceStatus(text, records.now),
      length: text.text.length,
      agents: agentsOf(bySource, text.uniqueId),
    })),
  };
}

export function uploadsView(records: KnowledgeRecords, bySource: ReadonlyMap<string, readonly AgentLink[]>): ShownList<UploadView> {
  const { total, shown } = newestFirst(records.uploads.values());
  return {
    total,
    shown: shown.map((upload) => ({
      uploadId: upload.uploadId,
      fileName: clip(upload.fileName),
      fileSize: upload.fileSize,
      mimeType: clip(upload.mimeType),
      status: uploadStatus(upload, records.now),
      waitingForBytes: upload.content === undefined,
      agents: agentsOf(bySource, upload.uploadId),
    })),
  };
}
