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

  it('halves the window on a 429 once per generation, and grows it back additively', async () => {
    const { gov, clock } = governor(8);
    const permits = await Promise.all([gov.acquire(), gov.acquire(), gov.acquire()]);
    clock.t += 10;
    for (const p of permits) gov.onThrottled(p, undefined); // three 429s from one generation
    expect(gov.stats()).toMatchObject({ limit: 4, throttled: 3 });
    permits.forEach((p) => p.release());
    for (let i = 0; i < 4; i++) gov.onSuccess(); // ≈ +1 per window's worth of successes
    expect(gov.stats().limit).toBe(4);
    for (let i = 0; i < 40; i++) gov.onSuccess();
    expect(gov.stats().limit).toBe(8);
  });

  it('never cuts below one request in flight', async () => {
    const { gov, clock } = governor(2);
    for (let i = 0; i < 5; i++) {
      const p = await gov.acquire();
      clock.t += 1;
      gov.onThrottled(p, undefined);
      p.release();
    }
    expect(gov.stats().limit).toBe(1);
  });

  it('pauses everyone for a Retry-After', async () => {
    const { gov } = governor(4);
    const p = await gov.acquire();
    gov.onThrottled(p, 60_000);
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
    gov.onThrottled(p, 3_600_000);
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
    gov.onThrottled(p, 60_000);
    expect(await short).toEqual({ refused: true, waitMs: 60_000 });
    p.release();
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(longGranted).toBe(false);
    gov.close();
  });

  it('grants a request whose deadline outlasts the pause, once the pause is over', async () => {
    const { gov, clock } = governor(2);
    const p = await gov.acquire();
    gov.onThrottled(p, 30);
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
      gov.onThrottled(p, 1e15);
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
