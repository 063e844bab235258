// The request log's bounds (it must not grow without limit under a benchmark), and what it holds.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REQUEST_LOG_BODY_BUDGET, REQUEST_LOG_CAPACITY, RequestLog } from '../../src/emulator/request-log.js';
import { startTestEmulator, type TestEmulator } from '../support/emulator.js';

describe('RequestLog', () => {
  it('keeps the newest entries up to its capacity and counts the dropped ones', () => {
    const log = new RequestLog();
    for (let i = 0; i < REQUEST_LOG_CAPACITY + 10; i++) log.open('PUT', `/v3/ai-agents/tools/t${i}`, undefined);
    const { requests, total, dropped } = log.list();
    expect(requests).toHaveLength(REQUEST_LOG_CAPACITY);
    expect([total, dropped]).toEqual([REQUEST_LOG_CAPACITY + 10, 10]);
    expect(requests[0]?.seq).toBe(11);
    expect(requests.at(-1)?.path).toBe(`/v3/ai-agents/tools/t${REQUEST_LOG_CAPACITY + 9}`);
  });

  it('drops the oldest bodies once their text passes the memory budget', () => {
    const log = new RequestLog();
    const big = JSON.stringify({ text: 'x'.repeat(1024 * 1024) });
    const perEntry = big.length;
    const count = Math.ceil(REQUEST_LOG_BODY_BUDGET / perEntry) + 5;
    for (let i = 0; i < count; i++) log.setBody(log.open('POST', '/v3/messages', undefined), big, true);
    const { requests, dropped } = log.list();
    expect(requests.length * perEntry).toBeLessThanOrEqual(REQUEST_LOG_BODY_BUDGET);
    expect(dropped).toBeGreaterThanOrEqual(5);
    expect(requests.at(-1)?.body).toEqual({ text: 'x'.repeat(1024 * 1024) });
  });

  it('returns unparsed bodies as text and never stores headers other than onBehalfOf', () => {
    const log = new RequestLog();
    const entry = log.open('PUT', '/v3/ai-agents/tools/a', 'deploy-bot');
    log.setBody(entry, '{"broken', false);
    entry.status = 400;
    expect(log.list().requests[0]).toEqual({ seq: 1, time: expect.any(String), method: 'PUT', path: '/v3/ai-agents/tools/a', onBehalfOf: 'deploy-bot', body: '{"broken', status: 400 });
  });
});

describe('the request log over HTTP holds API requests only, and marks the expected ones', () => {
  let emu: TestEmulator;
  beforeAll(async () => {
    emu = await startTestEmulator();
  });
  afterAll(() => emu.close());

  it("serves a favicon, and neither it nor another path outside /v3 enters the log (a browser's requests are not API requests)", async () => {
    const icon = await fetch(`${emu.origin}/favicon.ico`);
    expect([icon.status, icon.headers.get('content-type')]).toEqual([200, 'image/svg+xml']);
    expect(await icon.text()).toContain('<svg');
    const stray = await fetch(`${emu.origin}/robots.txt`);
    expect(stray.status).toBe(404);
    await stray.arrayBuffer();
    expect((await emu.call('GET', '/ai-agents/tools')).status).toBe(200);
    expect((await emu.requests()).map((r) => `${r.method} ${r.path} ${r.status}`)).toEqual(['GET /v3/ai-agents/tools 200']);
  });

  it('marks the 404 of a PUT that probes for a tool before its POST as expected, and no other 404', async () => {
    await emu.clearRequests();
    const tool = { name: 'probe_me', displayName: 'Probe', executionText: 'x', description: 'd', parameters: {} };
    expect((await emu.call('PUT', '/ai-agents/tools/probe_me', tool)).status).toBe(404);
    expect((await emu.createTool(tool)).status).toBe(200);
    expect((await emu.call('GET', '/ai-agents/tools/nothing_here')).status).toBe(404);
    const log = await emu.requests();
    expect(log.map((r) => [r.method, r.status, r.expected])).toEqual([
      ['PUT', 404, 'a PUT that probes for a tool before creating it with POST'],
      ['POST', 200, undefined],
      ['GET', 404, undefined],
    ]);
  });
});
