// Waiting on a condition instead of sleeping: poll until it holds, or fail with what was awaited.

export interface WaitOptions {
  /** Give up after this long (default 10 s). */
  timeoutMs?: number;
  /** Between two checks (default 5 ms). */
  intervalMs?: number;
  /** Stop early (without failing) when this turns true, e.g. the child being watched has exited. */
  unless?: () => boolean;
}

/** Resolves once `condition()` holds; rejects with `what` when the deadline passes first. */
export async function waitFor(what: string, condition: () => boolean | Promise<boolean>, options: WaitOptions = {}): Promise<void> {
  const deadline = Date.now() + (options.timeoutMs ?? 10_000);
  for (;;) {
    if (options.unless?.()) return;
    if (await condition()) return;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, options.intervalMs ?? 5));
  }
}
