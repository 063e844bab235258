// A website's discovered URLs, for `kb status`, `kb sync` and `kb wait`: the read the refresh makes
// of every website (core/kinds/website/observe.ts through io/api/read-server.ts), for one.
import { websiteIdOf, websiteObserver } from '../../core/kinds/website/observe.js';
import type { DiscoveredUrl } from '../../core/kinds/website/urls.js';
import type { ApiClient, CallOptions } from './client.js';
import { mapBounded, OBSERVE_CONCURRENCY, readTarget } from './read-server.js';

export { mapBounded, websiteIdOf };

/** Websites read at once: enough to hide latency, few enough to stay inside a rate budget. */
export const WEBSITE_READ_CONCURRENCY = OBSERVE_CONCURRENCY;

export interface WebsiteTarget {
  address: string;
  /** The id the discovered-URL routes take: a URL website's recorded id, the seed form's parentUniqueId. */
  websiteId: string;
}

/** The website's URLs, or undefined when the server says it does not exist. */
export async function readOne(client: ApiClient, target: WebsiteTarget, options: CallOptions = {}): Promise<DiscoveredUrl[] | undefined> {
  const read = await readTarget(client, websiteObserver, { address: target.address, readId: target.websiteId }, options);
  return read?.value;
}
