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
  /** Parsed JSON when the body parsed, else the raw text (first 4 KB), else null. In a list, a long body is cut (`bodyTruncated`). */
  body: unknown;
  /** Set in a list when `body` is only the start of the body's text: `GET …/requests/<seq>` has it whole. */
  bodyTruncated?: true;
  /** With `bodyTruncated`: the whole body's length, in characters. */
  bodyLength?: number;
  /** null while in flight, and for a connection dropped by --fail-rate. */
  status: number | null;
  /** Set when the request was failed on purpose by the fault injector. */
  fault?: '503' | 'drop';
  /** Why an error answer is part of a normal run, e.g. a PUT that probes for a tool before creating it. */
  expected?: string;
  durationMs?: number;
}

/** One answer's worth of the log, oldest first; `next` is the `after` that continues it, when more remain. */
export interface RequestLogPage {
  requests: RequestLogEntry[];
  total: number;
  dropped: number;
  next?: number;
}

/** How much of the log one answer may hold, so a reader (or a hundred slow ones) costs little memory. */
export interface PageBounds {
  /** Bodies longer than this many characters are cut to it and marked `bodyTruncated`. */
  bodyChars: number;
  /** The answer stops before its entries' JSON passes this many bytes (it always holds at least one). */
  byteCap: number;
}

/** Keeps the newest entries only, so a benchmark cannot grow memory without bound. */
export const REQUEST_LOG_CAPACITY = 20_000;
/** And at most this much body text; older entries go first. */
export const REQUEST_LOG_BODY_BUDGET = 64 * 1024 * 1024;

/** `GET /__emulator/requests`: bodies to 64 KB, and about 1 MB an answer; `next` pages on. */
export const LOG_LIST_BOUNDS: PageBounds = { bodyChars: 64 * 1024, byteCap: 1024 * 1024 };
/** The dashboard's poll: no bodies (one is fetched when opened), and at most 256 KB an answer. */
export const LOG_POLL_BOUNDS: PageBounds = { bodyChars: 0, byteCap: 256 * 1024 };

/** One logged request; serialises to a RequestLogEntry. */
export class LoggedRequest {
  status: number | null = null;
  fault: '503' | 'drop' | undefined;
  expected: string | undefined;
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
    return this.summary(Infinity);
  }

  /** The entry with a body longer than `bodyChars` cut to its first `bodyChars` characters (never parsed then). */
  summary(bodyChars: number): RequestLogEntry {
    const cut = this.bodyText !== null && this.bodyText.length > bodyChars;
    const entry: RequestLogEntry = { seq: this.seq, time: new Date(this.arrivedAt).toISOString(), method: this.method, path: this.path, body: null, status: this.status };
    if (this.onBehalfOf !== undefined) entry.onBehalfOf = this.onBehalfOf;
    if (cut && this.bodyText !== null) {
      entry.body = this.bodyText.slice(0, bodyChars);
      entry.bodyTruncated = true;
      entry.bodyLength = this.bodyText.length;
    } else entry.body = this.parsedBody();
    if (this.fault !== undefined) entry.fault = this.fault;
    if (this.expected !== undefined) entry.expected = this.expected;
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

  /** Every kept entry, whole: for tests of the log itself. Over HTTP, use page(). */
  list(): { requests: RequestLogEntry[]; total: number; dropped: number } {
    const requests = this.entries.slice(this.head).map((entry) => entry.toJSON());
    return { requests, total: this.total, dropped: this.total - requests.length };
  }

  /** The entries after seq `after` (0: from the oldest kept), at most `limit` of them, within `bounds`. */
  page(after: number, limit: number, bounds: PageBounds): RequestLogPage {
    const first = this.entries[this.head];
    const from = first === undefined ? this.entries.length : this.head + Math.max(0, after + 1 - first.seq);
    return this.collect(from, Math.min(this.entries.length, from + limit), bounds);
  }

  /** The newest `count` entries (the newest first to stay when the cap bites), oldest first, for a page that polls. */
  tail(count: number, bounds: PageBounds): RequestLogPage {
    const requests: RequestLogEntry[] = [];
    let bytes = 0;
    for (let index = this.entries.length - 1; index >= Math.max(this.head, this.entries.length - count); index--) {
      const summary = (this.entries[index] as LoggedRequest).summary(bounds.bodyChars);
      bytes += jsonBytes(summary);
      if (bytes > bounds.byteCap && requests.length > 0) break;
      requests.push(summary);
    }
    return { requests: requests.reverse(), total: this.total, dropped: this.dropped() };
  }

  /** One entry whole, body included; undefined once it has been dropped (or never was). */
  entry(seq: number): RequestLogEntry | undefined {
    const first = this.entries[this.head];
    if (first === undefined || !Number.isSafeInteger(seq)) return undefined;
    return this.entries[this.head + seq - first.seq]?.toJSON();
  }

  clear(): void {
    this.entries = [];
    this.head = 0;
    this.total = 0;
    this.bodyBytes = 0;
  }

  private collect(from: number, to: number, bounds: PageBounds): RequestLogPage {
    const requests: RequestLogEntry[] = [];
    let bytes = 0;
    let index = from;
    for (; index < to; index++) {
      const summary = (this.entries[index] as LoggedRequest).summary(bounds.bodyChars);
      bytes += jsonBytes(summary);
      if (bytes > bounds.byteCap && requests.length > 0) break;
      requests.push(summary);
    }
    const page: RequestLogPage = { requests, total: this.total, dropped: this.dropped() };
    const last = requests.at(-1);
    if (index < this.entries.length && last !== undefined) page.next = last.seq;
    return page;
  }

  private dropped(): number {
    return this.total - (this.entries.length - this.head);
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

/** An entry's share of an answer: its JSON and a comma. */
function jsonBytes(entry: RequestLogEntry): number {
  return Buffer.byteLength(JSON.stringify(entry)) + 1;
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
