// The server half of refresh: one list call per readable kind (two today, whatever the number of
// resources), read through each kind's module into the shape core/refresh.ts compares.
import { UserError } from '../core/errors.js';
import { isObject, kindOf, RESOURCE_TYPES, type ResourceType } from '../core/kinds/index.js';
import type { KindListing, ServerSnapshot } from '../core/refresh.js';
import { isApiError } from './api/api-error.js';
import type { ApiClient } from './api/client.js';

export async function readServer(client: ApiClient, types: readonly ResourceType[] = RESOURCE_TYPES): Promise<ServerSnapshot> {
  const readable = types.filter((type) => kindOf(type).refresh !== undefined);
  // Every list call settles before a failure is reported, so none is left running (and retrying)
  // while the caller closes the client.
  const settled = await Promise.allSettled(readable.map((type) => readListing(client, type)));
  const failed = settled.find((s): s is PromiseRejectedResult => s.status === 'rejected');
  if (failed) throw failed.reason;
  const listings = settled.map((s) => (s as PromiseFulfilledResult<KindListing>).value);
  const snapshot: ServerSnapshot = {};
  readable.forEach((type, i) => (snapshot[type] = listings[i]));
  return snapshot;
}

async function readListing(client: ApiClient, type: ResourceType): Promise<KindListing> {
  const refresh = kindOf(type).refresh;
  if (!refresh) throw new Error(`${type} cannot be read from the server`);
  const call = `GET ${refresh.listPath}`;
  let answer: unknown;
  try {
    answer = await client.request({ method: 'GET', path: refresh.listPath });
  } catch (err) {
    if (isApiError(err)) throw new UserError('api_error', `could not read the server's ${type}s: ${err.message}`, { call, status: err.status });
    throw err;
  }
  // The reference answers a bare array; `{data: [...]}` is accepted as well.
  const list = Array.isArray(answer) ? answer : isObject(answer) && Array.isArray(answer.data) ? answer.data : undefined;
  if (list === undefined) throw new UserError('api_error', `could not read the server's ${type}s: ${call} did not answer a list`, { call });
  const listing: KindListing = { records: [], matchable: true };
  for (const entry of list) {
    // Skipping a malformed entry would make its resource look deleted and plan a duplicate.
    if (!isObject(entry)) throw new UserError('api_error', `could not read the server's ${type}s: ${call} answered a list with an entry that is not an object`, { call });
    const record = refresh.read(entry);
    if (record === undefined) continue; // a soft-deleted record: not there
    if ((refresh.matchBy === 'key' ? record.identity : record.remoteId) === undefined) listing.matchable = false;
    listing.records.push(record);
  }
  return listing;
}
