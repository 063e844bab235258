// What clients sent, for tests to assert on. It never holds the API key: only the method, the path
// exactly as received (percent-encoding kept), the onBehalfOf header, the body and the outcome.
// Bodies are kept as text and parsed only when the log is read: a string costs the garbage
// collector nothing to trace, while thousands of retained parsed bodies slow every request.

export interface RequestLogEntry {
  seq: number;
  /** Arrival time, ISO 8601. */
  time: string;
  method: string;
  path: string;
  onBehalfOf?: string;
  /** Parsed JSON when the body parsed, else the raw text (first 4 KB), else null. */
  body: unknown;
  /** null while in flight, and for a connection dropped by --fail-rate. */
  status: number | null;
  /** Set when the request was failed on purpose by the fault injector. */
  fault?: '503' | 'drop';
  durationMs?: number;
}

/** Keeps the newest entries only, so a benchmark cannot grow memory without bound. */
export const REQUEST_LOG_CAPACITY = 20_000;
/** And at most this much body text; older entries go first. */
export const REQUEST_LOG_BODY_BUDGET = 64 * 1024 * 1024;

/** One logged request; serialises to a RequestLogEntry. */
export class LoggedRequest {
  status: number | null = null;
  fault: '503' | 'drop' | undefined;
  durationMs: number | undefined;
  private bodyText: string | null = null;
  private bodyIsJson = false;
  private readonly arrivedAt = Date.now();

  constructor(
    readonly seq: number,
    readonly method: string,
    readonly path: string,
    readonly onBehalfOf: string | undefined,
  ) {}

  /** `isJson` says the text parsed as JSON, so reading the log may parse it again. */
  setBody(text: string, isJson: boolean): void {
    this.bodyText = text;
    this.bodyIsJson = isJson;
  }

  get bodyBytes(): number {
    return this.bodyText === null ? 0 : this.bodyText.length;
  }

  toJSON(): RequestLogEntry {
    const entry: RequestLogEntry = { seq: this.seq, time: new Date(this.arrivedAt).toISOString(), method: this.method, path: this.path, body: this.parsedBody(), status: this.status };
    if (this.onBehalfOf !== undefined) entry.onBehalfOf = this.onBehalfOf;
    if (this.fault !== undefined) entry.fault = this.fault;
    if (this.durationMs !== undefined) entry.durationMs = this.durationMs;
    return entry;
  }

  private parsedBody(): unknown {
    if (this.bodyText === null || !this.bodyIsJson) return this.bodyText;
    return JSON.parse(this.bodyText) as unknown;
  }
}

export class RequestLog {
  private entries: LoggedRequest[] = [];
  /** Index of the oldest kept entry; entries before it are dropped and compacted away in batches. */
  private head = 0;
  private total = 0;
  private bodyBytes = 0;

  open(method: string, path: string, onBehalfOf: string | undefined): LoggedRequest {
    const entry = new LoggedRequest(++this.total, method, path, onBehalfOf);
    this.entries.push(entry);
    if (this.entries.length - this.head > REQUEST_LOG_CAPACITY) this.dropOldest();
    return entry;
  }

  /** Records the body text of an entry, within the log's memory budget. */
  setBody(entry: LoggedRequest, text: string, isJson: boolean): void {
    entry.setBody(text, isJson);
    this.bodyBytes += text.length;
    while (this.bodyBytes > REQUEST_LOG_BODY_BUDGET && this.entries.length - this.head > 1) this.dropOldest();
  }

  list(): { requests: RequestLogEntry[]; total: number; dropped: number } {
    const requests = this.entries.slice(this.head).map((entry) => entry.toJSON());
    return { requests, total: this.total, dropped: this.total - requests.length };
  }

  /** The newest entries only, for a page that polls: reading all 20 000 every second would be waste. */
  tail(count: number): { requests: RequestLogEntry[]; total: number } {
    const from = Math.max(this.head, this.entries.length - count);
    return { requests: this.entries.slice(from).map((entry) => entry.toJSON()), total: this.total };
  }

  clear(): void {
    this.entries = [];
    this.head = 0;
    this.total = 0;
    this.bodyBytes = 0;
  }

  private dropOldest(): void {
    const oldest = this.entries[this.head];
    this.bodyBytes -= oldest?.bodyBytes ?? 0;
    this.head++;
    // Compact in batches so dropping stays O(1) amortised.
    if (this.head > REQUEST_LOG_CAPACITY / 2) {
      this.entries = this.entries.slice(this.head);
      this.head = 0;
    }
  }
}

/** Concurrency as the server sees it, so client tests can prove their own concurrency limit. */
export class InFlightGauge {
  inFlight = 0;
  maxInFlight = 0;
  requests = 0;

  begin(): void {
    this.requests++;
    this.inFlight++;
    if (this.inFlight > this.maxInFlight) this.maxInFlight = this.inFlight;
  }

  end(): void {
    this.inFlight--;
  }

  reset(): void {
    this.maxInFlight = this.inFlight;
    this.requests = 0;
  }
}
