// An Agent Builder agent as `agentsync export` writes it: keyed by a slug of its name, defaults and
// server-filled empties left out. `knowledge` holds remote ids in the record; the export turns
// those of exported sources into their addresses (core/export-manifest.ts), so it is written here
// as it is and mapped there.
import type { JsonObject } from '../../api-types.js';
import { UserError } from '../../errors.js';
import { jsonEqual } from '../../json-equal.js';
import { slugOf, stringsOf } from '../agent/export.js';
import { factsOf, isEmptyValue } from '../fields.js';
import type { RemoteRecord } from '../kind.js';
import { BUILDER_AGENT_FIELDS } from './fields.js';

/** CreateCometChatAgentDto's order (cometchat-agent-builder.md §1.1), then knowledge. */
export const BUILDER_AGENT_KEY_ORDER = { '': ['name', 'icon', 'isActive', 'description', 'tools', 'apiTools', 'mcpServers', 'instruction', 'metaData', 'model', 'modelMetaData', 'knowledge'] };

export const builderAgentKeyOf = (record: RemoteRecord): string => slugOf(record.identity ?? '');

export function builderAgentEntry(record: RemoteRecord): JsonObject {
  const { spec } = record;
  if (typeof spec.name !== 'string' || spec.name === '') {
    throw new UserError('api_error', `cannot export Agent Builder agent ${record.remoteId ?? '?'}: the server's record has no "name"`);
  }
  const entry: JsonObject = {};
  for (const [field, fact] of factsOf(BUILDER_AGENT_FIELDS)) {
    const value = Object.hasOwn(spec, field) ? spec[field] : undefined;
    if (value === undefined || value === null || (fact.empty && isEmptyValue(value))) continue;
    const written = fact.set ? [...new Set(stringsOf(value))].sort() : value;
    if (fact.default && jsonEqual(written, fact.default())) continue;
    entry[field] = written;
  }
  return entry;
}
