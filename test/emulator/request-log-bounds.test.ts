// Reading the request log costs little however big its bodies are: the dashboard's poll carries no
// bodies, `GET /__emulator/requests` cuts long ones and pages at about 1 MB, and one body is
// fetched whole on demand. Real HTTP, a log filled with large bodies, many readers at once.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOG_LIST_BOUNDS, LOG_POLL_BOUNDS, type RequestLogEntry } from '../../src/emulator/request-log.js';
import { API_KEY, startTestEmulator, type TestEmulator } from '../support/emulator.js';

/** 30 bodies of 600 KB: 18 MB of body text, which every poll used to serialise 200 entries of. */
const BIG_BODIES = 30;
const BODY_CHARS = 600 * 1024;
const READERS = 40;

describe('reading the request log is bounded', () => {
  let emu: TestEmulator;
  let token: string;

  beforeAll(async () => {
    emu = await startTestEmulator();
    const page = await (await fetch(`${emu.origin}/`)).text();
    token = /name="agentsync-token" content="([^"]+)"/.exec(page)?.[1] ?? '';
    expect(token).not.toBe('');
    for (let i = 0; i < BIG_BODIES; i++) {
      // A tool whose description is far too long: refused, but its body is in the log as sent.
      const body = JSON.stringify({ name: `big_${i}`, displayName: 'Big', executionText: 'x', description: String(i).padEnd(BODY_CHARS, 'd') });
      const reply = await fetch(`${emu.url}/ai-agents/tools`, { method: 'POST', headers: { apikey: API_KEY, 'content-type': 'application/json' }, body });
      await reply.arrayBuffer();
    }
  });
  afterAll(() => emu.close());

  const dashboardGet = async (path: string): Promise<{ status: number; bytes: number; json: unknown }> => {
    const reply = await fetch(`${emu.origin}/__dashboard/api${path}`, { headers: { 'x-agentsync-token': token } });
    const text = await reply.text();
    return { status: reply.status, bytes: Buffer.byteLength(text), json: JSON.parse(text) as unknown };
  };
  const adminGet = async (path: string): Promise<{ status: number; bytes: number; json: unknown }> => {
    const reply = await fetch(`${emu.origin}/__emulator${path}`);
    const text = await reply.text();
    return { status: reply.status, bytes: Buffer.byteLength(text), json: JSON.parse(text) as unknown };
  };

  it("the dashboard's poll carries no bodies, only their length, and stays under its cap", async () => {
    const { bytes, json } = await dashboardGet('/requests');
    const { requests } = json as { requests: RequestLogEntry[] };
    expect(requests.length).toBe(BIG_BODIES);
    expect(bytes).toBeLessThan(LOG_POLL_BOUNDS.byteCap);
    for (const entry of requests) expect([entry.body, entry.bodyTruncated, (entry.bodyLength ?? 0) > BODY_CHARS]).toEqual(['', true, true]);
  });

  it('one body comes whole on demand, from the dashboard and from /__emulator/requests/<seq>', async () => {
    const { json } = await dashboardGet('/requests');
    const seq = (json as { requests: RequestLogEntry[] }).requests[3]?.seq ?? 0;
    for (const answer of [await dashboardGet(`/requests/${seq}`), await adminGet(`/requests/${seq}`)]) {
      expect(answer.status).toBe(200);
      const entry = answer.json as RequestLogEntry;
      expect(entry.seq).toBe(seq);
      expect(entry.bodyTruncated).toBeUndefined();
      expect((entry.body as { description: string }).description).toHaveLength(BODY_CHARS);
    }
    expect((await adminGet('/requests/999999')).status).toBe(404);
    expect((await adminGet('/requests?after=x')).status).toBe(400);
  });

  it('GET /__emulator/requests cuts long bodies with a marker, pages at its byte cap, and `next` walks every entry once', async () => {
    const seen: number[] = [];
    let pages = 0;
    for (let after = 0; ; pages++) {
      const { bytes, json } = await adminGet(`/requests?after=${after}`);
      const page = json as { requests: RequestLogEntry[]; next?: number; total: number };
      expect(bytes).toBeLessThan(LOG_LIST_BOUNDS.byteCap + 4096);
      for (const entry of page.requests) {
        expect(entry.bodyTruncated).toBe(true);
        expect(entry.body).toHaveLength(LOG_LIST_BOUNDS.bodyChars);
        seen.push(entry.seq);
      }
      if (page.next === undefined) break;
      after = page.next;
    }
    expect(pages).toBeGreaterThan(0);
    expect(seen).toEqual(Array.from({ length: BIG_BODIES }, (_, i) => i + 1));
    // `limit` bounds the count too.
    const limited = (await adminGet('/requests?limit=2')).json as { requests: RequestLogEntry[]; next?: number };
    expect([limited.requests.map((r) => r.seq), limited.next]).toEqual([[1, 2], 2]);
  });

  it(`${READERS} pollers and ${READERS} log readers at once: every answer stays bounded, and the health check and the API answer meanwhile`, async () => {
    const polls = Array.from({ length: READERS }, () => dashboardGet('/requests'));
    const lists = Array.from({ length: READERS }, () => adminGet('/requests'));
    const health = adminGet('/health');
    const api = emu.call('GET', '/ai-agents/tools');
    expect((await health).status).toBe(200);
    expect((await api).status).toBe(200);
    const pollBytes = (await Promise.all(polls)).map((answer) => answer.bytes);
    const listBytes = (await Promise.all(lists)).map((answer) => answer.bytes);
    expect(Math.max(...pollBytes)).toBeLessThan(LOG_POLL_BOUNDS.byteCap);
    expect(Math.max(...listBytes)).toBeLessThan(LOG_LIST_BOUNDS.byteCap + 4096);
    // Each answer holds at most one page, where it used to hold the whole 18 MB of bodies.
    expect(Math.max(...pollBytes, ...listBytes)).toBeLessThan((BIG_BODIES * BODY_CHARS) / 10);
  });
});
