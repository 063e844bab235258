// The notify message's text: its summary line counts as the apply summary does.
import { describe, expect, it } from 'vitest';
import { notifyText } from '../../src/io/apply/execute-notify.js';

describe('notifyText', () => {
  // Issue 40 §3.3: a replacement is counted as one, not as an update.
  it('counts a replacement as replaced', () => {
    const text = notifyText('local', { created: 0, updated: 1, replaced: 1, deleted: 0, forgotten: 0 }, [
      { address: 'website.site', type: 'website', action: 'update', remoteId: 'w-2', ms: 79, retries: 0, replaced: true },
      { address: 'agent.a', type: 'agent', action: 'update', remoteId: 'u-1', ms: 3, retries: 0 },
    ]);
    expect(text).toBe('agentsync applied to local: 0 created, 1 updated, 1 replaced, 0 forgotten.\n~ agent.a\n~ website.site');
  });
});
