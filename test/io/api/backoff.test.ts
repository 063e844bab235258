import { describe, expect, it } from 'vitest';
import { fullJitterDelay, parseResetTime, parseRetryAfter, retryDelay } from '../../../src/io/api/backoff.js';

const options = { baseMs: 100, capMs: 10_000 };

describe('fullJitterDelay', () => {
  it.each([
    [0, 0.5, 50],
    [1, 0.5, 100],
    [3, 0.999, 799],
    [10, 0.5, 5_000], // capped at 10 s, half of it
    [60, 1 - 1e-9, 9_999],
  ])('attempt %i with random %f waits %i ms', (attempt, random, expected) => {
    expect(fullJitterDelay(attempt, random, options)).toBe(expected);
  });

  it('is uniform from zero: random 0 means no wait', () => {
    expect(fullJitterDelay(5, 0, options)).toBe(0);
  });
});

describe('parseRetryAfter', () => {
  const now = Date.parse('2026-01-01T00:00:00Z');
  it('reads delta-seconds', () => {
    expect(parseRetryAfter('3', now)).toBe(3_000);
    expect(parseRetryAfter(' 0.5 ', now)).toBe(500);
  });
  it('reads an HTTP date', () => {
    expect(parseRetryAfter('Thu, 01 Jan 2026 00:00:07 GMT', now)).toBe(7_000);
    expect(parseRetryAfter('Wed, 31 Dec 2025 23:59:00 GMT', now)).toBe(0);
  });
  it('keeps an absurd hint a finite number, for the deadline check to refuse', () => {
    expect(parseRetryAfter('1000000000', now)).toBe(1e12);
    expect(parseRetryAfter('9'.repeat(400), now)).toBe(1e15);
    expect(parseRetryAfter('Fri, 31 Dec 9999 23:59:59 GMT', now)).toBeGreaterThan(2.5e14);
  });
  it('ignores what it cannot read', () => {
    expect(parseRetryAfter(undefined, now)).toBeUndefined();
    expect(parseRetryAfter('soon', now)).toBeUndefined();
  });
});

describe('parseResetTime', () => {
  const now = 1_767_225_600_000; // 2026-01-01T00:00:00Z
  it('reads a Unix time in seconds', () => expect(parseResetTime('1767225612', now)).toBe(12_000));
  it('reads a Unix time in milliseconds', () => expect(parseResetTime('1767225600250', now)).toBe(250));
  it('reads small numbers as seconds from now', () => expect(parseResetTime('2', now)).toBe(2_000));
  it('never returns a negative wait', () => expect(parseResetTime('1767225000', now)).toBe(0));
  it('ignores garbage', () => expect(parseResetTime('tomorrow', now)).toBeUndefined());
  it('keeps an absurd reset finite', () => {
    expect(parseResetTime('99999999999999', now)).toBe(99_999_999_999_999 - now);
    expect(parseResetTime('9'.repeat(400), now)).toBe(1e15);
  });
});

describe('retryDelay', () => {
  it('uses full jitter without a server hint', () => {
    expect(retryDelay(2, undefined, 0.25, options)).toBe(100);
  });
  it('waits at least the server hint, plus a bounded spread', () => {
    expect(retryDelay(0, 2_000, 0, options)).toBe(2_000);
    const most = retryDelay(0, 2_000, 1 - 1e-9, options);
    expect(most).toBeGreaterThan(2_000);
    expect(most).toBeLessThanOrEqual(2_000 + 100 + 200);
  });
  it('honours a server hint above its own cap (the deadline bounds it instead)', () => {
    expect(retryDelay(0, 60_000, 0, options)).toBe(60_000);
  });
});
