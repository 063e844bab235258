// A time bound that always fires. On Node 20, an AbortSignal.timeout() combined through
// AbortSignal.any() is held only weakly: after a full garbage collection it may never fire, and a
// crawl's fetch of a trickling page then outlives its bound for good. A plain setTimeout is held by
// the event loop until it fires or is cleared, so the bound here is a timer and an AbortController.

export interface Deadline {
  /** Aborted when the time is up (reason: an Error with the bound's message) or when `parent` is. */
  readonly signal: AbortSignal;
  /** True once the time is up (not when only the parent was aborted). */
  expired(): boolean;
  /** Stops the timer and lets go of the parent; call it as soon as the bounded work is over. */
  clear(): void;
}

export function deadline(ms: number, parent: AbortSignal, message: string): Deadline {
  const controller = new AbortController();
  let expired = false;
  const onParent = (): void => controller.abort(parent.reason);
  const timer = setTimeout(
    () => {
      expired = true;
      controller.abort(new Error(message));
    },
    Math.max(0, ms),
  );
  if (parent.aborted) onParent();
  else parent.addEventListener('abort', onParent, { once: true });
  return {
    signal: controller.signal,
    expired: () => expired,
    clear() {
      clearTimeout(timer);
      parent.removeEventListener('abort', onParent);
    },
  };
}

/** Why `signal` was aborted, as a phrase: the bound's own message, or the emulator stopping. */
export function abortReason(signal: AbortSignal): string {
  const reason: unknown = signal.reason;
  return reason instanceof Error && reason.name !== 'AbortError' ? reason.message : 'the emulator is stopping';
}
