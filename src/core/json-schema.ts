// The manifest's JSON Schema, generated from the zod schema (the input side: defaults optional).
import * as z from 'zod';
import { manifestSchema } from './schema.js';

export const MANIFEST_SCHEMA_ID = 'urn:agentsync:manifest:1';

export function manifestJsonSchema(): Record<string, unknown> {
  const generated = z.toJSONSchema(manifestSchema, { io: 'input' }) as Record<string, unknown>;
  const { $schema, ...rest } = generated;
  return { $schema, $id: MANIFEST_SCHEMA_ID, title: 'agentsync manifest (agents.yaml)', ...rest };
}
