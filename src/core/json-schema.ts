// The manifest's JSON Schema, generated from the zod schema (the input side: defaults optional).
import * as z from 'zod/mini';
import { manifestSchema } from './schema.js';

export const MANIFEST_SCHEMA_ID = 'urn:agentsync:manifest:1';

export function manifestJsonSchema(): Record<string, unknown> {
  const generated = z.toJSONSchema(manifestSchema, { io: 'input' }) as Record<string, unknown>;
  const { $schema, ...rest } = generated;
  return { $schema, $id: MANIFEST_SCHEMA_ID, title: 'agentsync manifest (agents.yaml)', ...rest };
}

export const MANIFEST_PART_SCHEMA_ID = 'urn:agentsync:manifest-part:1';

/**
 * The schema of one file of a manifest in many files: the manifest's, with no top-level key
 * required (a part may hold only tools, say). Whether the parts together are whole is validate's.
 */
export function manifestPartJsonSchema(): Record<string, unknown> {
  const { required: _required, ...whole } = manifestJsonSchema();
  return { ...whole, $id: MANIFEST_PART_SCHEMA_ID, title: 'agentsync manifest part (one file of a manifest folder)' };
}
