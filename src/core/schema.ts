// The manifest format (docs/spec/manifest.md#top-level-keys) as one zod schema. It is the single
// source of the manifest's TypeScript types, of validation and of `agentsync schema`. Parsing
// applies the defaults, so the parsed output is already the normalized spec that the diff compares
// and the API receives.
import * as z from 'zod/mini';
import { described, optionalSection } from './zod.js';
import { REGIONS, TOOL_NAME_PATTERN, type JsonValue } from './api-types.js';
import { APP_ID_PATTERN } from './base-url.js';
import { urlGlobProblem } from './url-glob.js';
import { LINT_RULE_IDS, LINT_SETTINGS, type LintRuleId, type LintSetting } from './lint/rule-ids.js';

const jsonValue: z.ZodMiniType<JsonValue> = z.lazy(() => z.union([z.string(), z.number(), z.boolean(), z.null(), z.array(jsonValue), z.record(z.string(), jsonValue)]));
/** Free-form objects (metaData, integrationMeta, …) keep any JSON. */
const freeObject = z.record(z.string(), jsonValue);

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
const isObjectPayload = (payload: { value: unknown }): boolean => isObject(payload.value);

const httpUrl = z.string().check(z.refine((s) => /^https?:\/\/[^\s/]+/i.test(s) && URL.canParse(s), { message: 'must be an http(s) URL' }));

/**
 * Set-like arrays compare as sets, so they are normalized to sorted and de-duplicated. Which fields
 * are sets is the field tables' `set: true` (core/kinds/<kind>/fields.ts); core/build-desired.ts sorts
 * from there, and test/core/set-facts.test.ts fails when a list here disagrees with its table.
 */
const nameSet = z.pipe(
  z.array(z.string()),
  z.transform((list: string[]) => [...new Set(list)].sort()),
);

/**
 * A resource's `environments:` (docs/spec/manifest.md#per-environment-resources): it exists only
 * there. Never sent; the names are checked against `environments` by core/resource-environments.ts,
 * which knows them.
 */
const resourceEnvironments = described(
  z.optional(
    z.pipe(
      z.array(z.string()),
      z.transform((list: string[]) => [...new Set(list)].sort()),
    ),
  ),
  'Only in these environments (default: every environment). Never sent.',
);

/**
 * A `vars` value: a scalar is text wherever it is used; a list or map is taken whole by a value that
 * is exactly ${var.NAME}. Built on first use (z.lazy), like the schemas of websites and of moved:
 * a manifest without them never builds them. A lazy can wait so only in a map or a list: under
 * z.optional, zod builds it as soon as it parses the object around it.
 */
export const varValueSchema = z.lazy(() => z.union([z.string(), z.number(), z.boolean(), z.array(jsonValue), z.record(z.string(), jsonValue)]));
export type VarValue = z.output<typeof varValueSchema>;

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

export const parameterPropertySchema = described(
  z.looseObject({
    type: described(z.string(), 'JSON Schema type of the parameter.'),
    description: described(z.string(), 'What the parameter means.'),
  }),
  'A parameter; other JSON Schema keywords (enum, items, …) are kept and sent unchanged.',
);

export const parametersSchema = described(
  z.strictObject({
    type: z.optional(z.literal('object')),
    properties: z.optional(z.record(z.string(), parameterPropertySchema)),
    required: z.optional(nameSet),
  }),
  'The tool parameters: { type: object, properties, required? }, or {}.',
);

export const toolSchema = described(
  z
    .strictObject({
      displayName: described(z.string(), 'Name shown in a UI.'),
      executionText: described(z.string(), 'Text shown while the tool runs.'),
      description: described(z.optional(z.string()), 'Required unless doNotExecute is true.'),
      doNotExecute: described(z._default(z.boolean(), false), 'When true the tool is not executed locally.'),
      parameters: described(z.optional(parametersSchema), 'Required unless doNotExecute is true; absent or {} when it is.'),
      environments: resourceEnvironments,
    })
    // `when`: run even when a sibling field already failed, so every problem is reported in one run.
    // The value may then be malformed, hence the defensive reads below.
    .check(
      z.superRefine(
        (tool, ctx) => {
          const doNotExecute = tool.doNotExecute === true;
          const params: unknown = tool.parameters;
          if (!doNotExecute) {
            if (tool.description === undefined) {
              ctx.addIssue({ code: 'custom', path: ['description'], message: 'description is required unless doNotExecute is true' });
            }
            if (params === undefined) {
              ctx.addIssue({ code: 'custom', path: ['parameters'], message: 'parameters is required unless doNotExecute is true (use {} for none)' });
            }
          } else if (isObject(params) && Object.keys(params).length > 0) {
            ctx.addIssue({ code: 'custom', path: ['parameters'], message: 'parameters must be absent or {} when doNotExecute is true' });
          }
          if (!isObject(params) || Object.keys(params).length === 0) return;
          if (params.type === undefined) {
            // A wrong value is already reported by the literal; only a missing one needs saying here.
            ctx.addIssue({ code: 'custom', path: ['parameters', 'type'], message: 'parameters.type must be "object"' });
          }
          if (params.properties === undefined) {
            ctx.addIssue({ code: 'custom', path: ['parameters', 'properties'], message: 'parameters.properties is required when parameters is not empty' });
          }
          const known = isObject(params.properties) ? params.properties : {};
          const required = Array.isArray(params.required) ? params.required : [];
          // `required` is already sorted here, so an index would point at the wrong item: name the list.
          required.forEach((name) => {
            if (typeof name === 'string' && !Object.hasOwn(known, name)) {
              ctx.addIssue({ code: 'custom', path: ['parameters', 'required'], message: `required names "${name}", which is not a key of parameters.properties` });
            }
          });
        },
        { when: isObjectPayload },
      ),
    ),
  'A tool an agent may call. The map key is its name.',
);

