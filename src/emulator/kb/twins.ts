// The `kbTwinUrls` knob: a server that lists one discovered URL under a second URL too (a twin:
// the same id, another spelling or a second path to the same page). A client must treat what it
// does to either URL as done to the id, so the emulator can list them for a test to see.

/** One knob entry: the listed URL and its twin, two http(s) URLs separated by white space. */
const ENTRY = /^\s*(https?:\/\/\S+)\s+(https?:\/\/\S+)\s*$/;

/** Why a `kbTwinUrls` entry is unusable, or undefined when it is fine. */
export function twinEntryProblem(entry: string): string | undefined {
  const match = ENTRY.exec(entry);
  if (!match || !URL.canParse(match[1] ?? '') || !URL.canParse(match[2] ?? '')) return 'must be "<listed URL> <twin URL>", two http(s) URLs separated by a space';
  return undefined;
}

/** listed URL → its twin. */
function twinMap(entries: readonly string[]): Map<string, string> {
  const twins = new Map<string, string>();
  for (const entry of entries) {
    const match = ENTRY.exec(entry);
    if (match?.[1] !== undefined && match[2] !== undefined) twins.set(match[1], match[2]);
  }
  return twins;
}

/** The page's records with each listed URL's twin right after it: the same record, another `url`. */
export function withTwins(records: readonly Record<string, unknown>[], entries: readonly string[]): Record<string, unknown>[] {
  if (entries.length === 0) return [...records];
  const twins = twinMap(entries);
  return records.flatMap((record) => {
    const twin = typeof record.url === 'string' ? twins.get(record.url) : undefined;
    return twin === undefined ? [record] : [record, { ...record, url: twin }];
  });
}
