// What clients sent, for tests to assert on. It never holds the API key: only the method, the path
// exactly as received (percent-encoding kept), the onBehalfOf header, the body and the outcome.

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

export class RequestLog {
  private entries: RequestLogEntry[] = [];
  private total = 0;
  /** Arrival times, index for index with entries; formatted into `time` only when the log is read. */
  private arrivals: number[] = [];

  open(method: string, path: string, onBehalfOf: string | undefined): RequestLogEntry {
    const entry: RequestLogEntry = { seq: ++this.total, time: '', method, path, body: null, status: null };
    this.arrivals.push(Date.now());
    if (onBehalfOf !== undefined) entry.onBehalfOf = onBehalfOf;
    this.entries.push(entry);
    // Trim in batches so appending stays O(1) amortised.
    if (this.entries.length > REQUEST_LOG_CAPACITY * 1.5) {
      this.entries = this.entries.slice(-REQUEST_LOG_CAPACITY);
      this.arrivals = this.arrivals.slice(-REQUEST_LOG_CAPACITY);
    }
    return entry;
  }

  list(): { requests: RequestLogEntry[]; total: number; dropped: number } {
    const skip = Math.max(0, this.entries.length - REQUEST_LOG_CAPACITY);
    const requests = this.entries.slice(skip);
    requests.forEach((entry, index) => {
      if (entry.time === '') entry.time = new Date(this.arrivals[skip + index] ?? Date.now()).toISOString();
    });
    return { requests, total: this.total, dropped: this.total - requests.length };
  }

  clear(): void {
    this.entries = [];
    this.arrivals = [];
    this.total = 0;
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
