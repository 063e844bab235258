// The last line of defence for secrets: everything written to stdout and stderr passes through one
// Scrubber (core/scrub.ts). A server that echoes a secret id back, a failing path with a secret in
// it, a debug stack: whatever a later stage prints, the known secret strings and URL passwords are
// gone. The API key is registered at start-up; the manifest's secrets once it is resolved.
import { Scrubber } from '../core/scrub.js';

const scrubber = new Scrubber();
let installed = false;

/** Wraps process.stdout and process.stderr once; safe to call again. */
export function installOutputFilter(env: Readonly<Record<string, string | undefined>>): void {
  scrubber.add([env.COMETCHAT_API_KEY]);
  if (installed) return;
  installed = true;
  for (const stream of [process.stdout, process.stderr]) {
    const write = stream.write.bind(stream) as (chunk: unknown, ...rest: unknown[]) => boolean;
    const filtered = (chunk: unknown, ...rest: unknown[]): boolean => {
      if (typeof chunk === 'string') return write(scrubber.scrub(chunk), ...rest);
      // A Buffer would carry the secret in bytes; decode it (only our own output is written here).
      if (chunk instanceof Uint8Array) return write(scrubber.scrub(Buffer.from(chunk).toString('utf8')), ...rest.filter((r) => typeof r === 'function'));
      return write(chunk, ...rest);
    };
    stream.write = filtered as typeof stream.write;
  }
}

/** Hides these values (and their percent-encoded and JSON-escaped forms) from all later output. */
export function hideInOutput(values: Iterable<string | undefined>): void {
  scrubber.add(values);
}
