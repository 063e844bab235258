// Picks the state backend from where the state lives: a postgres:// URL or a file path. Callers
// (cli/) never name a backend. The PostgreSQL code, and the driver with it, loads only when a URL
// is actually used, so start-up and the file backend do not pay for it.
import path from 'node:path';
import { UserError } from '../../core/errors.js';
import { copyIntoFile } from './file-copy.js';
import { createFileStateStore } from './file-store.js';
import { defaultStatePath } from './paths.js';
import { pathForRun } from '../files/run-path.js';
import { isPostgresUrl, looksLikeUrl, parsePgUrl, type PgUrl } from './pg/url.js';
import type { StateBackend, StateStoreOptions, StateWarning } from './store.js';

export interface CreateStateStoreOptions extends StateStoreOptions {
  /** Which state, in a backend that holds many (PostgreSQL). Defaults to the environment name. */
  key: string;
  /** Where the location came from (`--state`, …), for the one message that cannot quote it. */
  source?: string;
  /** The folder a relative file path is in (default: the process's); messages name the path as given. */
  cwd?: string;
}

export function createStateStore(location: string, options: CreateStateStoreOptions): StateBackend {
  if (isPostgresUrl(location)) return lazyPgStore(parsePgUrl(location, options.source ?? '--state'), checkKey(options.key), options);
  if (looksLikeUrl(location)) {
    const scheme = location.slice(0, location.indexOf(':'));
    throw new UserError('usage', `a state URL must start with postgres:// or postgresql:// (got a ${scheme}:// URL from ${options.source ?? '--state'}); anything else is a file path`);
  }
  return fileBackend(pathForRun(options.cwd, location), { ...options, shownAs: location });
}

export interface StateLocationInput {
  /** `--state`. */
  flag?: string | undefined;
  /** AGENTSYNC_STATE_URL. */
  envUrl?: string | undefined;
  /** The manifest's `state` block, interpolated. */
  manifest?: { url?: string | undefined; key?: string | undefined } | undefined;
  manifestFile: string;
  environment: string;
  /** The folder a relative manifest path is in (default: the process's). */
  cwd?: string;
}

export interface StateLocation {
  location: string;
  key: string;
  source: string;
}

/**
 * `--state`, then AGENTSYNC_STATE_URL, then the manifest's `state.url`, then the default file.
 * An empty value counts as unset, so `url: ${AGENTSYNC_STATE_URL:-}` falls back to the file.
 */
export function chooseStateLocation(input: StateLocationInput): StateLocation {
  const key = input.manifest?.key ?? input.environment;
  if (nonEmpty(input.flag)) return { location: input.flag, key, source: '--state' };
  if (nonEmpty(input.envUrl)) return { location: input.envUrl, key, source: 'AGENTSYNC_STATE_URL' };
  const fromManifest = input.manifest?.url;
  if (nonEmpty(fromManifest)) {
    const location = looksLikeUrl(fromManifest) ? fromManifest : path.resolve(pathForRun(input.cwd, path.dirname(input.manifestFile)), fromManifest);
    return { location, key, source: `state.url in ${input.manifestFile}` };
  }
  return { location: defaultStatePath(input.manifestFile, input.environment), key, source: 'the default' };
}

function nonEmpty(value: string | undefined): value is string {
  return value !== undefined && value !== '';
}

function checkKey(key: string): string {
  if (key === '' || key.length > 200) throw new UserError('usage', `the state key must be 1 to 200 characters (got ${key.length})`);
  return key;
}

function lazyPgStore(url: PgUrl, key: string, options: StateStoreOptions): StateBackend {
  const location = `${url.masked} (key ${JSON.stringify(key)})`;
  let loading: Promise<StateBackend> | null = null;
  const backend = () => (loading ??= import('./pg/store.js').then((m) => m.createPgStateStore(url, key, location, options)));
  return {
    location,
    read: async (target) => (await backend()).read(target),
    open: async (target, opts) => (await backend()).open(target, opts),
    copyFrom: async (state, opts) => (await backend()).copyFrom(state, opts),
  };
}

function fileBackend(statePath: string, options: StateStoreOptions & { shownAs?: string }): StateBackend {
  const store = createFileStateStore(statePath, options);
  const warn = options.onWarning ?? ((_w: StateWarning) => undefined);
  return {
    location: store.location,
    read: (target) => store.read(target),
    open: (target, opts) => waitForLock(() => store.open(target, opts), opts?.lockTimeoutMs ?? 0),
    copyFrom: (state, opts = {}) => waitForLock(() => copyIntoFile(statePath, state, opts, warn), opts.lockTimeoutMs ?? 0),
  };
}

const LOCK_POLL_MS = 200;

/** The file lock has no waiting of its own: retry while it is held, until the timeout. */
async function waitForLock<T>(attempt: () => Promise<T>, timeoutMs: number): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      return await attempt();
    } catch (err) {
      if (!(err instanceof UserError) || err.code !== 'state_locked' || timeoutMs <= 0) throw err;
      const left = deadline - Date.now();
      if (left <= 0) throw new UserError(err.code, `${err.message} (gave up after waiting ${Math.round(timeoutMs / 100) / 10} s)`, err.details);
      await new Promise((resolve) => setTimeout(resolve, Math.min(LOCK_POLL_MS, left)));
    }
  }
}
