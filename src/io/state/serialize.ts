// The state file's text. Addresses are sorted so the file diffs well under version control and
// the same content always produces the same bytes.
import { jsonEqual } from '../../core/json-equal.js';
import type { JsonValue } from '../../core/api-types.js';
import type { State } from '../../core/state.js';

export function serializeState(state: State): string {
  const ordered: State = {
    version: state.version,
    lineage: state.lineage,
    serial: state.serial,
    environment: state.environment,
    appId: state.appId,
    region: state.region,
    salt: state.salt,
    resources: Object.fromEntries(
      sortedKeys(state.resources).map((address) => {
        const r = state.resources[address]!;
        return [address, { type: r.type, remoteId: r.remoteId, appliedAt: r.appliedAt, spec: r.spec }];
      }),
    ),
    pending: Object.fromEntries(sortedKeys(state.pending).map((address) => [address, state.pending[address]!])),
  };
  return JSON.stringify(ordered, null, 2) + '\n';
}

/** Same content apart from `serial`, ignoring key order. Linear in the state size. */
export function sameContent(a: State, b: State): boolean {
  return jsonEqual({ ...a, serial: 0 } as unknown as JsonValue, { ...b, serial: 0 } as unknown as JsonValue);
}

function sortedKeys(record: Record<string, unknown>): string[] {
  return Object.keys(record).sort();
}
