// Timestamps for records. updatedAt must visibly change on every update, even when two writes
// land in the same millisecond, so clients can rely on it as a change marker.
export function isoNow(): string {
  return new Date().toISOString();
}

export function isoAfter(previous: string | undefined): string {
  const now = new Date().toISOString();
  // ISO 8601 strings of one format sort like the instants they name, so no parsing is needed here.
  if (previous === undefined || now > previous) return now;
  const last = Date.parse(previous);
  return Number.isNaN(last) ? now : new Date(last + 1).toISOString();
}

export function unixSeconds(): number {
  return Math.floor(Date.now() / 1000);
}

/**
 * The knowledge base's clock: wall time plus an offset that `POST /__emulator/clock` moves forward,
 * so a test can finish a "1.5 s" indexing run at once without sleeping. Only time-driven behaviour
 * (discovered-URL processing) reads it.
 */
export class EmulatorClock {
  private offsetMs = 0;

  now(): number {
    return Date.now() + this.offsetMs;
  }

  advance(ms: number): number {
    this.offsetMs += ms;
    return this.now();
  }
}
