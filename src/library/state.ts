// The CLI's `state` commands as functions. The state is found as `agentsync state` finds it: from
// `state`, AGENTSYNC_STATE_URL, or the manifest's `environments` and `state` blocks only (these
// work when the rest of the manifest does not validate, which is often when they are needed).
import type { MigrateResult } from '../core/state.js';
import { copyState, forgetEntry, listState as listUseCase, moveEntry, showStateEntry, type Forgotten, type Moved, type StateEntry, type StateListing } from '../app/state.js';
import { createStateStore, type StateBackend, type StateTarget } from '../io/state/index.js';
import { locateState } from '../io/state/locate.js';
import { cwdOf, envOf, inCall, manifestOf, type LoadOptions, type StateOptions } from './call.js';

export interface StateCommandOptions extends Omit<LoadOptions, 'env'>, StateOptions {
  /** Where AGENTSYNC_STATE_URL and the `state` block's ${NAME}s are read. Default `process.env`. */
  env?: Readonly<Record<string, string | undefined>>;
  /** For rm, mv and migrate: wait this long for a lock held by another run. Default 0. */
  lockTimeoutMs?: number;
}

export type { Forgotten, Moved, StateEntry, StateListing };

/** `agentsync state list`: every address in the state, and the creates not yet confirmed. */
export function listState(options: StateCommandOptions = {}): Promise<StateListing> {
  return withStore(options, ({ store, target }) => listUseCase(store, target));
}

/** `agentsync state show ADDRESS`. */
export function showState(address: string, options: StateCommandOptions = {}): Promise<StateEntry> {
  return withStore(options, ({ store, target }) => showStateEntry(store, target, address));
}

/** `agentsync state rm ADDRESS`: forgets one address; the resource stays on the server. */
export function forgetState(address: string, options: StateCommandOptions = {}): Promise<Forgotten> {
  return withStore(options, ({ store, target }) => forgetEntry(store, target, address, options.lockTimeoutMs ?? 0));
}

/** `agentsync state mv FROM TO`: renames one address, so renaming a manifest key is not a delete plus a create. */
export function moveState(from: string, to: string, options: StateCommandOptions = {}): Promise<Moved> {
  return withStore(options, ({ store, target }) => moveEntry(store, target, from, to, options.lockTimeoutMs ?? 0));
}

/** `agentsync state migrate --to`: copies the state to another file or database, keeping its lineage and serial. */
export function migrateState(to: string, options: StateCommandOptions & { force?: boolean } = {}): Promise<MigrateResult> {
  return withStore(options, ({ store, target, key }) => {
    const destination = createStateStore(to, { key, source: 'the destination', cwd: cwdOf(options), ...(options.onWarning ? { onWarning: options.onWarning } : {}) });
    return copyState(store, destination, target, { force: options.force === true, lockTimeoutMs: options.lockTimeoutMs ?? 0 });
  });
}

async function withStore<T>(options: StateCommandOptions, task: (found: { store: StateBackend; target: Partial<StateTarget>; key: string }) => Promise<T>): Promise<T> {
  return inCall(options, async () => {
    const cwd = cwdOf(options);
    const { location, key, source, target } = await locateState({
      file: manifestOf(options),
      fileGiven: options.file !== undefined,
      ...(options.environment === undefined ? {} : { env: options.environment }),
      ...(options.state === undefined ? {} : { state: options.state }),
      processEnv: envOf(options),
      cwd,
    });
    const store = createStateStore(location, { key, source: source === '--state' ? 'the state option' : source, cwd, ...(options.onWarning ? { onWarning: options.onWarning } : {}) });
    return task({ store, target, key });
  });
}