export const agentSchema = described(
  z
    .strictObject({
      name: described(z.string().check(z.minLength(1)), 'Agent name.'),
      integrationType: described(z.enum(['llm', 'agent']), 'llm or agent.'),
      integrateWith: described(z.string().check(z.minLength(1)), 'The model or platform identifier.'),
      isActive: z._default(z.boolean(), true),
      tools: described(z._default(nameSet, []), 'Names of tools (from this manifest or external.tools).'),
      actions: described(z._default(nameSet, []), 'Names of actions (from this manifest or external.tools).'),
      icon: described(z.optional(httpUrl), 'http(s) URL of the agent icon.'),
      instruction: z.optional(z.string()),
      suggestions: z.optional(z.array(z.string())),
      platformTools: z.optional(nameSet),
      integrationMeta: described(z.optional(freeObject), 'Required for integrationType agent, with baseUrl.'),
      metaData: described(z.optional(freeObject), 'Free-form metadata.'),
      environments: resourceEnvironments,
    })
    .check(
      z.superRefine(
        (agent, ctx) => {
          if (agent.integrationType !== 'agent') return;
          const meta: unknown = agent.integrationMeta;
          const baseUrl = isObject(meta) ? meta.baseUrl : undefined;
          if (agent.integrationMeta === undefined) {
            ctx.addIssue({ code: 'custom', path: ['integrationMeta'], message: 'integrationMeta with baseUrl is required when integrationType is agent' });
          } else if (typeof baseUrl !== 'string') {
            ctx.addIssue({ code: 'custom', path: ['integrationMeta', 'baseUrl'], message: 'integrationMeta.baseUrl (an http(s) URL) is required when integrationType is agent' });
          } else if (!httpUrl.safeParse(baseUrl).success) {
            ctx.addIssue({ code: 'custom', path: ['integrationMeta', 'baseUrl'], message: 'integrationMeta.baseUrl must be an http(s) URL' });
          }
        },
        { when: isObjectPayload },
      ),
    ),
  'An AI agent. The map key is its address in this manifest and is never sent.',
);

/** A plan matches every discovered URL against each glob: with MAX_URL_GLOB_LENGTH, this bounds its cost per URL. */
export const MAX_EXCLUDE_GLOBS = 1000;

/** A glob quoted for a diagnostic: a pathological one is thousands of characters, so only its start. */
function quoteGlob(glob: string): string {
  return glob.length <= 200 ? JSON.stringify(glob) : `${JSON.stringify(glob.slice(0, 60)).slice(0, -1)}…" (${glob.length} characters)`;
}

