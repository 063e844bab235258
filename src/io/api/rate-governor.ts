// Decides when the next request may start: at most the configured concurrency in flight, and
// paced by what the server says.
// - When X-Rate-Limit-Remaining gets low, requests are spaced at the limit's steady rate instead of
//   running into zero; a 429's Retry-After pauses everyone, not just the request that got it. A
//   request whose deadline comes before the pause ends is refused at once instead of parked: it
//   could not be sent in time anyway.
// - There is no AIMD window (halving the concurrency on a 429): with the pacing and the shared
//   pause, it changed no benchmark (BENCHMARKS.md, "Machinery kept or removed"), so it went.
import { MAX_TIMER_MS } from './backoff.js';

export interface GovernorClock {
  now(): number;
}

/** What one response told us about the rate limit. */
export interface RateSignal {
  limit?: number;
  remaining?: number;
  /** Time until the window resets, in ms. */
  resetMs?: number;
}

export interface Permit {
  release(): void;
}

/** The answer to a request that cannot start before its deadline: how long the pause still lasts. */
export interface Refusal {
  readonly refused: true;
  readonly waitMs: number;
}

export interface GovernorStats {
  /** 429 answers seen. */
  throttled: number;
  /** Highest number of requests this client had in flight at once. */
  maxInFlight: number;
}

/** CometChat states its limits per minute; X-Rate-Limit is the number allowed in this window. */
const RATE_WINDOW_MS = 60_000;
/** Remaining tokens above which pacing may run a little ahead of the steady rate. */
const SPARE_TOKENS = 3;

interface Waiter {
  deadlineAt: number;
  resolve(grant: Permit | Refusal): void;
}

export class RateGovernor {
  private inFlight = 0;
  private peak = 0;
  private throttled = 0;
  private pausedUntil = 0;
  private spacingMs = 0;
  /** When spacing learnt from a reset header stops: that window is over, and its budget with it. */
  private spacingEndsAt = Number.POSITIVE_INFINITY;
  private lastStart = Number.NEGATIVE_INFINITY;
  private waiting: Waiter[] = [];
  private wakeTimer: ReturnType<typeof setTimeout> | undefined;

  constructor(
    private readonly maxInFlight: number,
    private readonly clock: GovernorClock = { now: () => Date.now() },
  ) {}

  /** A slot to send one request. With a deadline, a pause that outlasts it is a Refusal instead. */
  acquire(): Promise<Permit>;
  acquire(deadlineAt: number): Promise<Permit | Refusal>;
  acquire(deadlineAt = Number.POSITIVE_INFINITY): Promise<Permit | Refusal> {
    return new Promise((resolve) => {
      this.waiting.push({ deadlineAt, resolve });
      this.refuseThoseOutlasted();
      this.pump();
    });
  }

  /** Rate headers of any answer, 429 or not. */
  observe(signal: RateSignal): void {
    const { limit, remaining, resetMs } = signal;
    if (remaining === undefined) return;
    // The requests still in flight will spend from the same budget.
    const left = remaining - Math.max(0, this.inFlight - 1);
    const threshold = Math.max(2 * this.maxInFlight, (limit ?? 0) * 0.05);
    if (left > threshold) {
      this.spacingMs = 0;
      return;
    }
    // A window is a minute at most, whatever a reset header claims: a reset "in 31 years" spread
    // over the one request left would space every later request of the run 31 years apart.
    const windowMs = resetMs === undefined ? undefined : Math.min(resetMs, RATE_WINDOW_MS);
    const steady = limit !== undefined && limit > 0 ? RATE_WINDOW_MS / limit : windowMs !== undefined ? windowMs / Math.max(1, left) : 0;
    // Near the limit, run at its steady rate; while the server still reports a few spare tokens,
    // run slightly faster so timer lateness does not leave capacity unused.
    this.spacingMs = remaining >= SPARE_TOKENS ? steady * 0.9 : steady;
    // Without a limit, the spacing only spreads what is left of this window; the next one is unknown.
    this.spacingEndsAt = (limit === undefined || limit <= 0) && windowMs !== undefined ? this.clock.now() + windowMs : Number.POSITIVE_INFINITY;
    if (left <= 0 && windowMs !== undefined) this.pauseFor(windowMs);
  }

  /** A 429: pause everyone for the server's hint. */
  onThrottled(retryAfterMs: number | undefined): void {
    this.throttled++;
    if (retryAfterMs !== undefined) this.pauseFor(retryAfterMs);
  }

  stats(): GovernorStats {
    return { throttled: this.throttled, maxInFlight: this.peak };
  }

  /** Stops the wake-up timer so a finished process can exit. */
  close(): void {
    if (this.wakeTimer) clearTimeout(this.wakeTimer);
    this.wakeTimer = undefined;
  }

  private pauseFor(ms: number): void {
    this.pausedUntil = Math.max(this.pausedUntil, this.clock.now() + ms);
    this.refuseThoseOutlasted();
  }

  /** Waiters whose deadline comes before the pause ends learn it now, not when the deadline passes. */
  private refuseThoseOutlasted(): void {
    const now = this.clock.now();
    if (this.pausedUntil <= now) return;
    const outlasted = this.waiting.filter((w) => w.deadlineAt < this.pausedUntil);
    if (outlasted.length === 0) return;
    this.waiting = this.waiting.filter((w) => w.deadlineAt >= this.pausedUntil);
    for (const waiter of outlasted) waiter.resolve({ refused: true, waitMs: this.pausedUntil - now });
  }

  private pump(): void {
    while (this.waiting.length > 0 && this.inFlight < this.maxInFlight) {
      const now = this.clock.now();
      const spacingMs = now < this.spacingEndsAt ? this.spacingMs : 0;
      const startAt = Math.max(this.pausedUntil, this.lastStart + spacingMs);
      if (now < startAt) {
        this.wakeAt(startAt - now);
        return;
      }
      const { resolve } = this.waiting.shift() as Waiter;
      this.inFlight++;
      this.peak = Math.max(this.peak, this.inFlight);
      this.lastStart = now;
      let released = false;
      resolve({
        release: () => {
          if (released) return;
          released = true;
          this.inFlight--;
          this.pump();
        },
      });
    }
  }

  private wakeAt(delayMs: number): void {
    if (this.wakeTimer) return;
    this.wakeTimer = setTimeout(
      () => {
        this.wakeTimer = undefined;
        this.pump();
      },
      Math.min(MAX_TIMER_MS, Math.ceil(delayMs)),
    );
  }
}
