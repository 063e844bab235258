// A tool's manifest entry (docs/spec/manifest.md#tools): its schema and the spec it asks for. The
// map key is the tool's name on the server.
import * as z from 'zod/mini';
import { TOOL_NAME_PATTERN } from '../../api-types.js';
import { described } from '../../zod.js';
import type { KindEntry } from '../entry.js';
import { isObject } from '../kind.js';
import { isObjectPayload, nameSet, resourceEnvironments } from '../schema-parts.js';

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

export type ManifestTool = z.output<typeof toolSchema>;

/** What `PUT /ai-agents/tools/{name}` sends: every managed field, defaults applied (the server merges). */
export type ToolSpec = Omit<ManifestTool, 'description' | 'parameters' | 'environments'> & {
  name: string;
  description: string;
  parameters: NonNullable<ManifestTool['parameters']>;
};

export const toolManifest: KindEntry<ManifestTool, ToolSpec, readonly ['tools']> = {
  section: ['tools'],
  keyPattern: TOOL_NAME_PATTERN,
  keySchema: z.string().check(z.regex(TOOL_NAME_PATTERN, 'tool name must match ^[a-zA-Z_$][a-zA-Z0-9_$-]*$')),
  schema: toolSchema,
  build: (tool, name) => ({
    name,
    displayName: tool.displayName,
    executionText: tool.executionText,
    description: tool.description ?? '',
    doNotExecute: tool.doNotExecute,
    parameters: tool.parameters ?? {},
  }),
};
