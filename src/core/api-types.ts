// Wire types of the CometChat REST API v3, as the seed interface and CometChat's public reference
// give them (docs/spec/server.md#the-public-reference). The API client and the emulator both use these;
// neither shares code with the other.

/** The methods the public API uses; one definition for the client, the kinds and the emulator. */
export type HttpMethod = 'GET' | 'PUT' | 'POST' | 'PATCH' | 'DELETE';

export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };
export type JsonObject = { [key: string]: JsonValue };

export const REGIONS = ['us', 'eu', 'in'] as const;
export type Region = (typeof REGIONS)[number];
export type IntegrationType = 'llm' | 'agent';
export type ReceiverType = 'user' | 'group';

/** A parameter definition: `{ type: object, properties, required? }`, or `{}`. */
export interface ToolParameters {
  type?: string;
  properties?: Record<string, { type: string; description: string; [keyword: string]: JsonValue }>;
  required?: string[];
}

/** Body of `PUT /ai-agents/tools/{name}`. */
export interface ToolBody {
  name: string;
  displayName: string;
  executionText: string;
  description?: string;
  doNotExecute?: boolean;
  parameters?: ToolParameters;
}

/** The tool record answered by PUT and GET. `type` is `tool` when doNotExecute, else `action`. */
export interface ToolRecord {
  _id: string;
  appId: string;
  name: string;
  type: 'action' | 'tool';
  displayName: string;
  executionText: string;
  doNotExecute: boolean;
  tool: { name: string; description?: string; parameters?: ToolParameters };
  /** Document-store bookkeeping (docs/spec/server.md#what-a-server-may-do). */
  __v?: number;
  createdAt: string;
  updatedAt: string;
}

export interface AgentRecord {
  uid: string;
  appId: string;
  name: string;
  icon?: string;
  isActive: boolean;
  integrateWith: string;
  integrationType: IntegrationType;
  tools: string[];
  actions: string[];
  instruction?: string;
  integrationMeta?: JsonObject;
  metaData?: JsonObject;
  platformTools?: string[];
  cometchatTools?: string[];
  suggestions?: string[];
  /** Document-store bookkeeping a real server adds (docs/spec/server.md#what-a-server-may-do); never a spec field. */
  _id?: string;
  __v?: number;
  deletedAt: string | null;
  createdAt: string;
  updatedAt: string;
}

/** `POST /ai-agents/agents` answers `{ agent }` with 200 or 201. */
export interface AgentCreateResponse {
  agent: AgentRecord;
}

/** A timestamp as the public versions send it: an ISO 8601 string (A) or an integer (O). */
export type WireTimestamp = string | number;

/** A record whose `createdAt`/`updatedAt` may come in either public form. */
export type WithWireTimestamps<T extends { createdAt: string; updatedAt: string }> = Omit<T, 'createdAt' | 'updatedAt'> & {
  createdAt: WireTimestamp;
  updatedAt: WireTimestamp;
};

/** An entry of `GET /ai-agents/agents` in public version A: no `uid`, so it cannot identify an agent. */
export interface AgentListEntryWithoutUid {
  name: string;
  description: string;
  deploymentUrl: string;
  apiKey: string;
}

/** `PATCH /ai-agents/agents/{uid}` in the public reference: a flag, not the agent. */
export interface AgentUpdateResponse {
  success: boolean;
}

/** `DELETE /ai-agents/agents/{uid}`: `Agent with UID '<uid>' has been deleted successfully`. */
export interface AgentDeleteResponse {
  success: boolean;
  message: string;
}

/** `DELETE /ai-agents/tools/{name}`. */
export interface ToolDeleteResponse {
  deleted: boolean;
}

export interface BatchResult {
  batchId: string;
  urlsProcessed: number;
  totalUrls: number;
  webhookUrl: string;
  status: string;
}

export interface ProcessUrlsResponse {
  success: boolean;
  message: string;
  data: BatchResult;
}

/** Body of `POST /messages`. No field is marked required by the reference. */
export interface MessageBody {
  receiver?: string;
  receiverType?: ReceiverType;
  muid?: string;
  category?: 'message' | 'custom';
  type?: string;
  data?: { text?: string; metadata?: JsonObject; customData?: JsonObject; [key: string]: JsonValue | undefined };
  quotedMessageId?: string;
  multipleReceivers?: { uids?: string[]; guids?: string[] };
  tags?: string[];
}

export interface UserEntity {
  uid: string;
  name: string;
  avatar?: string;
  status?: string;
  role?: string;
  createdAt: number;
  conversationId?: string;
}

export interface GroupEntity {
  guid: string;
  name: string;
  type?: string;
  createdAt: number;
  conversationId?: string;
}

export interface EntityRef {
  entity: UserEntity | GroupEntity;
  entityType: 'user' | 'group';
}

export interface MessageRecord {
  id: string;
  muid?: string;
  conversationId: string;
  sender: string;
  receiverType: ReceiverType;
  receiver: string;
  category: string;
  type: string;
  data: { text?: string; metadata?: JsonObject; entities: { sender: EntityRef; receiver: EntityRef }; [key: string]: JsonValue | object | undefined };
  tags?: string[];
  sentAt: number;
  updatedAt: number;
  quotedMessageId?: string;
  quotedMessage?: MessageRecord;
}

export interface MessageResponse {
  data: MessageRecord;
}

/** The Chat API error body (`/messages`); the emulator answers it outside `/ai-agents`. */
export interface ChatApiErrorBody {
  error: { code: string; message: string; devMessage: string; source: string };
}

/** The AI Agents routes answer this shape (`error` is the HTTP reason phrase); the client must understand both. */
export interface AgentsApiErrorBody {
  statusCode: number;
  message: string | string[];
  error: string;
}

/** The tool-name rule of the interface (ToolDto's `name` pattern), for the manifest schema. */
export const TOOL_NAME_PATTERN = /^[a-zA-Z_$][a-zA-Z0-9_$-]*$/;
