// Messages: POST /messages. The sender is the `onBehalfOf` user, or agentsync-system without it.
import type { IncomingHttpHeaders } from 'node:http';
import type { EntityRef, MessageRecord, UserEntity } from '../../../core/api-types.js';
import { ERROR_CODES } from '../../error-codes.js';
import { unixSeconds } from '../../clock.js';
import { badRequest, notFound } from '../../errors.js';
import type { ApiRequest, ApiResponse, Route } from '../../router.js';
import { DEFAULT_SENDER_UID } from '../../seed.js';
import type { EmulatorStore, StoredMessage } from '../../store.js';
import { quoteList, requireObjectBody } from '../../validate.js';
import { parseMessageBody, type ParsedMessage, type Receiver } from './body.js';

export function messageRoutes(store: EmulatorStore): Route[] {
  return [{ pattern: '/messages', methods: { POST: (request) => sendMessage(store, request) } }];
}

function sendMessage(store: EmulatorStore, request: ApiRequest): ApiResponse {
  const message = parseMessageBody(requireObjectBody(request.body));
  const sender = findSender(store, request.headers);
  const receiverRefs = message.receivers.map((receiver) => receiverEntity(store, receiver));
  const quoted = message.quotedMessageId === undefined ? undefined : store.messages.get(message.quotedMessageId);
  if (message.quotedMessageId !== undefined && !quoted) throw badRequest(`'quotedMessageId' names message '${message.quotedMessageId}', which does not exist.`);
  const records = message.receivers.map((receiver, index) => storeMessage(store, message, sender, receiver, receiverRefs[index] as EntityRef));
  store.changed();
  const withQuote = (record: StoredMessage): MessageRecord => (quoted ? { ...record, quotedMessage: quoted } : record);
  if (!message.multiple) return { status: 200, body: { data: withQuote(records[0] as StoredMessage) } };
  // One record per receiver, keyed by UID and GUID, as CometChat answers a multi-receiver send.
  const users: Record<string, MessageRecord> = {};
  const groups: Record<string, MessageRecord> = {};
  for (const record of records) (record.receiverType === 'user' ? users : groups)[record.receiver] = withQuote(record);
  return { status: 200, body: { data: { users, groups } } };
}

function findSender(store: EmulatorStore, headers: IncomingHttpHeaders): UserEntity {
  const header = headers.onbehalfof;
  if (header === undefined) return store.users.get(DEFAULT_SENDER_UID) ?? fallbackSender();
  const uid = (Array.isArray(header) ? header.join(',') : header).trim().toLowerCase();
  if (uid === '') throw badRequest("The 'onBehalfOf' header must name a user.");
  const user = store.users.get(uid);
  if (!user) throw notFound(ERROR_CODES.uidNotFound, `The onBehalfOf user '${uid}' does not exist.`);
  return user;
}

/** Only reachable if a data file dropped the default sender; the message still needs one. */
function fallbackSender(): UserEntity {
  return { uid: DEFAULT_SENDER_UID, name: 'agentsync', status: 'offline', role: 'default', createdAt: 0 };
}

function receiverEntity(store: EmulatorStore, receiver: Receiver): EntityRef {
  if (receiver.type === 'user') {
    const user = store.users.get(receiver.id) ?? agentAsUser(store, receiver.id);
    if (!user) throw notFound(ERROR_CODES.uidNotFound, `User ${quoteList([receiver.id])} does not exist.`);
    return { entity: user, entityType: 'user' };
  }
  const group = store.groups.get(receiver.id);
  if (!group) throw notFound(ERROR_CODES.guidNotFound, `Group ${quoteList([receiver.id])} does not exist.`);
  return { entity: group, entityType: 'group' };
}

/** On CometChat an AI agent is also a chat user with the agent's uid, so it can receive messages. */
function agentAsUser(store: EmulatorStore, uid: string): UserEntity | undefined {
  const agent = store.liveAgent(uid);
  if (!agent) return undefined;
  const entity: UserEntity = { uid: agent.uid, name: agent.name, status: 'online', role: 'agent', createdAt: Math.floor(Date.parse(agent.createdAt) / 1000) };
  if (agent.icon) entity.avatar = agent.icon;
  return entity;
}

/** user-user: the two UIDs sorted and joined by `_user_`; group: `group_<guid>`. */
export function conversationIdFor(senderUid: string, receiver: Receiver): string {
  if (receiver.type === 'group') return `group_${receiver.id}`;
  const [first, second] = [senderUid, receiver.id].sort();
  return `${first}_user_${second}`;
}

function storeMessage(store: EmulatorStore, message: ParsedMessage, sender: UserEntity, receiver: Receiver, receiverRef: EntityRef): StoredMessage {
  const conversationId = conversationIdFor(sender.uid, receiver);
  const now = unixSeconds();
  const record: StoredMessage = {
    id: store.takeMessageId(),
    conversationId,
    sender: sender.uid,
    receiverType: receiver.type,
    receiver: receiver.id,
    category: message.category,
    type: message.type,
    data: {
      ...message.data,
      entities: {
        sender: { entity: sender, entityType: 'user' },
        receiver: { entity: { ...receiverRef.entity, conversationId }, entityType: receiverRef.entityType },
      },
    },
    sentAt: now,
    updatedAt: now,
  };
  if (message.muid !== undefined) record.muid = message.muid;
  if (message.tags !== undefined) record.tags = message.tags;
  if (message.quotedMessageId !== undefined) record.quotedMessageId = message.quotedMessageId;
  store.messages.set(record.id, record);
  return record;
}
