// The wire shapes of CometChat's Agent Builder routes (agents and their knowledge base: text
// entries, uploads, the general source list), as ../shared/reference/cometchat-agent-builder.md and
// cometchat-kb-text-files.md give them. Types only: the client reads them and the emulator answers
// them, each with facts of its own about how a server fills them in (docs/spec/server.md).
import type { JsonObject } from './api-types.js';

/** An Agent Builder agent: create answers `{agent}`, get answers it bare, the list in `data[]`. */
export interface BuilderAgentRecord {
  uid: string;
  appId: string;
  name: string;
  icon?: string;
  isActive?: boolean;
  description?: string;
  tools?: string[];
  apiTools?: string[];
  mcpServers?: string[];
  /** Response-only: filled by the frontend-action attach routes, never by create or update. */
  frontendActions?: string[];
  /** Attached knowledge-base ids (uploads and text entries; websites too, on some servers). */
  files: string[];
  /** Attached website ids (on servers that keep them apart from `files`). */
  websites: string[];
  otherKbIntegrations?: string[];
  ragVersion?: 'v1' | 'v2';
  lastMessageAt?: number | null;
  instruction?: string;
  formattedInstruction?: string;
  metaData?: JsonObject;
  model?: string;
  modelMetaData?: JsonObject;
  /** Epoch milliseconds. */
  createdAt: number;
  updatedAt: number;
}

/** What create and update accept: the fields a client sets (all optional on update). */
export interface BuilderAgentBody {
  name?: string;
  icon?: string;
  isActive?: boolean;
  description?: string;
  tools?: string[];
  apiTools?: string[];
  mcpServers?: string[];
  instruction?: string;
  metaData?: JsonObject;
  model?: string;
  modelMetaData?: JsonObject;
}

export interface BuilderAgentCreateResponse {
  agent: BuilderAgentRecord;
}

/** A cursor of the agent list: the `createdAt` (ms) of the page's last (`append`) or first (`prepend`) item. */
export interface BuilderAgentCursor {
  affix: 'append' | 'prepend';
  createdAt: number;
}

export interface BuilderAgentListResponse {
  data: BuilderAgentRecord[];
  /** `previous` and `next` are present only when that page exists. */
  meta: { previous?: BuilderAgentCursor; current: { limit: number; count: number }; next?: BuilderAgentCursor };
}

/** Update, attach and detach answer only this. */
export interface SuccessOnlyResponse {
  success: true;
}

export interface BuilderAgentDeleteResponse {
  success: true;
  message: string;
}

/** The knowledge-base source types of the path (`…/knowledge-base/{sourceType}/…`). */
export type KbSourceType = 'uploads' | 'text' | 'website';

/** The indexing status of a text entry or an upload. */
export type KbIndexStatus = 'indexing' | 'indexed';

/** A text entry as the list and get answer it (get adds `vectorizationStatus` and `isActive`). */
export interface TextEntryRecord {
  uniqueId: string;
  title: string;
  text: string;
  fileName: string;
  s3Key: string;
  status: KbIndexStatus;
  createdAt: number;
  updatedAt: number;
  vectorizationStatus?: string;
  isActive?: boolean;
}

/** What create and update answer in `data`. */
export interface TextEntrySummary {
  uniqueId: string;
  title: string;
  fileName: string;
  s3Key: string;
  status: KbIndexStatus;
  vectorizationStatus?: string;
}

export interface TextEntryWriteResponse {
  success: true;
  message: string;
  data: TextEntrySummary;
}

export interface TextEntryListResponse {
  data: TextEntryRecord[];
}

export interface TextEntryGetResponse {
  data: TextEntryRecord;
}

export interface TextEntryDeleteResponse {
  success: true;
  message: string;
  data: { uniqueId: string; fileName: string; deletedFromAgents: boolean; vectorsDeleted: boolean };
}

/** One file of an initiate body. */
export interface KbUploadFileDescriptor {
  fileName: string;
  mimeType: string;
  /** Bytes. */
  fileSize: number;
}

/** One upload record of the initiate answer: where to PUT the bytes. */
export interface KbUploadRecord extends KbUploadFileDescriptor {
  uploadId: string;
  s3Key: string;
  presignedUrl: string;
}

export interface KbUploadInitiateResponse {
  uploads: KbUploadRecord[];
}

export interface KbUploadDeleteResponse {
  success: true;
  message: string;
  data: { uploadId: string; fileName: string; deletedFromAgents: boolean; vectorsDeleted: boolean };
}

/** A record of the general list `GET …/knowledge-base`. */
export interface KbListRecord {
  uniqueId: string;
  appId: string;
  /** A website's URL, a text entry's title, an upload's file name. */
  sourceName: string;
  /** `uploads`, `text-details`, and for websites `website` on the emulator (the reference shows none). */
  type: string;
  status: 'inSync' | 'indexing' | 'indexed' | 'failed';
  lastSynced: number;
  createdAt: number;
  updatedAt: number;
}

export interface KbListResponse {
  data: KbListRecord[];
  meta: {
    current: { limit: number; count: number };
    next?: { affix: 'append'; cursor: string };
    previous?: { affix: 'prepend'; cursor: string };
  };
}