/** Built on first use, like varValueSchema. */
export const websiteSchema = z.lazy(() =>
  described(
    z
      .strictObject({
        url: described(z.optional(httpUrl), 'The site to crawl (POST …/website/scrape when new). Give url or parentUniqueId, not both.'),
        maxDepth: described(
          z.optional(z.number().check(z.int('maxDepth must be a whole number')).check(z.gte(1, 'maxDepth must be from 1 to 10')).check(z.lte(10, 'maxDepth must be from 1 to 10'))),
          'Crawl depth from url (1–10; the server defaults to 3).',
        ),
        maxPages: described(
          z.optional(z.number().check(z.int('maxPages must be a whole number')).check(z.gte(1, 'maxPages must be from 1 to 10000')).check(z.lte(10_000, 'maxPages must be from 1 to 10000'))),
          'Crawl page limit (1–10000; the server defaults to 100).',
        ),
        crawl: described(
          z.optional(
            z.strictObject({
              include: described(z.optional(z.array(z.string().check(z.minLength(1)))), "Crawl only URLs containing one of these substrings (the scrape's include)."),
              exclude: described(z.optional(z.array(z.string().check(z.minLength(1)))), "Do not crawl URLs containing one of these substrings (the scrape's exclude)."),
              sitemap: described(z.optional(z.boolean()), "Also read the sitemap (the scrape's fetchSitemap)."),
            }),
          ),
          'With url: what the crawl itself follows, so maxPages is spent on wanted pages. Unlike exclude (globs that pick what is processed after the crawl), a change re-crawls.',
        ),
        parentUniqueId: described(z.optional(z.string().check(z.minLength(1))), 'The id of a website already in the knowledge base (the seed form).'),
        // Not a nameSet: sorting here would make a glob's error point at another item. build-desired sorts it (its table says set).
        exclude: described(z.optional(z.array(z.string())), 'With url: URL globs to leave out (** across path segments, * within one). With parentUniqueId: discovered-URL ids (required, may be []).'),
        environments: resourceEnvironments,
      })
      .check(
        z.superRefine(
          (site, ctx) => {
            const hasUrl = site.url !== undefined;
            if (hasUrl && site.parentUniqueId !== undefined) {
              ctx.addIssue({ code: 'custom', path: ['parentUniqueId'], message: 'give url or parentUniqueId, not both (url scrapes a new website; parentUniqueId names one that exists)' });
            } else if (!hasUrl && site.parentUniqueId === undefined) {
              ctx.addIssue({ code: 'custom', path: [], message: 'a website needs url (a site to crawl) or parentUniqueId (a website already in the knowledge base)' });
            }
            if (!hasUrl) {
              for (const field of ['maxDepth', 'maxPages', 'crawl'] as const) {
                if (site[field] !== undefined) ctx.addIssue({ code: 'custom', path: [field], message: `${field} is a crawl setting: it needs url` });
              }
              if (site.parentUniqueId !== undefined && site.exclude === undefined)
                ctx.addIssue({ code: 'custom', path: ['exclude'], message: 'missing required key "exclude" (with parentUniqueId: a list of discovered-URL ids, may be [])' });
              return;
            }
            const written: unknown = site.exclude;
            if (!Array.isArray(written)) return;
            if (written.length > MAX_EXCLUDE_GLOBS) {
              ctx.addIssue({
                code: 'custom',
                path: ['exclude', MAX_EXCLUDE_GLOBS],
                message: `a website may have at most ${MAX_EXCLUDE_GLOBS} exclude globs (this one has ${written.length}); every discovered URL is matched against each`,
              });
              return;
            }
            written.forEach((glob: unknown, index) => {
              const problem = typeof glob === 'string' ? urlGlobProblem(glob) : undefined;
              if (problem !== undefined) ctx.addIssue({ code: 'custom', path: ['exclude', index], message: `${quoteGlob(glob as string)} is not a valid URL glob: ${problem}` });
            });
          },
          { when: isObjectPayload },
        ),
      ),
    'A knowledge-base website: a url to crawl with URL globs to leave out, or the parentUniqueId of one that exists with discovered-URL ids to leave out.',
  ),
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

const toolName = z.string().check(z.regex(TOOL_NAME_PATTERN, 'tool name must match ^[a-zA-Z_$][a-zA-Z0-9_$-]*$'));
/** The key of an agent, a website or an environment; a tool's key is its name (TOOL_NAME_PATTERN). */
export const ADDRESS_KEY_PATTERN = /^[A-Za-z0-9_$][A-Za-z0-9_$.-]*$/;
const addressKey = z.string().check(z.regex(ADDRESS_KEY_PATTERN, 'key must be letters, digits, _, $, . or -'));

export const manifestSchema = described(
  z.strictObject({
    version: z.literal(1, { error: 'version must be 1' }),
    environments: z.record(addressKey, environmentSchema).check(z.refine((envs) => Object.keys(envs).length > 0, { message: 'environments needs at least one environment' })),
    tools: z._default(z.record(toolName, toolSchema), {}),
    agents: z._default(z.record(addressKey, agentSchema), {}),
    knowledgeBase: optionalSection(z.lazy(() => z.strictObject({ websites: z._default(z.record(addressKey, websiteSchema), {}) }))),
    notify: optionalSection(notifySchema),
    external: optionalSection(z.lazy(() => z.strictObject({ tools: z._default(z.array(z.string()), []) }))),
    state: optionalSection(stateConfigSchema),
    moved: described(z._default(z.array(movedSchema), []), "Renamed keys, like Terraform's moved blocks: apply moves each state entry."),
    lint: optionalSection(lintConfigSchema),
  }),
  'agentsync manifest (agents.yaml)',
);

export type ManifestInput = z.input<typeof manifestSchema>;
export type Manifest = z.output<typeof manifestSchema>;
export type EnvironmentConfig = z.output<typeof environmentSchema>;
export type ManifestTool = z.output<typeof toolSchema>;
export type ManifestAgent = z.output<typeof agentSchema>;
export type ManifestWebsite = z.output<typeof websiteSchema>;
export type NotifyConfig = z.output<typeof notifySchema>;
export type StateConfig = z.output<typeof stateConfigSchema>;
