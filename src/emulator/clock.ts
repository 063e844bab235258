// Timestamps for records. updatedAt must visibly change on every update, even when two writes
// land in the same millisecond, so clients can rely on it as a change marker.
export function isoNow(): string {
  return new Date().toISOString();
}

export function isoAfter(previous: string | undefined): string {
  const now = Date.now();
  const last = previous === undefined ? Number.NaN : Date.parse(previous);
  return new Date(Number.isNaN(last) || now > last ? now : last + 1).toISOString();
}

export function unixSeconds(): number {
  return Math.floor(Date.now() / 1000);
}
