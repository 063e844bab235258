// Tests of a Node error's `code` (ENOENT, EEXIST, …). Their own module with no import, so a reader
// of files that never writes one (validate's manifest reader) does not load the atomic writer, and
// node:crypto with it, at start-up (P3 in BENCHMARKS.md).

export function hasCode(err: unknown, ...codes: string[]): boolean {
  return typeof err === 'object' && err !== null && codes.includes((err as { code?: unknown }).code as string);
}

export function ignoreCode(...codes: string[]): (err: unknown) => void {
  return (err) => {
    if (!hasCode(err, ...codes)) throw err;
  };
}
