// `state migrate`: copies one state to another backend (or another place), lineage and serial
// kept, so saved plans and the next apply see the same state. Both locks are held while copying,
// so no apply can change the source halfway and nobody is using the destination.
import path from 'node:path';
import { UserError } from '../../core/errors.js';
import type { MigrateResult } from '../../core/state.js';
import type { CopyOptions, StateBackend, StateTarget } from './store.js';

export type { MigrateResult };

export async function migrateState(source: StateBackend, destination: StateBackend, target: Partial<StateTarget>, opts: CopyOptions): Promise<MigrateResult> {
  if (samePlace(source.location, destination.location)) {
    throw new UserError('usage', `--to names the state being migrated (${source.location}); give another file or URL`);
  }
  const found = await source.read(target);
  if (found === null) throw new UserError('usage', `no state at ${source.location}: nothing has been applied yet, so there is nothing to migrate`, { state: source.location });
  const session = await source.open({ environment: found.environment, appId: found.appId, region: found.region }, { lockTimeoutMs: opts.lockTimeoutMs ?? 0 });
  let copied;
  try {
    copied = structuredClone(session.state);
    await destination.copyFrom(copied, opts);
  } finally {
    await session.close();
  }
  return {
    from: source.location,
    to: destination.location,
    environment: copied.environment,
    lineage: copied.lineage,
    serial: copied.serial,
    resources: Object.keys(copied.resources).length,
    pending: Object.keys(copied.pending).length,
  };
}

function samePlace(a: string, b: string): boolean {
  return a === b || path.resolve(a) === path.resolve(b);
}
