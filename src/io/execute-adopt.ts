// A create that was sent but never recorded (the process was killed, the answer was lost) may have
// made the agent anyway. Before creating it again, look for exactly that agent: same name, created
// after the pending create was sent, and not already tracked by any address in the state. If there
// is exactly one, the executor adopts it (PATCH to the full spec) instead of creating a duplicate.
import type { AgentRecord } from '../core/api-types.js';
import type { State } from '../core/state.js';
import type { ApiClient } from './api/client.js';

/** Server and local clocks differ; a created agent may look slightly older than our `since`. */
const CLOCK_SKEW_MS = 10 * 60_000;

export interface PendingAdopter {
  /** The uid of the one agent the interrupted create made, or undefined when not provably one. */
  find(name: string, since: string): Promise<string | undefined>;
}

export function createPendingAdopter(client: ApiClient, state: State): PendingAdopter {
  let listing: Promise<AgentRecord[]> | undefined;
  const taken = new Set(Object.values(state.resources).filter((r) => r.type === 'agent').map((r) => r.remoteId));
  return {
    async find(name, since) {
      listing ??= client.listAgents().catch(() => []);
      const sentAt = Date.parse(since);
      const candidates = (await listing).filter(
        (agent) => agent.name === name && !taken.has(agent.uid) && agent.deletedAt == null && !(Date.parse(agent.createdAt) < sentAt - CLOCK_SKEW_MS),
      );
      if (candidates.length !== 1) return undefined;
      const uid = (candidates[0] as AgentRecord).uid;
      taken.add(uid);
      return uid;
    },
  };
}
