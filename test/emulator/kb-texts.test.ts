// Knowledge-base text entries on the emulator (`/ai-agents/agent-builder/knowledge-base/text`).
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { TextEntryRecord, TextEntryWriteResponse } from '../../src/core/agent-builder-wire.js';
import { startTestEmulator, type TestEmulator } from '../support/emulator.js';
import { createText, KB } from './builder-helpers.js';
import { agentsError } from './helpers.js';

const TEXT = `${KB}/text`;
let emu: TestEmulator;
beforeAll(async () => {
  emu = await startTestEmulator();
});
afterAll(() => emu.close());
beforeEach(async () => {
  await emu.reset();
  await emu.configure({ createStatus: 200, storeAsSent: false, kbProcessingMs: 1500 });
});

const list = async (): Promise<TextEntryRecord[]> => ((await emu.call('GET', TEXT)).json as { data: TextEntryRecord[] }).data;
const getOne = async (id: string): Promise<TextEntryRecord> => ((await emu.call('GET', `${TEXT}/${id}`)).json as { data: TextEntryRecord }).data;

describe('knowledge-base text entries', () => {
  it('creates with the create status knob: {success, message, data} with the file name and S3 key the title gives', async () => {
    await emu.configure({ createStatus: 201 });
    const reply = await emu.call('POST', TEXT, { title: 'Company  Policy: Document!', text: 'Be kind.' });
    expect(reply.status).toBe(201);
    const body = reply.json as TextEntryWriteResponse;
    expect(body).toMatchObject({ success: true, message: 'Text detail created and uploaded successfully' });
    const { uniqueId } = body.data;
    expect(body.data).toEqual({
      uniqueId,
      title: 'Company  Policy: Document!',
      fileName: 'company-policy-document.md',
      s3Key: `local/text/${uniqueId.slice(0, 8)}/company-policy-document.md`,
      status: 'indexing',
    });
    await emu.configure({ createStatus: 200 });
    expect((await emu.call('POST', TEXT, { title: 'x', text: 'y' })).status).toBe(200);
  });

  it('lists every entry (newest first) and gets one with vectorizationStatus and isActive', async () => {
    const first = await createText(emu, 'First', 'one');
    const second = await createText(emu, 'Second', 'two');
    const entries = await list();
    expect(entries.map((entry) => entry.uniqueId)).toEqual([second.uniqueId, first.uniqueId]);
    expect(Object.keys(entries[0] ?? {}).sort()).toEqual(['createdAt', 'fileName', 's3Key', 'status', 'text', 'title', 'uniqueId', 'updatedAt']);
    expect(await getOne(first.uniqueId)).toMatchObject({
      uniqueId: first.uniqueId,
      title: 'First',
      text: 'one',
      fileName: 'first.md',
      status: 'indexing',
      vectorizationStatus: 'processing',
      isActive: true,
    });
  });

  it('moves indexing → indexed on the emulator clock, and at once with kbProcessingMs 0', async () => {
    const entry = await createText(emu, 'Slow', 'text');
    expect((await getOne(entry.uniqueId)).status).toBe('indexing');
    await emu.admin('POST', '/clock', { advanceMs: 1500 });
    expect(await getOne(entry.uniqueId)).toMatchObject({ status: 'indexed', vectorizationStatus: 'completed' });
    await emu.configure({ kbProcessingMs: 0 });
    expect((await getOne((await createText(emu, 'Fast', 'text')).uniqueId)).status).toBe('indexed');
  });

  it('stores CRLF and lone CR as LF by default, and exactly as sent under storeAsSent', async () => {
    const normalised = await createText(emu, 'Lines', 'a\r\nb\rc\n');
    expect((await getOne(normalised.uniqueId)).text).toBe('a\nb\nc\n');
    await emu.configure({ storeAsSent: true });
    const kept = await createText(emu, 'Lines', 'a\r\nb\rc\n');
    expect((await getOne(kept.uniqueId)).text).toBe('a\r\nb\rc\n');
  });

  it('updates: stores, renames the file from the new title, resets the status to indexing', async () => {
    await emu.configure({ kbProcessingMs: 0 });
    const entry = await createText(emu, 'Old title', 'old');
    expect((await getOne(entry.uniqueId)).status).toBe('indexed');
    await emu.configure({ kbProcessingMs: 1500 });
    const reply = await emu.call('PATCH', `${TEXT}/${entry.uniqueId}`, { title: 'Updated Title', text: 'new' });
    expect(reply.status).toBe(200);
    expect(reply.json).toEqual({
      success: true,
      message: 'Text detail updated successfully',
      data: {
        uniqueId: entry.uniqueId,
        title: 'Updated Title',
        fileName: 'updated-title.md',
        s3Key: `local/text/${entry.uniqueId.slice(0, 8)}/updated-title.md`,
        status: 'indexing',
        vectorizationStatus: 'processing',
      },
    });
    const after = await getOne(entry.uniqueId);
    expect(after).toMatchObject({ text: 'new', status: 'indexing' });
    expect(after.updatedAt).toBeGreaterThan(after.createdAt);
    expect((await emu.call('PATCH', `${TEXT}/${entry.uniqueId}`, { text: 'only text' })).status).toBe(200);
    expect(await getOne(entry.uniqueId)).toMatchObject({ title: 'Updated Title', text: 'only text' });
  });

  it.each([
    ['no title', { text: 'x' }, "'title' is required."],
    ['no text', { title: 'x' }, "'text' is required."],
    ['an empty title', { title: '', text: 'x' }, "'title' must be 1 to 500 characters; it is empty."],
    ['a title of 501 characters', { title: 't'.repeat(501), text: 'x' }, "'title' must be 1 to 500 characters; it has 501."],
    ['a text of 5,001 characters', { title: 'x', text: 't'.repeat(5001) }, "'text' must be 1 to 5000 characters; it has 5001."],
    ['a text that is not a string', { title: 'x', text: 5 }, "'text' must be a string."],
    ['another key', { title: 'x', text: 'y', description: 'z' }, "Unknown field 'description'."],
  ])('refuses a create with %s (400 naming the limit) and stores nothing', async (_label, body, message) => {
    const reply = await emu.call('POST', TEXT, body);
    expect(reply.status).toBe(400);
    expect(agentsError(reply).message).toBe(message);
    expect(await list()).toEqual([]);
  });

  it('accepts the limits themselves: a 500-character title and a 5,000-character text', async () => {
    expect((await emu.call('POST', TEXT, { title: 't'.repeat(500), text: 'x'.repeat(5000) })).status).toBe(200);
  });

  it('refuses an update with nothing to change, a text over the limit or another key, and changes nothing', async () => {
    const entry = await createText(emu, 'Title', 'text');
    const before = await getOne(entry.uniqueId);
    for (const [body, message] of [
      [{}, "Send 'title', 'text' or both."],
      [{ text: 'x'.repeat(5001) }, "'text' must be 1 to 5000 characters; it has 5001."],
      [{ title: 'x', agent: 'y' }, "Unknown field 'agent'."],
    ] as const) {
      const reply = await emu.call('PATCH', `${TEXT}/${entry.uniqueId}`, body);
      expect(reply.status).toBe(400);
      expect(agentsError(reply).message).toBe(message);
    }
    expect(await getOne(entry.uniqueId)).toEqual(before);
  });

  it('deletes: {success, message, data}; then get, update and delete are 404', async () => {
    const entry = await createText(emu, 'Gone soon', 'text');
    const reply = await emu.call('DELETE', `${TEXT}/${entry.uniqueId}`);
    expect(reply.status).toBe(200);
    expect(reply.json).toEqual({
      success: true,
      message: 'Text detail and all associated data deleted successfully',
      data: { uniqueId: entry.uniqueId, fileName: 'gone-soon.md', deletedFromAgents: true, vectorsDeleted: true },
    });
    for (const [method, body] of [
      ['GET', undefined],
      ['PATCH', { text: 'x' }],
      ['DELETE', undefined],
    ] as const) {
      const missing = await emu.call(method, `${TEXT}/${entry.uniqueId}`, body);
      expect(missing.status, method).toBe(404);
      expect(agentsError(missing).message).toContain(`Text entry '${entry.uniqueId}' does not exist`);
    }
    expect(await list()).toEqual([]);
  });
});
