// The API client a use case runs on, and how it lets go of it: a client the run opened is closed,
// one the caller lent (the programmatic API's `client` option) is left open for the caller.
import type { ApiClient } from '../io/api/client.js';

export interface Connection {
  client: ApiClient;
  release(): Promise<void>;
}

/** A client opened for this run; released means closed. */
export async function ownConnection(opening: Promise<ApiClient>): Promise<Connection> {
  const client = await opening;
  return { client, release: () => client.close() };
}

/** A client the caller owns; released means only "no longer used by this run". */
export function lentConnection(client: ApiClient): Connection {
  return { client, release: async () => undefined };
}
