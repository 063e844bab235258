// A create that was sent but never recorded (the process was killed, the answer was lost) may
// have made the resource anyway. A refreshed plan already knows (core/diff.ts marks it `adopt`);
// a plan that did not read the server (`plan --offline --out`, then `apply PLANFILE`) asks here,
// once per kind, before sending a create that is not safe to repeat.
import type { DesiredResource } from '../../core/desired.js';
import { UserError } from '../../core/errors.js';
import { couldBeCreatedSince, kindOf, type RemoteRecord, type ResourceType } from '../../core/kinds/index.js';
import type { KindListing } from '../../core/refresh.js';
import type { State } from '../../core/state.js';
import type { ApiClient } from '../api/client.js';
import { readServer } from '../api/read-server.js';

export interface PendingAdopter {
  /**
   * The remote id of the one record the interrupted create made, or undefined when there is none.
   * Throws a UserError when the server cannot be read: sending the create again could duplicate it.
   */
  find(resource: DesiredResource, since: string): Promise<string | undefined>;
}

export function createPendingAdopter(client: ApiClient, state: State): PendingAdopter {
  const listings = new Map<ResourceType, Promise<KindListing | undefined>>();
  const taken = new Set(Object.values(state.resources).map((r) => `${r.type}:${r.remoteId}`));
  return {
    async find(resource, since) {
      const kind = kindOf(resource.type);
      if (!kind.identityOf || !kind.refresh) return undefined;
      let listing = listings.get(resource.type);
      if (listing === undefined) {
        // The client already retried the GET; failing here keeps the pending mark for the next run.
        listing = readServer(client, [resource.type]).then((snapshot) => snapshot[resource.type]);
        listings.set(resource.type, listing);
      }
      let records: readonly RemoteRecord[];
      let incomplete: string | undefined;
      try {
        const read = await listing;
        records = read?.records ?? [];
        incomplete = read?.incomplete;
      } catch (err) {
        const why = err instanceof Error ? err.message : String(err);
        throw new UserError(
          'api_error',
          `${resource.address}: an earlier apply sent its create but never learned the answer, and the server could not be read to check whether it exists (${why}); nothing was sent, so no duplicate was made. Run apply again once the server answers.`,
        );
      }
      const identity = kind.identityOf(resource.spec, resource.key);
      const candidates = records.filter(
        (r) => r.identity === identity && r.remoteId !== undefined && !taken.has(`${resource.type}:${r.remoteId}`) && couldBeCreatedSince(r, since) && (kind.madeBy?.(resource.spec, r) ?? true),
      );
      if (candidates.length === 0 && incomplete !== undefined) {
        // Not on the pages that could be read is not "not created": sending again could duplicate it.
        throw new UserError(
          'api_error',
          `${resource.address}: an earlier apply sent its create but never learned the answer, and the server's list ${incomplete}, so it cannot be ruled out that the create happened; nothing was sent. Run apply again once the server answers, or adopt it with \`agentsync import ${resource.address} <uid>\`.`,
        );
      }
      if (candidates.length === 0 && kind.refresh.matchBy === 'remoteId') refuseIdless(resource, records, identity, since);
      if (candidates.length !== 1) return undefined;
      const remoteId = (candidates[0] as RemoteRecord).remoteId as string;
      taken.add(`${resource.type}:${remoteId}`);
      return remoteId;
    },
  };
}

/**
 * The server lists a record with this name but without its id (one public version lists agents
 * so). It may be the one the lost create made; sending the create again could duplicate it, and
 * its id cannot be made up from its name. Nothing is sent, the pending mark stays, and the user,
 * who can look the id up, imports it.
 */
function refuseIdless(resource: DesiredResource, records: readonly RemoteRecord[], identity: string, since: string): void {
  if (!records.some((r) => r.identity === identity && r.remoteId === undefined && couldBeCreatedSince(r, since))) return;
  const label = kindOf(resource.type).remoteIdLabel;
  throw new UserError(
    'conflict',
    `${resource.address}: an earlier apply sent its create but never learned the answer, and the server lists a ${resource.type} with its name without its ${label}; nothing was sent, so no duplicate was made. Find its ${label} and run \`agentsync import ${resource.address} <${label}>\`.`,
  );
}
