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
});
