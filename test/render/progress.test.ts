import { describe, expect, it } from 'vitest';
import type { ApplyEvent } from '../../src/core/apply-types.js';
import { createProgress } from '../../src/render/progress.js';
import { screenOf } from '../support/screen.js';

const base = { address: 'tool.get_weather', type: 'tool', action: 'update' } as const;
const events: ApplyEvent[] = [
  { kind: 'start', ...base, call: 'PUT /ai-agents/tools/get_weather' },
  { kind: 'retry', ...base, call: 'PUT /ai-agents/tools/get_weather', retry: 1, delayMs: 100, reason: '503' },
  { kind: 'retry', ...base, call: 'PUT /ai-agents/tools/get_weather', retry: 2, delayMs: 200, reason: '503' },
  { kind: 'done', ...base, call: 'PUT /ai-agents/tools/get_weather', ms: 41, remoteId: 'local_get_weather', retries: 2 },
  { kind: 'start', address: 'agent.support', type: 'agent', action: 'create', call: 'POST /ai-agents/agents' },
  {
    kind: 'failed',
    address: 'agent.support',
    type: 'agent',
    action: 'create',
    failure: { call: 'POST /ai-agents/agents', status: 400, code: 'ERR_BAD_REQUEST', message: 'bad', attempts: 1, maybeCreated: false },
  },
];

function render(tty: boolean): string {
  let out = '';
  const progress = createProgress({ tty, color: false, total: 2, tickMs: 0, now: () => 0, write: (text) => (out += text) });
  events.forEach((e) => progress.onEvent(e));
  progress.finish();
  return out;
}

describe('apply progress', () => {
  it('prints one plain line per finished change when not on a terminal', () => {
    expect(render(false)).toBe('updated tool.get_weather (PUT, 41 ms, 2 retries)\n' + 'failed agent.support: POST /ai-agents/agents (400 ERR_BAD_REQUEST)\n');
  });

  it('on a terminal keeps one permanent line per finished change, under a live line of what is in flight', () => {
    const out = render(true);
    expect(out).toContain('\r\u001b[K[0/2] 0 s, in flight: tool.get_weather (2 retries)');
    expect(out).toContain('\r\u001b[K[1/2] 0 s, in flight: agent.support');
    // What stays on the screen once the live line is cleared: Terraform's "address: outcome" lines.
    expect(screenOf(out)).toEqual(['tool.get_weather: updated (PUT, 41 ms, 2 retries)', 'agent.support: failed: POST /ai-agents/agents (400 ERR_BAD_REQUEST)', '']);
  });

  it('cuts the live line to the terminal width, so rewriting it never wraps', () => {
    let out = '';
    const progress = createProgress({ tty: true, color: false, total: 30, columns: 40, tickMs: 0, write: (text) => (out += text) });
    for (let i = 0; i < 30; i++) progress.onEvent({ kind: 'start', address: `tool.t${i}`, type: 'tool', action: 'create' });
    const live = out.split('\r\u001b[K').at(-1) ?? '';
    expect(live.length).toBeLessThan(40);
    expect(live.endsWith('…')).toBe(true);
    progress.finish();
  });
});

// Issue 40 §3.3: a replacement says it replaced, and what it did, instead of naming its last call.
describe('apply progress of a replacement', () => {
  const done: ApplyEvent = {
    kind: 'done',
    address: 'website.site',
    type: 'website',
    action: 'update',
    call: 'DELETE /ai-agents/agent-builder/knowledge-base/website/w-1',
    ms: 79,
    remoteId: 'w-2',
    retries: 0,
    replaced: true,
    steps: ['crawled', 'processed', 'old deleted'],
  };
  const lineOf = (tty: boolean): string => {
    let out = '';
    const progress = createProgress({ tty, color: false, total: 1, tickMs: 0, now: () => 0, write: (text) => (out += text) });
    progress.onEvent(done);
    progress.finish();
    return screenOf(out)[0] ?? '';
  };

  it('reads "replaced" with its steps, on a terminal and off', () => {
    expect(lineOf(false)).toBe('replaced website.site (crawled, processed, old deleted, 79 ms)');
    expect(lineOf(true)).toBe('website.site: replaced (crawled, processed, old deleted, 79 ms)');
  });
});
