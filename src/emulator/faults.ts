// Fault injection: a per-app token bucket for --rate-limit, a response delay for --latency, and
// random 503s or dropped connections for --fail-rate. All of it can change at runtime.

export type FailMode = 'mixed' | '503' | 'drop';

export interface FaultConfig {
  latencyMs: number;
  /** Requests per minute; null means no limit. */
  rateLimitPerMinute: number | null;
  failRate: number;
  /** How an injected failure shows: a 503, a dropped connection, or either at random. */
  failMode: FailMode;
}

export type FaultDecision = 'none' | '503' | 'drop';

/** Reported in the X-Rate-Limit headers when no limit is set: CometChat's per-app core limit. */
export const NOMINAL_RATE_LIMIT = 10_000;

export interface RateLimitState {
  limit: number;
  remaining: number;
  /** Set when the request was refused: milliseconds until a token is available. */
  retryAfterMs?: number;
}

const UNLIMITED: RateLimitState = Object.freeze({ limit: NOMINAL_RATE_LIMIT, remaining: NOMINAL_RATE_LIMIT });

/**
 * The bucket holds one second's worth of tokens (at least 1), so sustained throughput equals the
 * configured rate: 1,000 requests at 600/min take about 100 s instead of bursting through a minute.
 */
export class TokenBucket {
  private readonly capacity: number;
  private readonly refillPerMs: number;
  private tokens: number;
  private lastRefill: number;

  constructor(
    readonly ratePerMinute: number,
    now = Date.now(),
  ) {
    this.capacity = Math.max(1, ratePerMinute / 60);
    this.refillPerMs = ratePerMinute / 60_000;
    this.tokens = this.capacity;
    this.lastRefill = now;
  }

  take(now = Date.now()): RateLimitState {
    this.refill(now);
    if (this.tokens >= 1) {
      this.tokens -= 1;
      return { limit: this.ratePerMinute, remaining: Math.floor(this.tokens) };
    }
    const retryAfterMs = Math.ceil((1 - this.tokens) / this.refillPerMs);
    return { limit: this.ratePerMinute, remaining: 0, retryAfterMs };
  }

  peek(now = Date.now()): RateLimitState {
    this.refill(now);
    return { limit: this.ratePerMinute, remaining: Math.floor(this.tokens) };
  }

  private refill(now: number): void {
    const elapsed = now - this.lastRefill;
    if (elapsed <= 0) return;
    this.tokens = Math.min(this.capacity, this.tokens + elapsed * this.refillPerMs);
    this.lastRefill = now;
  }
}

/**
 * Lost answers: the next `loseAnswerNext` requests matching `loseAnswerOn` ("METHOD /path-prefix",
 * the path below /v3) are handled, then their connection is dropped without an answer.
 */
export interface LostAnswers {
  loseAnswerNext: number;
  loseAnswerOn: string | null;
}

export class Faults {
  private readonly buckets = new Map<string, TokenBucket>();
  /** Fail exactly this many upcoming requests, before the random fail-rate applies. */
  private failNext = 0;
  private lost: LostAnswers = { loseAnswerNext: 0, loseAnswerOn: null };

  constructor(private config: FaultConfig) {}

  /** Read on every request, so it avoids the copy that `current` makes. */
  get latencyMs(): number {
    return this.config.latencyMs;
  }

  get current(): Readonly<FaultConfig> & { failNext: number } & LostAnswers {
    return { ...this.config, failNext: this.failNext, ...this.lost };
  }

  update(changes: Partial<FaultConfig> & { failNext?: number } & Partial<LostAnswers>): void {
    const { failNext, loseAnswerNext, loseAnswerOn, ...config } = changes;
    if (failNext !== undefined) this.failNext = failNext;
    if (loseAnswerNext !== undefined) this.lost.loseAnswerNext = loseAnswerNext;
    if (loseAnswerOn !== undefined) this.lost.loseAnswerOn = loseAnswerOn;
    if (config.rateLimitPerMinute !== undefined) this.buckets.clear();
    this.config = { ...this.config, ...config };
  }

  /** Consumes a token of the app's bucket, unless no limit is set. */
  takeToken(appId: string): RateLimitState {
    const bucket = this.bucketFor(appId);
    return bucket ? bucket.take() : UNLIMITED;
  }

  peekToken(appId: string): RateLimitState {
    const bucket = this.bucketFor(appId);
    return bucket ? bucket.peek() : UNLIMITED;
  }

  decideFailure(): FaultDecision {
    if (this.failNext > 0) {
      this.failNext--;
      return this.pickMode();
    }
    return this.config.failRate > 0 && Math.random() < this.config.failRate ? this.pickMode() : 'none';
  }

  /** True when this handled request's answer is to be lost (and counts it): its method matches and its path starts with the prefix. */
  takeLostAnswer(method: string, path: string): boolean {
    const on = this.lost.loseAnswerOn;
    if (this.lost.loseAnswerNext === 0 || on === null) return false;
    const space = on.indexOf(' ');
    if (on.slice(0, space) !== method || !path.startsWith(on.slice(space + 1))) return false;
    this.lost.loseAnswerNext--;
    return true;
  }

  private pickMode(): FaultDecision {
    if (this.config.failMode === 'mixed') return Math.random() < 0.5 ? '503' : 'drop';
    return this.config.failMode;
  }

  private bucketFor(appId: string): TokenBucket | undefined {
    const rate = this.config.rateLimitPerMinute;
    if (rate === null) return undefined;
    let bucket = this.buckets.get(appId);
    if (!bucket) {
      bucket = new TokenBucket(rate);
      this.buckets.set(appId, bucket);
    }
    return bucket;
  }
}

/** Headers of both documented generations, so clients written against either work. */
export function rateLimitHeaders(state: RateLimitState, now = Date.now()): Readonly<Record<string, string>> {
  if (state === UNLIMITED) return UNLIMITED_HEADERS;
  return buildRateLimitHeaders(state, now);
}

function buildRateLimitHeaders(state: RateLimitState, now: number): Record<string, string> {
  const headers: Record<string, string> = {
    'X-Rate-Limit': String(state.limit),
    'X-Rate-Limit-Remaining': String(state.remaining),
    'X-RateLimit-Limit': String(state.limit),
    'X-RateLimit-Remaining': String(state.remaining),
  };
  if (state.retryAfterMs !== undefined) {
    const reset = String(Math.ceil((now + state.retryAfterMs) / 1000));
    headers['Retry-After'] = String(Math.max(1, Math.ceil(state.retryAfterMs / 1000)));
    headers['X-Rate-Limit-Reset'] = reset;
    headers['X-RateLimit-Reset'] = reset;
  }
  return headers;
}

/** Built once: without a limit every response carries the same nominal values. */
const UNLIMITED_HEADERS = Object.freeze(buildRateLimitHeaders(UNLIMITED, 0));

const LOSABLE_METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];

/** Why a `loseAnswerOn` value is not "METHOD /path-prefix" (the path below /v3, no query), or undefined when it is. */
export function lostAnswerRuleProblem(value: string): string | undefined {
  const match = /^(\S+) (\/\S*)$/.exec(value);
  if (!match) return 'must be "METHOD /path-prefix", e.g. "POST /ai-agents/agent-builder/knowledge-base/text"';
  const [, method = '', path = ''] = match;
  if (!LOSABLE_METHODS.includes(method)) return `names the method "${method}"; use one of ${LOSABLE_METHODS.join(', ')}`;
  if (path === '/v3' || path.startsWith('/v3/')) return 'names a path with /v3; give the path below /v3';
  if (path.includes('?')) return 'names a query; give the path only';
  return undefined;
}
