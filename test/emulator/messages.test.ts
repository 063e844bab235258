import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MessageRecord, MessageResponse, UserEntity } from '../../src/core/api-types.js';
import { DEFAULT_SENDER_UID } from '../../src/emulator/index.js';
import { startTestEmulator, type TestEmulator } from '../support/emulator.js';
import { errorCode, errorMessage } from './helpers.js';

let emu: TestEmulator;
beforeAll(async () => {
  emu = await startTestEmulator();
});
afterAll(() => emu.close());

const send = (body: unknown, headers: Record<string, string> = {}) => emu.call('POST', '/messages', body, headers);
const textTo = (receiver: string, receiverType: string, extra: Record<string, unknown> = {}) => ({ receiver, receiverType, data: { text: 'Hello' }, ...extra });

describe('POST /messages', () => {
  it('sends a text message to a user on behalf of a user, in the documented shape', async () => {
    const reply = await send(textTo('bob', 'user', { data: { text: 'Hi Bob', metadata: { k: 'v' } }, muid: 'm-1', tags: ['deploy'] }), { onBehalfOf: 'alice' });
    expect(reply.status).toBe(200);
    const message = (reply.json as MessageResponse).data;
    expect(message).toMatchObject({
      conversationId: 'alice_user_bob',
      sender: 'alice',
      receiverType: 'user',
      receiver: 'bob',
      category: 'message',
      type: 'text',
      muid: 'm-1',
      tags: ['deploy'],
      data: { text: 'Hi Bob', metadata: { k: 'v' } },
    });
    expect(typeof message.id).toBe('string');
    expect(Number.isInteger(message.sentAt)).toBe(true);
    expect(Number.isInteger(message.updatedAt)).toBe(true);
    expect(message.sentAt).toBeLessThan(10_000_000_000);
    const sender = message.data.entities.sender;
    expect(sender.entityType).toBe('user');
    expect(sender.entity).toMatchObject({
      uid: 'alice',
      name: expect.any(String),
      avatar: expect.stringMatching(/^https:/),
      status: expect.any(String),
      role: expect.any(String),
      createdAt: expect.any(Number),
    });
    expect(message.data.entities.receiver).toMatchObject({ entityType: 'user', entity: { uid: 'bob', conversationId: 'alice_user_bob' } });
  });

  it('sorts the user-user conversationId whoever sends', async () => {
    const message = ((await send(textTo('alice', 'user'), { onBehalfOf: 'bob' })).json as MessageResponse).data;
    expect(message.conversationId).toBe('alice_user_bob');
  });

  it(`sends as ${DEFAULT_SENDER_UID} without onBehalfOf`, async () => {
    const message = ((await send(textTo('ops', 'group'))).json as MessageResponse).data;
    expect(message.sender).toBe(DEFAULT_SENDER_UID);
    expect(message.conversationId).toBe('group_ops');
    expect(message.data.entities.receiver).toMatchObject({ entityType: 'group', entity: { guid: 'ops', conversationId: 'group_ops' } });
  });

  it('lower-cases UIDs in receiver and onBehalfOf', async () => {
    const message = ((await send(textTo('BOB', 'user'), { onBehalfOf: 'Deploy-Bot' })).json as MessageResponse).data;
    expect(message).toMatchObject({ receiver: 'bob', sender: 'deploy-bot' });
  });

  it('defaults category to message and type to text', async () => {
    const message = ((await send({ receiver: 'ops', receiverType: 'group', data: { text: 'x' } })).json as MessageResponse).data;
    expect(message).toMatchObject({ category: 'message', type: 'text' });
  });

  it('accepts a custom message with any type and customData', async () => {
    const reply = await send({ receiver: 'ops', receiverType: 'group', category: 'custom', type: 'deployment', data: { customData: { version: '1.2.3' } } });
    expect(reply.status).toBe(200);
    expect((reply.json as MessageResponse).data).toMatchObject({ category: 'custom', type: 'deployment', data: { customData: { version: '1.2.3' } } });
  });

  it('accepts media types of the message category', async () => {
    const reply = await send({ receiver: 'bob', receiverType: 'user', type: 'image', data: { attachments: [{ url: 'https://example.com/a.png' }] } });
    expect(reply.status).toBe(200);
  });

  it('answers 404 for an unknown user, group or onBehalfOf user', async () => {
    const user = await send(textTo('nobody', 'user'));
    expect([user.status, errorCode(user)]).toEqual([404, 'ERR_UID_NOT_FOUND']);
    const group = await send(textTo('nogroup', 'group'));
    expect([group.status, errorCode(group)]).toEqual([404, 'ERR_GUID_NOT_FOUND']);
    const behalf = await send(textTo('bob', 'user'), { onBehalfOf: 'ghost' });
    expect([behalf.status, errorCode(behalf)]).toEqual([404, 'ERR_UID_NOT_FOUND']);
    expect(errorMessage(behalf)).toContain('ghost');
  });

  it('includes quotedMessage when quotedMessageId names a message, and 400s when it does not', async () => {
    const original = ((await send(textTo('bob', 'user'))).json as MessageResponse).data;
    const reply = ((await send(textTo('bob', 'user', { quotedMessageId: original.id }))).json as MessageResponse).data;
    expect(reply.quotedMessageId).toBe(original.id);
    expect(reply.quotedMessage).toEqual(original);
    const plain = ((await send(textTo('bob', 'user'))).json as MessageResponse).data;
    expect(plain).not.toHaveProperty('quotedMessage');
    const missing = await send(textTo('bob', 'user', { quotedMessageId: '999999' }));
    expect(missing.status).toBe(400);
    expect(errorMessage(missing)).toContain('quotedMessageId');
  });

  it('sends to multipleReceivers, one record per receiver, keyed by uid and guid', async () => {
    const reply = await send({ multipleReceivers: { uids: ['Alice', 'bob'], guids: ['ops'] }, data: { text: 'All hands' } }, { onBehalfOf: 'deploy-bot' });
    expect(reply.status).toBe(200);
    const data = (reply.json as { data: { users: Record<string, MessageRecord>; groups: Record<string, MessageRecord> } }).data;
    expect(Object.keys(data.users).sort()).toEqual(['alice', 'bob']);
    expect(data.users.alice).toMatchObject({ receiver: 'alice', conversationId: 'alice_user_deploy-bot', sender: 'deploy-bot' });
    expect(data.groups.ops).toMatchObject({ receiver: 'ops', receiverType: 'group', conversationId: 'group_ops' });
    expect(new Set([data.users.alice?.id, data.users.bob?.id, data.groups.ops?.id]).size).toBe(3);
  });

  it('stores nothing when one of multipleReceivers is unknown', async () => {
    const before = ((await send(textTo('bob', 'user'))).json as MessageResponse).data.id;
    const reply = await send({ multipleReceivers: { uids: ['bob', 'ghost'] }, data: { text: 'x' } });
    expect([reply.status, errorCode(reply)]).toEqual([404, 'ERR_UID_NOT_FOUND']);
    const after = ((await send(textTo('bob', 'user'))).json as MessageResponse).data.id;
    expect(Number(after)).toBe(Number(before) + 1);
  });

  const big = (bytes: number) => 'x'.repeat(bytes);
  const rejections: Array<[string, unknown, string]> = [
    ['a missing receiver', { receiverType: 'user', data: { text: 'x' } }, 'receiver'],
    ['a receiver with bad characters', textTo('bob smith', 'user'), 'receiver'],
    ['a receiver longer than 100 characters', textTo('a'.repeat(101), 'user'), 'receiver'],
    ['a missing receiverType', { receiver: 'bob', data: { text: 'x' } }, 'receiverType'],
    ['a receiverType outside the enum', textTo('bob', 'channel'), 'receiverType'],
    ['a category outside the enum', textTo('bob', 'user', { category: 'action' }), 'category'],
    ['a type outside the enum for category message', textTo('bob', 'user', { type: 'sticker' }), 'type'],
    ['a text message without text', { receiver: 'bob', receiverType: 'user', data: {} }, 'data.text'],
    ['a text message without data', { receiver: 'bob', receiverType: 'user' }, 'data.text'],
    ['an empty text', textTo('bob', 'user', { data: { text: '  ' } }), 'data.text'],
    ['a custom message without customData', { receiver: 'bob', receiverType: 'user', category: 'custom', type: 't', data: {} }, 'data.customData'],
    ['a custom message without type', { receiver: 'bob', receiverType: 'user', category: 'custom', data: { customData: {} } }, 'type'],
    ['data that is not an object', textTo('bob', 'user', { data: 'hello' }), 'data'],
    ['metadata that is not an object', textTo('bob', 'user', { data: { text: 'x', metadata: 'm' } }), 'data.metadata'],
    ['data over 10 KB', textTo('bob', 'user', { data: { text: big(10 * 1024) } }), 'data'],
    ['a message over 65 KB', textTo('bob', 'user', { data: { text: 'x' }, muid: big(66 * 1024) }), '65 KB'],
    ['26 tags', textTo('bob', 'user', { tags: Array.from({ length: 26 }, (_, i) => `t${i}`) }), 'tags'],
    ['a tag over 100 characters', textTo('bob', 'user', { tags: [big(101)] }), 'tags[0]'],
    ['tags that are not strings', textTo('bob', 'user', { tags: [1] }), 'tags[0]'],
    ['a non-string muid', textTo('bob', 'user', { muid: 5 }), 'muid'],
    ['multipleReceivers with no receivers', { multipleReceivers: {}, data: { text: 'x' } }, 'multipleReceivers'],
    ['multipleReceivers with non-string uids', { multipleReceivers: { uids: [1] }, data: { text: 'x' } }, 'multipleReceivers.uids[0]'],
  ];
  it.each(rejections)('rejects %s with 400 naming the field', async (_label, body, field) => {
    const reply = await send(body);
    expect(reply.status).toBe(400);
    expect(errorCode(reply)).toBe('ERR_BAD_REQUEST');
    expect(errorMessage(reply)).toContain(field);
  });

  it('accepts exactly 25 tags of 100 characters', async () => {
    const tags = Array.from({ length: 25 }, (_, i) => `${i}`.padEnd(100, 'x'));
    expect((await send(textTo('bob', 'user', { tags }))).status).toBe(200);
  });

  it('keeps user entities intact in the sender and receiver', async () => {
    const message = ((await send(textTo('bob', 'user'), { onBehalfOf: 'alice' })).json as MessageResponse).data;
    const receiver = message.data.entities.receiver.entity as UserEntity;
    expect(receiver.uid).toBe('bob');
    expect(receiver.createdAt).toBe(1735689600);
  });
});
