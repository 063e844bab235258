// Lost answers on any route: `POST /__emulator/config` with `loseAnswerNext` and `loseAnswerOn`
// makes the next n matching requests do their work and then drop the connection unanswered.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { TextEntryRecord } from '../../src/core/agent-builder-wire.js';
import { startTestEmulator, type TestEmulator } from '../support/emulator.js';
import { AGENTS, KB } from './builder-helpers.js';
import { errorCode, errorMessage } from './helpers.js';

const TEXT = `${KB}/text`;
let emu: TestEmulator;
beforeAll(async () => {
  emu = await startTestEmulator();
});
afterAll(() => emu.close());
beforeEach(async () => {
  await emu.reset();
  await emu.configure({ loseAnswerNext: 0, loseAnswerOn: null });
});

const texts = async (): Promise<TextEntryRecord[]> => ((await emu.call('GET', TEXT)).json as { data: TextEntryRecord[] }).data;
const config = async (): Promise<Record<string, unknown>> => (await emu.admin('GET', '/config')).json as Record<string, unknown>;

describe('lost answers', () => {
  it('does the work of the next n matching requests, drops their connections, counts down, then answers again', async () => {
    await emu.configure({ loseAnswerNext: 2, loseAnswerOn: `POST ${TEXT}` });
    expect(await config()).toMatchObject({ loseAnswerNext: 2, loseAnswerOn: `POST ${TEXT}` });
    await expect(emu.call('POST', TEXT, { title: 'One', text: 'x' })).rejects.toThrow();
    expect((await texts()).map((entry) => entry.title)).toEqual(['One']);
    expect(await config()).toMatchObject({ loseAnswerNext: 1 });
    // Another method or another path is answered, and does not count.
    expect((await emu.call('GET', TEXT)).status).toBe(200);
    expect((await emu.call('POST', AGENTS, { name: 'A' })).status).toBe(200);
    expect(await config()).toMatchObject({ loseAnswerNext: 1 });
    await expect(emu.call('POST', TEXT, { title: 'Two', text: 'x' })).rejects.toThrow();
    expect(await config()).toMatchObject({ loseAnswerNext: 0 });
    const third = await emu.call('POST', TEXT, { title: 'Three', text: 'x' });
    expect(third.status).toBe(200);
    expect((await texts()).map((entry) => entry.title)).toEqual(['Three', 'Two', 'One']);
    const logged = (await emu.apiRequests('POST')).filter((entry) => entry.path === `/v3${TEXT}`);
    expect(logged.map((entry) => entry.fault ?? entry.status)).toEqual(['drop', 'drop', 200]);
  });

  it('matches by path prefix below /v3: a rule on the text path also loses a PATCH of one entry', async () => {
    const created = (await emu.call('POST', TEXT, { title: 'T', text: 'old' })).json as { data: { uniqueId: string } };
    await emu.configure({ loseAnswerNext: 1, loseAnswerOn: `PATCH ${TEXT}` });
    await expect(emu.call('PATCH', `${TEXT}/${created.data.uniqueId}`, { text: 'new' })).rejects.toThrow();
    expect((await texts())[0]?.text).toBe('new');
  });

  it('answers a request the handler refuses, and does not count it', async () => {
    await emu.configure({ loseAnswerNext: 1, loseAnswerOn: `POST ${TEXT}` });
    expect((await emu.call('POST', TEXT, { title: '' })).status).toBe(400);
    expect(await config()).toMatchObject({ loseAnswerNext: 1 });
  });

  it.each([
    [{ loseAnswerNext: -1, loseAnswerOn: `POST ${TEXT}` }, "'loseAnswerNext' must be a whole number ≥ 0."],
    [{ loseAnswerNext: 1.5, loseAnswerOn: `POST ${TEXT}` }, "'loseAnswerNext' must be a whole number ≥ 0."],
    [{ loseAnswerNext: 1 }, "'loseAnswerNext' needs 'loseAnswerOn'"],
    [{ loseAnswerOn: 5 }, "'loseAnswerOn' must be"],
    [{ loseAnswerOn: TEXT }, '\'loseAnswerOn\' must be "METHOD /path-prefix"'],
    [{ loseAnswerOn: `FETCH ${TEXT}` }, '\'loseAnswerOn\' names the method "FETCH"'],
    [{ loseAnswerOn: `POST /v3${TEXT}` }, "'loseAnswerOn' names a path with /v3"],
    [{ loseAnswerOn: `GET ${TEXT}?x=1` }, "'loseAnswerOn' names a query"],
  ])('refuses %j with a 400 naming the key, and keeps the old config', async (body, message) => {
    const reply = await emu.admin('POST', '/config', body);
    expect(reply.status).toBe(400);
    expect(errorCode(reply)).toBe('ERR_BAD_REQUEST');
    expect(errorMessage(reply)).toContain(message);
    expect(await config()).toMatchObject({ loseAnswerNext: 0, loseAnswerOn: null });
  });
});
