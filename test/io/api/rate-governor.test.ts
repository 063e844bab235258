import { describe, expect, it } from 'vitest';
import { RateGovernor } from '../../../src/io/api/rate-governor.js';

function governor(max: number) {
  const clock = { t: 1_000, now: () => clock.t };
  return { gov: new RateGovernor(max, clock), clock };
}

describe('RateGovernor', () => {
  it('grants up to the limit at once and queues the rest', async () => {
    const { gov } = governor(2);
    const a = await gov.acquire();
    await gov.acquire();
    let third = false;
    const pending = gov.acquire().then((p) => {
      third = true;
      return p;
    });
    await Promise.resolve();
    expect(third).toBe(false);
    a.release();
    (await pending).release();
    expect(third).toBe(true);
    expect(gov.stats().maxInFlight).toBe(2);
  });

  it('counts a 429 without Retry-After, and keeps the configured concurrency (no AIMD window)', async () => {
    const { gov } = governor(3);
    const permits = await Promise.all([gov.acquire(), gov.acquire(), gov.acquire()]);
    for (let i = 0; i < 3; i++) gov.onThrottled(undefined);
    permits.forEach((p) => p.release());
    const again = await Promise.all([gov.acquire(), gov.acquire(), gov.acquire()]);
    expect(gov.stats()).toEqual({ throttled: 3, maxInFlight: 3 });
    again.forEach((p) => p.release());
  });

  it('pauses everyone for a Retry-After', async () => {
    const { gov } = governor(4);
    const p = await gov.acquire();
    gov.onThrottled(60_000);
    p.release();
    let granted = false;
    void gov.acquire().then(() => (granted = true));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(granted).toBe(false);
    gov.close();
  });

  it('refuses at once a request whose deadline comes before the pause ends', async () => {
    const { gov, clock } = governor(4);
    const p = await gov.acquire();
    gov.onThrottled(3_600_000);
    p.release();
    expect(await gov.acquire(clock.t + 300_000)).toEqual({ refused: true, waitMs: 3_600_000 });
    gov.close();
  });

  it('refuses the queued requests the pause outlasts, and keeps the others waiting', async () => {
    const { gov, clock } = governor(1);
    const p = await gov.acquire();
    const short = gov.acquire(clock.t + 5_000);
    let longGranted = false;
    void gov.acquire(clock.t + 120_000).then(() => (longGranted = true));
    clock.t += 100;
    gov.onThrottled(60_000);
    expect(await short).toEqual({ refused: true, waitMs: 60_000 });
    p.release();
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(longGranted).toBe(false);
    gov.close();
  });

  it('grants a request whose deadline outlasts the pause, once the pause is over', async () => {
    const { gov, clock } = governor(2);
    const p = await gov.acquire();
    gov.onThrottled(30);
    p.release();
    const waiting = gov.acquire(clock.t + 1_000);
    clock.t += 31;
    const grant = await waiting;
    expect('refused' in grant).toBe(false);
  });

  it('never sets a timer longer than setTimeout allows, however long the pause', async () => {
    const warnings: string[] = [];
    const onWarning = (w: Error): number => warnings.push(w.name);
    process.on('warning', onWarning);
    try {
      const { gov } = governor(1);
      const p = await gov.acquire();
      gov.onThrottled(1e15);
      p.release();
      void gov.acquire(); // no deadline: it waits
      await new Promise((resolve) => setTimeout(resolve, 30));
      gov.close();
    } finally {
      process.off('warning', onWarning);
    }
    expect(warnings).toEqual([]);
  });
});
