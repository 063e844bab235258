// Text that comes from outside (a server's message, a failed call's path with a remote id in it, an
// exception's message) may hold a secret: a server that echoes a header back, a secret used as an
// id. That text, and only that text, is scrubbed where it enters (io/api/api-error.ts,
// io/apply/apply-failure.ts, cli/run.ts, cli/multi-env.ts). What agentsync composes itself (addresses,
// keys, field paths, JSON keys) is never rewritten: a secret that happens to be an ordinary word
// (`billing`) must not turn `agent.billing_bot` into `agent.(sensitive)_bot`. Sensitive fields
// never reach output as values in the first place: plans carry their digests, shown as (sensitive).
import { Scrubber } from '../../core/scrub.js';

const secrets = new Scrubber();

/** Registers values never to print: the API keys at start-up, the manifest's secrets once it is resolved. */
export function hideInOutput(values: Iterable<string | undefined>): void {
  secrets.add(values);
}

/** Outside text with every registered secret (raw, percent-encoded, JSON-escaped) and URL credential masked. */
export function scrubOutside(text: string): string {
  return secrets.scrub(text);
}
