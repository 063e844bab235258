// The body rules of POST /messages: receivers, category/type, text, and the documented size limits.
import type { JsonObject, ReceiverType } from '../../../core/api-types.js';
import { badRequest } from '../../errors.js';
import { isPlainObject, requireObject, requireStringArray } from '../../validate.js';

export const MAX_MESSAGE_BYTES = 65 * 1024;
export const MAX_DATA_BYTES = 10 * 1024;
export const MAX_TAGS = 25;
export const MAX_TAG_LENGTH = 100;
const MESSAGE_TYPES = new Set(['text', 'image', 'file', 'audio', 'video']);
/** UIDs and GUIDs: up to 100 letters, digits, `_` and `-`. */
const ID_PATTERN = /^[a-zA-Z0-9_-]{1,100}$/;

export interface Receiver {
  id: string;
  type: ReceiverType;
}

export interface ParsedMessage {
  /** One receiver, or several from multipleReceivers (which wins over receiver/receiverType). */
  receivers: Receiver[];
  multiple: boolean;
  category: 'message' | 'custom';
  type: string;
  data: JsonObject;
  muid?: string;
  tags?: string[];
  quotedMessageId?: string;
}

export function parseMessageBody(body: JsonObject): ParsedMessage {
  if (Buffer.byteLength(JSON.stringify(body)) > MAX_MESSAGE_BYTES) throw badRequest(`The message is larger than ${MAX_MESSAGE_BYTES} bytes (65 KB).`);
  const multiple = body.multipleReceivers !== undefined;
  const receivers = multiple ? parseMultipleReceivers(body.multipleReceivers) : [parseSingleReceiver(body)];
  const category = body.category ?? 'message';
  if (category !== 'message' && category !== 'custom') throw badRequest('\'category\' must be "message" or "custom".');
  const data = body.data === undefined ? {} : requireObject(body.data, 'data');
  const type = category === 'custom' ? parseCustomContent(body, data) : parseMessageContent(body, data);
  if (data.metadata !== undefined && !isPlainObject(data.metadata)) throw badRequest("'data.metadata' must be an object.");
  if (Buffer.byteLength(JSON.stringify(data)) > MAX_DATA_BYTES) throw badRequest(`'data' is larger than ${MAX_DATA_BYTES} bytes (10 KB).`);
  const parsed: ParsedMessage = { receivers, multiple, category, type, data };
  if (body.muid !== undefined) {
    if (typeof body.muid !== 'string') throw badRequest("'muid' must be a string.");
    parsed.muid = body.muid;
  }
  if (body.tags !== undefined) parsed.tags = parseTags(body.tags);
  if (body.quotedMessageId !== undefined) {
    if (typeof body.quotedMessageId !== 'string' || body.quotedMessageId === '') throw badRequest("'quotedMessageId' must be a non-empty string.");
    parsed.quotedMessageId = body.quotedMessageId;
  }
  return parsed;
}

function parseSingleReceiver(body: JsonObject): Receiver {
  const { receiver, receiverType } = body;
  if (receiver === undefined || receiver === null || receiver === '') throw badRequest("'receiver' is required (or send 'multipleReceivers').");
  if (typeof receiver !== 'string' || !ID_PATTERN.test(receiver)) {
    throw badRequest("'receiver' must be a UID or GUID: up to 100 letters, digits, _ or -.");
  }
  if (receiverType !== 'user' && receiverType !== 'group') throw badRequest('\'receiverType\' must be "user" or "group".');
  return { id: receiverType === 'user' ? receiver.toLowerCase() : receiver, type: receiverType };
}

function parseMultipleReceivers(value: unknown): Receiver[] {
  if (!isPlainObject(value)) throw badRequest("'multipleReceivers' must be an object { uids, guids }.");
  const receivers: Receiver[] = [];
  for (const [key, type] of [
    ['uids', 'user'],
    ['guids', 'group'],
  ] as const) {
    if (value[key] === undefined) continue;
    for (const [index, id] of requireStringArray(value[key], `multipleReceivers.${key}`).entries()) {
      if (!ID_PATTERN.test(id)) throw badRequest(`'multipleReceivers.${key}[${index}]' must be up to 100 letters, digits, _ or -.`);
      receivers.push({ id: type === 'user' ? id.toLowerCase() : id, type });
    }
  }
  if (receivers.length === 0) throw badRequest("'multipleReceivers' must name at least one uid or guid.");
  return receivers;
}

function parseMessageContent(body: JsonObject, data: JsonObject): string {
  const type = body.type ?? 'text';
  if (typeof type !== 'string' || !MESSAGE_TYPES.has(type)) {
    throw badRequest('\'type\' must be one of text, image, file, audio, video for category "message".');
  }
  if (type === 'text' && (typeof data.text !== 'string' || data.text.trim() === '')) {
    throw badRequest("'data.text' is required for a text message.");
  }
  return type;
}

function parseCustomContent(body: JsonObject, data: JsonObject): string {
  if (typeof body.type !== 'string' || body.type === '') throw badRequest("'type' is required for a custom message (any string).");
  if (!isPlainObject(data.customData)) throw badRequest("'data.customData' is required for a custom message (an object).");
  return body.type;
}

function parseTags(value: unknown): string[] {
  const tags = requireStringArray(value as JsonObject[string], 'tags');
  if (tags.length > MAX_TAGS) throw badRequest(`'tags' may hold at most ${MAX_TAGS} tags.`);
  tags.forEach((tag, index) => {
    if (tag.length > MAX_TAG_LENGTH) throw badRequest(`'tags[${index}]' is longer than ${MAX_TAG_LENGTH} characters.`);
  });
  return tags;
}
