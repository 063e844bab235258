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
