// The apply ledger: what the executor's phases report, and what the summary reads back.
import { describe, expect, it } from 'vitest';
import type { ApplyEvent, DoneItem } from '../../src/core/apply-types.js';
import { UserError } from '../../src/core/errors.js';
import type { CreateChange } from '../../src/core/plan.js';
import { ApplyLedger } from '../../src/io/apply/ledger.js';

function done(address: string): DoneItem {
  return { address, type: 'tool', action: 'create', remoteId: `id-${address}`, ms: 1, retries: 0 };
}

describe('ApplyLedger', () => {
  it('counts a success once its journal write is durable, and reports it then', async () => {
    const events: ApplyEvent[] = [];
    const ledger = new ApplyLedger((event) => events.push(event));
    let durable!: () => void;
    const recorded = ledger.recordWhenDurable(done('tool.a'), new Promise<void>((resolve) => (durable = resolve)));
    expect(ledger.done).toEqual([]);
    expect(events).toEqual([]);
    durable();
    await recorded;
    await ledger.durable();
    expect(ledger.done.map((i) => i.address)).toEqual(['tool.a']);
    expect(events).toEqual([{ kind: 'done', ...done('tool.a') }]);
    expect(ledger.attempted()).toEqual(new Set(['tool.a']));
  });

  it('a journal write that fails leaves the success unrecorded and stops the run, with the first reason', async () => {
    const ledger = new ApplyLedger(() => {});
    await ledger.recordWhenDurable(done('tool.a'), Promise.reject(new UserError('state_unavailable', 'disk full')));
    await ledger.recordWhenDurable(done('tool.b'), Promise.reject(new UserError('state_unavailable', 'still full')));
    expect(ledger.stopped).toBe(true);
    expect(ledger.recordFailure).toBe('disk full');
    expect(ledger.unrecorded.map((i) => i.address)).toEqual(['tool.a', 'tool.b']);
    expect(ledger.done).toEqual([]);
  });

  it('a bug is not a journal failure: it is thrown on', () => {
    const ledger = new ApplyLedger(() => {});
    expect(() => ledger.journalFailed(new TypeError('a bug'))).toThrow('a bug');
    expect(ledger.recordFailure).toBeUndefined();
  });

  it('a failed or blocked change is what later changes find failed', () => {
    const ledger = new ApplyLedger(() => {});
    ledger.recordFailed({ address: 'tool.a', type: 'tool', action: 'create', failure: { call: 'POST /x', status: 500, code: 'E', message: 'no', attempts: 1, maybeCreated: false } });
    const change = { action: 'create', address: 'agent.b', type: 'agent' } as CreateChange;
    expect(ledger.failedAmong(['tool.z', 'tool.a'])).toBe('tool.a');
    ledger.block(change, 'tool.a');
    expect(ledger.hasFailed('agent.b')).toBe(true);
    expect(ledger.blocked).toEqual([{ address: 'agent.b', type: 'agent', action: 'create', reason: 'it needs tool.a, whose call failed' }]);
    expect(ledger.failedTypes()).toEqual(new Set(['tool', 'agent']));
    // A failed call alone does not stop the run: unrelated work goes on.
    expect(ledger.stopped).toBe(false);
  });
});
