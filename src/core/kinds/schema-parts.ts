// The zod building blocks the kinds' entry schemas share (kinds/<kind>/manifest.ts) and the
// manifest schema (core/schema.ts) uses around them. Nothing here names a kind.
import * as z from 'zod/mini';
import type { JsonValue } from '../api-types.js';
import { described } from '../zod.js';
import { isObject } from './kind.js';

export const jsonValue: z.ZodMiniType<JsonValue> = z.lazy(() => z.union([z.string(), z.number(), z.boolean(), z.null(), z.array(jsonValue), z.record(z.string(), jsonValue)]));

/** Free-form objects (metaData, integrationMeta, …) keep any JSON. */
export const freeObject = z.record(z.string(), jsonValue);

/** A superRefine's `when`: run even when a sibling field already failed, as long as the value is an object. */
export const isObjectPayload = (payload: { value: unknown }): boolean => isObject(payload.value);

export const httpUrl = z.string().check(z.refine((s) => /^https?:\/\/[^\s/]+/i.test(s) && URL.canParse(s), { message: 'must be an http(s) URL' }));

/**
 * Set-like arrays compare as sets, so they are normalized to sorted and de-duplicated. Which fields
 * are sets is the field tables' `set: true` (core/kinds/<kind>/fields.ts); core/build-desired.ts sorts
 * from there, and test/core/set-facts.test.ts fails when a list here disagrees with its table.
 */
export const nameSet = z.pipe(
  z.array(z.string()),
  z.transform((list: string[]) => [...new Set(list)].sort()),
);

/**
 * A resource's `environments:` (docs/spec/manifest.md#per-environment-resources): it exists only
 * there. Never sent; the names are checked against `environments` by core/resource-environments.ts,
 * which knows them.
 */
export const resourceEnvironments = described(
  z.optional(
    z.pipe(
      z.array(z.string()),
      z.transform((list: string[]) => [...new Set(list)].sort()),
    ),
  ),
  'Only in these environments (default: every environment). Never sent.',
);

/** The key of an agent, a website or an environment; a tool's key is its name (TOOL_NAME_PATTERN). */
export const ADDRESS_KEY_PATTERN = /^[A-Za-z0-9_$][A-Za-z0-9_$.-]*$/;
export const addressKey = z.string().check(z.regex(ADDRESS_KEY_PATTERN, 'key must be letters, digits, _, $, . or -'));
