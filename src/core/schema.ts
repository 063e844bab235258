// The manifest format (docs/spec/manifest.md#top-level-keys) as one zod schema. It is the single
// source of the manifest's TypeScript types, of validation and of `agentsync schema`. Parsing
// applies the defaults, so the parsed output is already the normalized spec that the diff compares
// and the API receives.
import * as z from 'zod/mini';
import { described, optionalSection } from './zod.js';
import { REGIONS, type JsonValue } from './api-types.js';
import { entryOf, type ENTRIES } from './kinds/entries.js';
import type { KindSections } from './kinds/entry.js';
import { RESOURCE_TYPES } from './kinds/resource-types.js';
import { addressKey, jsonValue } from './kinds/schema-parts.js';
import { APP_ID_PATTERN } from './base-url.js';
import { LINT_RULE_IDS, LINT_SETTINGS, type LintRuleId, type LintSetting } from './lint/rule-ids.js';

/**
 * A `vars` value: a scalar is text wherever it is used; a list or map is taken whole by a value that
 * is exactly ${var.NAME}. Built on first use (z.lazy), like the schemas of websites and of moved:
 * a manifest without them never builds them. A lazy can wait so only in a map or a list: under
 * z.optional, zod builds it as soon as it parses the object around it.
 */
export type VarValue = string | number | boolean | JsonValue[] | Record<string, JsonValue>;
export const varValueSchema: z.ZodMiniType<VarValue> = z.lazy(() => z.union([z.string(), z.number(), z.boolean(), z.array(jsonValue), z.record(z.string(), jsonValue)]));

export const regionSchema = described(z.enum(REGIONS), 'CometChat region: us, eu or in.');

export const environmentSchema = described(
  z.strictObject({
    // The app id becomes the host of the default base URL, so it may hold nothing that changes the host.
    // A refinement, not a regex: the JSON Schema for editors sees the text before interpolation,
    // where `appId: ${APP_ID}` is fine.
    appId: described(
      z
        .string()
        .check(z.minLength(1))
        .check(z.refine((id) => APP_ID_PATTERN.test(id), 'appId may hold only letters, digits, - and _ (it names the host <appId>.api-<region>.cometchat.io)')),
      'The CometChat app id: letters, digits, - and _.',
    ),
    region: regionSchema,
    baseUrl: described(z.optional(z.string()), 'API base URL; defaults to https://{appId}.api-{region}.cometchat.io/v3.'),
    apiKeyEnv: described(
      z._default(z.string().check(z.regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'must be an environment variable name')), 'COMETCHAT_API_KEY'),
      'The environment variable that holds the REST API key.',
    ),
    vars: described(
      z._default(z.record(z.string(), varValueSchema), {}),
      'Values for ${var.NAME}: text, numbers and booleans anywhere in a string; lists and maps where a value is exactly ${var.NAME}.',
    ),
  }),
  'One target environment (an app in a region).',
);

/** Built on first use, like the other sections a manifest may leave out (optionalSection). */
export const notifySchema = z.lazy(() =>
  described(
    z.strictObject({
      receiver: z.string().check(z.minLength(1)),
      receiverType: z.enum(['user', 'group']),
      onBehalfOf: z.optional(z.string().check(z.minLength(1))),
    }),
    'One chat message after an apply that changed something.',
  ),
);

/** Built on first use, like notifySchema. */
export const stateConfigSchema = z.lazy(() =>
  described(
    z.strictObject({
      url: described(z.string(), 'Where the state lives: a postgres:// URL (usually ${AGENTSYNC_STATE_URL}) or a file path; empty means the default file.'),
      key: described(z.optional(z.string().check(z.minLength(1)).check(z.maxLength(200))), 'The state key in a shared backend; defaults to the environment name.'),
    }),
    'Where the state is kept (default: a file beside the manifest).',
  ),
);

/** Built on first use, like varValueSchema. */
export const movedSchema = z.lazy(() =>
  described(
    z.strictObject({
      from: described(z.string().check(z.minLength(1)), 'The old address, e.g. agent.support.'),
      to: described(z.string().check(z.minLength(1)), 'The new address, of the same kind, e.g. agent.helpdesk.'),
    }),
    'A renamed manifest key: the state entry moves instead of a create plus a forget.',
  ),
);

/** `lint:` (agentsync lint): a rule id → off, warning or error. Never part of a plan. Built on first use, like notifySchema. */
export const lintConfigSchema = z.lazy(() => {
  const lintSetting = z.enum(LINT_SETTINGS as [LintSetting, ...LintSetting[]]);
  return described(
    z.strictObject(Object.fromEntries(LINT_RULE_IDS.map((id) => [id, z.optional(lintSetting)])) as Record<LintRuleId, z.ZodMiniOptional<typeof lintSetting>>),
    'Lint rules to turn off (off) or to report as warning or error.',
  );
});

/**
 * The kinds' sections, from the entries table (core/kinds/entries.ts): a one-segment section
 * (`tools`) is a map the manifest may leave out; a nested one (`knowledgeBase.websites`) sits in a
 * group built on first use (optionalSection), beside the group's other kinds.
 */
function kindSections(): Record<string, z.ZodMiniType> {
  const shape: Record<string, z.ZodMiniType> = {};
  const groups = new Map<string, Record<string, z.ZodMiniType>>();
  for (const type of RESOURCE_TYPES) {
    const { section, keySchema, schema } = entryOf(type);
    // The entries name their schemas without zod's types (core/kinds/entry.ts); they are zod schemas.
    const map = z._default(z.record(keySchema as z.ZodMiniString, schema as z.ZodMiniType), {});
    const [root = '', inner] = section;
    if (inner === undefined) {
      shape[root] = map;
      continue;
    }
    let group = groups.get(root);
    if (group === undefined) {
      group = {};
      groups.set(root, group);
      const members = group;
      shape[root] = optionalSection(z.lazy(() => z.strictObject(members)));
    }
    group[inner] = map;
  }
  return shape;
}

const manifestObject = described(
  z.strictObject({
    version: z.literal(1, { error: 'version must be 1' }),
    environments: z.record(addressKey, environmentSchema).check(z.refine((envs) => Object.keys(envs).length > 0, { message: 'environments needs at least one environment' })),
    ...kindSections(),
    notify: optionalSection(notifySchema),
    external: optionalSection(z.lazy(() => z.strictObject({ tools: z._default(z.array(z.string()), []) }))),
    state: optionalSection(stateConfigSchema),
    moved: described(z._default(z.array(movedSchema), []), "Renamed keys, like Terraform's moved blocks: apply moves each state entry."),
    lint: optionalSection(lintConfigSchema),
  }),
  'agentsync manifest (agents.yaml)',
);

export type ManifestInput = z.input<typeof manifestObject> & KindSections<typeof ENTRIES, 'input'>;
export type Manifest = z.output<typeof manifestObject> & KindSections<typeof ENTRIES, 'output'>;

/** The manifest's schema, typed with the kinds' maps (which the object above builds from a table, untyped). */
export const manifestSchema = manifestObject as unknown as z.ZodMiniType<Manifest, ManifestInput>;
export type EnvironmentConfig = z.output<typeof environmentSchema>;
export type NotifyConfig = z.output<typeof notifySchema>;
export type StateConfig = z.output<typeof stateConfigSchema>;
