// Canonical JSON: the same value always gives the same text, whatever the key order it was built
// with. Digests of sensitive values and of saved plans are taken over this text, so two equal
// values must never digest differently.

/**
 * JSON with object keys sorted (by UTF-16 code unit) at every depth. Like JSON.stringify, members
 * that are undefined (or functions) are dropped and such array items become null. Takes `unknown`
 * so that typed records (interfaces without an index signature) need no cast.
 */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  if (Array.isArray(value)) return `[${value.map((item: unknown) => canonicalJson(item)).join(',')}]`;
  const record = value as Record<string, unknown>;
  const members: string[] = [];
  for (const key of Object.keys(record).sort()) {
    const member = record[key];
    if (member !== undefined && typeof member !== 'function') members.push(`${JSON.stringify(key)}:${canonicalJson(member)}`);
  }
  return `{${members.join(',')}}`;
}
