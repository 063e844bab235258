// `apply --wait` at the end of an apply (docs/spec/knowledge-base.md#waiting-for-indexing): waits
// for the manifest's websites to finish indexing, shows progress, lists failed URLs. A separate
// function with one call site in apply-run.ts, so it moves with the apply orchestration. The
// polling is app/kb-wait.ts.
import { isUserError, UserError } from '../core/errors.js';
import { escapeControl } from '../core/terminal-safe.js';
import { scrubOutside } from '../io/api/outside-text.js';
import type { ApiClient } from '../io/api/client.js';
import type { State } from '../core/state.js';
import type { KbWaitOptions, KbWaitResult } from '../app/kb-wait.js';
import { websitesToWaitFor } from '../app/kb.js';
import type { ApplyOptions } from './apply-options.js';
import { useColor } from './options.js';
import { parseWaitTimeout } from './apply-request.js';
import type { LoadedManifest } from './pipeline.js';
import type { CliIo } from './cli-io.js';

/** Poll interval; AGENTSYNC_KB_POLL_MS exists for tests (a real server needs no faster polling). */
const DEFAULT_POLL_MS = 2000;

export async function waitAfterApply(loaded: LoadedManifest, state: State, client: ApiClient, opts: ApplyOptions, io: CliIo, signal?: AbortSignal): Promise<void> {
  const addresses = websitesToWaitFor(loaded.desired, state);
  if (addresses.length === 0) return;
  const { waitForIndexing } = await import('../app/kb-wait.js');
  await followIndexing(io, opts, parseWaitTimeout(opts.waitTimeout), APPLY_STANDS, (options) => waitForIndexing(client, state, addresses, { ...options, ...(signal ? { signal } : {}) }));
}

const APPLY_STANDS = 'the apply itself is complete and recorded';

/**
 * Shows a wait for indexing (apply --wait, kb sync --wait): progress, then the result; a timeout or
 * a failed URL is exit 1. `stands` says what is done whatever the wait's outcome.
 */
export async function followIndexing(
  io: CliIo,
  opts: { json?: boolean; color?: boolean },
  timeoutSeconds: number,
  stands: string,
  wait: (options: Pick<KbWaitOptions, 'timeoutMs' | 'pollMs' | 'onProgress'>) => Promise<KbWaitResult>,
): Promise<void> {
  const { createKbProgress, renderKbWaitResult, CI_PROGRESS_INTERVAL_MS } = await import('../render/kb-progress.js');
  // With --json, stdout carries only the result; the wait's lines go to stderr.
  const out = opts.json === true ? io.stderr : io.stdout;
  const color = opts.json === true ? false : useColor(opts, io.stdout, io.env);
  const progress = createKbProgress({ tty: out.isTTY === true, color, write: (text) => out.write(text), intervalMs: envMs(io, 'AGENTSYNC_KB_PROGRESS_INTERVAL_MS') ?? CI_PROGRESS_INTERVAL_MS });
  out.write('\nWaiting for the knowledge base to finish indexing…\n');
  let result;
  try {
    result = await wait({
      timeoutMs: timeoutSeconds * 1000,
      pollMs: envMs(io, 'AGENTSYNC_KB_POLL_MS') ?? DEFAULT_POLL_MS,
      onProgress: (counts, elapsedMs) => progress.update(counts, elapsedMs),
    });
  } catch (err) {
    throw waitFailure(err, stands);
  } finally {
    progress.finish();
  }
  out.write(renderKbWaitResult(result, color, timeoutSeconds));
  if (result.timedOut) {
    throw new UserError(
      'apply_failed',
      `indexing did not finish within --wait-timeout ${timeoutSeconds}s (${result.counts.remaining} URLs remaining); ${stands}; follow it with \`agentsync kb status\``,
    );
  }
  if (result.failed.length > 0) {
    throw new UserError(
      'apply_failed',
      `indexing finished with ${result.failed.length} failed URL${result.failed.length === 1 ? '' : 's'} (listed above); ${stands}; process them again with \`agentsync kb sync --failed --wait\``,
    );
  }
}

/**
 * The wait comes after the apply (or the sync): whatever stops it (the server gone, a connection
 * reset, an answer it cannot read), what was sent stands, and that is what the user must hear, not
 * "internal error".
 */
function waitFailure(err: unknown, stands: string): UserError {
  const after = `${stands}; follow the indexing with \`agentsync kb status\``;
  if (isUserError(err)) {
    if (err.message.includes(stands)) return err;
    // Indexing ended, with some URLs in a state agentsync does not know: not a stopped wait.
    if (err.details?.outcome === 'unknown') return new UserError(err.code, `${err.message}; ${stands}; see them with \`agentsync kb status --urls\``, err.details);
    return new UserError('apply_failed', `waiting for indexing stopped: ${err.message}; ${after}`, err.details);
  }
  const reason = scrubOutside(err instanceof Error ? err.message : String(err));
  return new UserError('apply_failed', `waiting for indexing stopped: lost the server (${escapeControl(reason)}); ${after}`);
}

function envMs(io: CliIo, name: string): number | undefined {
  const text = io.env[name];
  if (text === undefined || !/^\d+$/.test(text)) return undefined;
  return Number(text);
}
