// The import use case: under the state lock, read the server, match manifest resources to server
// records nobody tracks yet, and record them as they are on the server. Nothing on the server
// changes. The caller says what it found.
import type { Desired } from '../core/desired.js';
import { planImport, type ImportRequest } from '../core/import-plan.js';
import { refreshState } from '../core/refresh.js';
import { assertComplete, readServer } from '../io/api/read-server.js';
import { createDigester } from '../io/state/digest.js';
import type { StateStore, StateTarget } from '../io/state/index.js';
import type { Connection } from './connection.js';

export interface ImportUseCase {
  desired: Desired;
  store: StateStore;
  target: StateTarget;
  connect: () => Promise<Connection>;
  request: ImportRequest;
  /** When the records were imported (ISO 8601). */
  now: string;
}

export interface Imported {
  /** What was recorded, with the server id it was matched to. */
  imported: { address: string; remoteId: string }[];
  /** Manifest resources the server does not have: apply will create them. */
  unmatched: string[];
}

export async function importResources(useCase: ImportUseCase): Promise<Imported> {
  const session = await useCase.store.open(useCase.target);
  let connection: Connection | undefined;
  try {
    connection = await useCase.connect();
    const snapshot = await readServer(connection.client);
    // A record on a page that could not be read would be reported as not found.
    assertComplete(snapshot, 'import');
    const digest = createDigester(session.state.salt);
    const refreshed = refreshState({ state: session.state, snapshot, digest, sensitiveOf: () => [] });
    const planned = planImport({ desired: useCase.desired, state: session.state, snapshot, refreshed, digest, request: useCase.request, now: useCase.now });
    for (const entry of planned.entries) await session.record(entry);
    return { imported: planned.entries.map((e) => ({ address: e.address, remoteId: e.remoteId })), unmatched: planned.unmatched };
  } finally {
    await connection?.release();
    await session.close();
  }
}
