import { describe, expect, it } from 'vitest';
import type { ApplyEvent } from '../../src/io/apply-types.js';
import { createProgress } from '../../src/render/progress.js';

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
  const progress = createProgress({ tty, color: false, total: 2, write: (text) => (out += text) });
  events.forEach((e) => progress.onEvent(e));
  progress.finish();
  return out;
}

describe('apply progress', () => {
  it('prints one plain line per finished change when not on a terminal', () => {
    expect(render(false)).toBe(
      'updated tool.get_weather (PUT, 41 ms, 2 retries)\n' + 'failed agent.support: POST /ai-agents/agents (400 ERR_BAD_REQUEST)\n',
    );
  });

  it('rewrites one live line on a terminal, with done/total and retries', () => {
    const out = render(true);
    expect(out).toContain('\r\u001b[K[0/2] tool.get_weather (2 retries)');
    expect(out).toContain('\r\u001b[K[1/2] agent.support');
    expect(out).toContain('failed agent.support: POST /ai-agents/agents (400 ERR_BAD_REQUEST)\n');
    expect(out.endsWith('\r\u001b[K')).toBe(true);
    expect(out).not.toContain('updated tool.get_weather (');
  });
});
