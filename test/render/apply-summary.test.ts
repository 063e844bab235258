import { describe, expect, it } from 'vitest';
import type { ApplyResult } from '../../src/core/apply-types.js';
import { applyResultToJson, renderApplySummary } from '../../src/render/apply-summary.js';

const success: ApplyResult = {
  environment: 'local',
  prune: false,
  ok: true,
  total: 3,
  counts: { created: 1, updated: 1, deleted: 0, forgotten: 1 },
  done: [
    { address: 'tool.a', type: 'tool', action: 'create', remoteId: 'local_a', ms: 1, retries: 0 },
    { address: 'agent.b', type: 'agent', action: 'update', remoteId: 'uid-b', ms: 1, retries: 0 },
    { address: 'website.old', type: 'website', action: 'forget', remoteId: 'batch-9', ms: 0, retries: 0 },
  ],
  failed: [],
  notAttempted: [],
  notify: { status: 'sent', messageId: '17', muid: 'agentsync-x' },
};

describe('apply summary', () => {
  it('ends a success with exactly the contract line, after the forgotten remote ids', () => {
    expect(renderApplySummary(success, { color: false })).toBe(
      'Forgot website.old (remote id batch-9); it stays on the server.\n' + 'Sent the notify message (id 17).\n' + 'Apply complete: 1 created, 1 updated, 1 forgotten.\n',
    );
  });

  it('lists done, failed (call, status, code, message) and not attempted on a failure', () => {
    const failed: ApplyResult = {
      ...success,
      ok: false,
      counts: { created: 1, updated: 0, deleted: 0, forgotten: 0 },
      done: [success.done[0]!],
      failed: [
        {
          address: 'agent.x',
          type: 'agent',
          action: 'create',
          failure: { call: 'POST /ai-agents/agents', status: 0, code: 'ECONNRESET', message: 'connection closed by the server', attempts: 1, maybeCreated: true },
        },
      ],
      notAttempted: [{ address: 'agent.y', type: 'agent', action: 'update', reason: 'the apply stopped after a failure' }],
      notify: { status: 'skipped', reason: 'apply-failed' },
    };
    expect(renderApplySummary(failed, { color: false })).toBe(
      [
        'Apply failed: 1 of 3 changes done, 1 failed, 1 not attempted.',
        'Done (recorded in state):',
        '  + tool.a',
        'Failed:',
        '  + agent.x: POST /ai-agents/agents failed (ECONNRESET): connection closed by the server',
        '    It may have been created: the request may have reached the server. It stays marked pending; the next apply looks for it on the server and adopts it instead of making a second one.',
        'Not attempted:',
        '  ~ agent.y',
        'Fix the cause and run apply again: it does only what remains.',
        '',
      ].join('\n'),
    );
  });

  it('warns when notify failed but still reports the apply as complete', () => {
    const text = renderApplySummary(
      { ...success, notify: { status: 'failed', muid: 'm', failure: { call: 'POST /messages', status: 404, code: 'ERR_GUID_NOT_FOUND', message: 'no group', attempts: 1, maybeCreated: false } } },
      { color: false },
    );
    expect(text).toContain('Warning: the notify message was not sent: POST /messages answered 404 ERR_GUID_NOT_FOUND: no group.');
    expect(text.trimEnd().split('\n').at(-1)).toBe('Apply complete: 1 created, 1 updated, 1 forgotten.');
  });
});

// Issue 40 §3.3: a replacement is counted as one, not as an update.
describe('apply summary of a replacement', () => {
  const replaced: ApplyResult = {
    ...success,
    total: 2,
    counts: { created: 0, updated: 1, replaced: 1, deleted: 0, forgotten: 0 },
    done: [
      { address: 'agent.b', type: 'agent', action: 'update', remoteId: 'uid-b', ms: 1, retries: 0 },
      { address: 'website.site', type: 'website', action: 'update', remoteId: 'w-2', ms: 79, retries: 0, replaced: true, steps: ['crawled', 'processed', 'old deleted'] },
    ],
    notify: { status: 'skipped', reason: 'not-configured' },
  };

  it('counts it as replaced, in the line and in the JSON', () => {
    expect(renderApplySummary(replaced, { color: false })).toBe('Apply complete: 0 created, 1 updated, 1 replaced, 0 forgotten.\n');
    expect(applyResultToJson(replaced).summary).toMatchObject({ created: 0, updated: 1, replaced: 1 });
    expect(applyResultToJson(success).summary).toMatchObject({ created: 1, updated: 1, replaced: 0 });
    // Each done item says whether it was a replacement and what it did, as the progress line does.
    expect(applyResultToJson(replaced).done).toEqual([
      { address: 'agent.b', action: 'update', remoteId: 'uid-b' },
      { address: 'website.site', action: 'update', remoteId: 'w-2', replace: true, steps: ['crawled', 'processed', 'old deleted'] },
    ]);
  });
});
