// Text that comes from outside (a server's message, a failed call's path with a remote id in it, an
// exception's message) may hold a secret: a server that echoes a header back, a secret used as an
// id. That text, and only that text, is scrubbed where it enters (io/api/api-error.ts,
// io/apply/apply-failure.ts, cli/run.ts, cli/multi-env.ts). What agentsync composes itself (addresses,
// keys, field paths, JSON keys) is never rewritten: a secret that happens to be an ordinary word
// (`billing`) must not turn `agent.billing_bot` into `agent.(sensitive)_bot`. Sensitive fields
// never reach output as values in the first place: plans carry their digests, shown as (sensitive).
//
// The secrets belong to one run: a CLI run (cli/run.ts) or one library call (src/index.ts) opens a
// scope with `withSecretScope`, and everything below it, however deep in the API client, scrubs with
// that scope's secrets. An AsyncLocalStorage carries the scope rather than a parameter because the
// scrubbing happens where an error is made, many calls below anything that knows about the run;
// two runs in one process (tests, a server using the library) never see each other's secrets.
import { AsyncLocalStorage } from 'node:async_hooks';
import { Scrubber } from '../../core/scrub.js';

const scopes = new AsyncLocalStorage<Scrubber>();

/** Runs `task` with a secret scope of its own, starting with `initial` (the API key, say). */
export function withSecretScope<T>(initial: Iterable<string | undefined>, task: () => Promise<T>): Promise<T> {
  const scrubber = new Scrubber();
  scrubber.add(initial);
  return scopes.run(scrubber, task);
}

/**
 * Registers values never to print in the current scope: the API keys at start-up, the manifest's
 * secrets once it is resolved. Outside any scope there is nobody to print for, so nothing is kept.
 */
export function hideInOutput(values: Iterable<string | undefined>): void {
  scopes.getStore()?.add(values);
}

/** An empty scrubber still masks the user:password part of URLs. */
const outsideAnyScope = new Scrubber();

/** Outside text with every secret of the current scope (in every form core/echoed-forms.ts lists) and URL credential masked. */
export function scrubOutside(text: string): string {
  return (scopes.getStore() ?? outsideAnyScope).scrub(text);
}
